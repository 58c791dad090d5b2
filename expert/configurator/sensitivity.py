"""Sensitivity: which single change of input changes the choice, and to what.

Changes tried (each alone, on a copy of the workload): fine-tuning frequency one step down and up
(none < yearly < quarterly < monthly < weekly), latency target × 0.5 and × 2, request volume × 2,
horizon 12 and 60 months, budget opex ↔ capex (when the deployment leaves the choice open), hosting
any ↔ ch, allow_int4 toggled (where the precision is open). Each change is a search of its own
(`enumeration.run`, cost-ordered like the advice's) on the caches the main search filled (the sized
profiles of every search that sizes the same replicas: `feasibility.Context.profile`), and its pick is
made by the rule the main pick uses: the cheapest, or the near tie's winner (`near_tie_pick`, QA 44 D6).
A change is reported when that pick differs from the recommendation in what is bought (source, count,
precision); a different tensor-parallel split of the same GPUs is the same purchase. Where only the
precision differs, the line says the pick stays, with its precision and cost (QA 46: "1× l40s (…, fp8)
becomes cheapest" at the pick's own cost named no change of what is bought).
"""

from __future__ import annotations

from expert.configurator.explain import label
from expert.report.numbers import grouped
from expert.configurator.models import Sensitivity
from expert.configurator.enumeration import run, to_choice
from expert.configurator.near_tie_pick import near_tie_pick
from expert.messages import t
from expert.inputs.workload import Workload

STEPS = ("none", "yearly", "quarterly", "monthly", "weekly")
LANGS = ("en", "de")
MARK = {"en": ".", "de": ","}
"""The decimal mark of each language, for seconds written in Python's shortest form (`0.5`, `0,5`)."""


def _s(value: float, lang: str) -> str:
    """A number of seconds as the language writes it: `0.5` / `0,5`, `2`."""
    return f"{value:g}".replace(".", MARK[lang])


def _text(key: str, **values) -> dict[str, str]:
    """The message `key` in both languages; a callable value is called with the language."""
    return {lang: t(key, lang, **{k: v(lang) if callable(v) else v for k, v in values.items()}) for lang in LANGS}


def _freq(step: str):
    return lambda lang: t(f"configurator.sensitivity.freq.{step}", lang)


def variations(w: Workload) -> list[tuple[str, dict[str, str], dict]]:
    """(id, description {en, de}, field updates) for every single change."""
    out = []
    tune = w.tuning
    i = STEPS.index(tune.frequency)
    for j in (i - 1, i + 1):
        if 0 <= j < len(STEPS):
            new = STEPS[j]
            out.append((f"fine_tuning:{new}", _text("configurator.sensitivity.fine_tuning", new=_freq(new),
                                                    old=_freq(tune.frequency)),
                        {"fine_tuning": tune.model_copy(update={"frequency": new})}))
    if w.latency_target_s is None:  # no target given: try 000 U1's "under 2 s" and G5's "under 500 ms"
        for v in (2.0, 0.5):
            out.append((f"latency_target_s:{v:g}",
                        _text("configurator.sensitivity.latency_target", value=lambda lang, v=v: _s(v, lang)),
                        {"latency_target_s": v}))
    for f in ((0.5, 2.0) if w.latency_target_s is not None else ()):
        v = w.latency_target_s * f
        out.append((f"latency_target_s:{v:g}",
                    _text("configurator.sensitivity.latency_instead", value=lambda lang, v=v: _s(v, lang),
                          old=lambda lang: _s(w.latency_target_s, lang)),
                    {"latency_target_s": v}))
    if w.average_rps > 0:
        upd = {"requests_per_second": w.requests_per_second * 2} if w.requests_per_second is not None \
            else {"requests_per_day": (w.requests_per_day or 0) * 2}
        out.append(("requests:x2", _text("configurator.sensitivity.requests"), upd))
    elif w.agent is not None and (w.agent.tasks_per_day or w.agent.concurrent_users):  # agent volume
        a = w.agent
        upd = {"agent": a.model_copy(update={"tasks_per_day": a.tasks_per_day * 2} if a.tasks_per_day
                                     else {"concurrent_users": a.concurrent_users * 2})}
        out.append(("requests:x2", _text("configurator.sensitivity.tasks"), upd))
    for m in (12, 60):
        if m != w.horizon_months:
            out.append((f"horizon_months:{m}", _text("configurator.sensitivity.horizon", new=m, old=w.horizon_months),
                        {"horizon_months": m}))
    if w.deployment == "any" and w.budget != "any":     # budget 'any' already compares both
        other = "capex" if w.budget == "opex" else "opex"
        out.append((f"budget:{other}", _text("configurator.sensitivity.budget",
                                             new=lambda lang: t(f"configurator.sensitivity.budget.{other}", lang),
                                             old=lambda lang: t(f"configurator.sensitivity.budget.{w.budget}", lang)),
                    {"budget": other}))
    host = "ch" if w.hosting != "ch" else "any"
    out.append((f"hosting:{host}", _text("configurator.sensitivity.hosting", new=host, old=w.hosting),
                {"hosting": host}))
    if w.precision_open:  # a kept precision ignores allow_int4 (quantised options: `quantised.py`)
        out.append((f"allow_int4:{not w.allow_int4}",
                    _text("configurator.sensitivity.int4." + ("forbid" if w.allow_int4 else "allow")),
                    {"allow_int4": not w.allow_int4}))
    return out


def _same_gpus(a, b) -> bool:
    """The same GPUs: the same source (offer, package or purchase) and count."""
    if a is None or b is None:
        return a is b
    return (a.source.key, a.count) == (b.source.key, b.count)


def _same(a, b) -> bool:
    """The same choice: the same GPUs in the same precision."""
    return _same_gpus(a, b) and (a is None or a.precision == b.precision)


def sensitivity(w: Workload, catalog, a, out, shared: dict) -> tuple[list[dict[str, str]], list[Sensitivity]]:
    """Texts for the changes that change the choice, and the details of every change tried; `out` is
    the main search's outcome with its pick (`out.best`, the near tie's winner where there is one):
    each change's pick, by the same rule, is compared with it."""
    texts, details = [], []
    for change, desc, upd in variations(w):
        ctx2, found, _ = run(w.model_copy(update=upd), catalog, a, shared, detail=False)
        cheapest = found.best
        tie = near_tie_pick(cheapest, list(found.group_best.values()))
        best = tie or cheapest
        changed = not _same(best, out.best)
        other_precision = changed and best is not None and _same_gpus(best, out.best)
        if best is None:
            key = "configurator.sensitivity.nothing_fits"
        else:
            key = ("configurator.sensitivity.fits" if out.best is None else
                   "configurator.sensitivity.stays_precision" if other_precision else
                   "configurator.sensitivity.same" if not changed else
                   "configurator.sensitivity.near_tie" if tie is not None else "configurator.sensitivity.cheapest")
        text = _text(key, change=lambda lang: desc[lang],
                     choice=lambda lang: label(best, lang) if best is not None else "",
                     cheapest=lambda lang: label(cheapest, lang) if tie is not None else "",
                     chf=grouped(best.objective) if best is not None else "", months=ctx2.months)
        if changed:
            texts.append(text)
        details.append(Sensitivity(change=change, changes_choice=changed, text=text,
                                   choice=to_choice(best, ctx2) if best is not None else None))
    return texts, details
