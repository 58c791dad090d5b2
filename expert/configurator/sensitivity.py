"""Sensitivity: which single change of input changes the choice, and to what.

Changes tried (each alone, on a copy of the workload): fine-tuning frequency one step down and up
(none < yearly < quarterly < monthly < weekly), latency target × 0.5 and × 2, request volume × 2,
horizon 12 and 60 months, budget opex ↔ capex (when the deployment leaves the choice open), hosting
any ↔ ch, allow_int4 toggled. Sub-searches share the per-(model, GPU, precision, TP) sizing cache of
the main search.
"""

from __future__ import annotations

from expert.configurator.explain import label
from expert.numbers import grouped
from expert.configurator.models import Sensitivity
from expert.configurator.search import run, to_choice
from expert.workload import Workload

STEPS = ("none", "yearly", "quarterly", "monthly", "weekly")
FREQ = {"en": {"none": "no", "yearly": "yearly", "quarterly": "quarterly", "monthly": "monthly",
               "weekly": "weekly"},
        "de": {"none": "keinem", "yearly": "jährlichem", "quarterly": "vierteljährlichem",
               "monthly": "monatlichem", "weekly": "wöchentlichem"}}


def _de(value: float) -> str:
    """A number of seconds as German writes it: `0,5`, `2`."""
    return f"{value:g}".replace(".", ",")


def variations(w: Workload) -> list[tuple[str, dict[str, str], dict]]:
    """(id, description {en, de}, field updates) for every single change."""
    out = []
    t = w.tuning
    i = STEPS.index(t.frequency)
    for j in (i - 1, i + 1):
        if 0 <= j < len(STEPS):
            new = STEPS[j]
            out.append((f"fine_tuning:{new}", {
                "en": f"with {FREQ['en'][new]} instead of {FREQ['en'][t.frequency]} fine-tuning",
                "de": f"mit {FREQ['de'][new]} statt {FREQ['de'][t.frequency]} Fine-Tuning"},
                {"fine_tuning": t.model_copy(update={"frequency": new})}))
    if w.latency_target_s is None:  # no target given: try 000 U1's "under 2 s" and G5's "under 500 ms"
        for v in (2.0, 0.5):
            out.append((f"latency_target_s:{v:g}", {"en": f"with a {v:g} s latency target",
                                                     "de": f"mit einem Latenzziel von {_de(v)} s"},
                        {"latency_target_s": v}))
    for f in ((0.5, 2.0) if w.latency_target_s is not None else ()):
        v = w.latency_target_s * f
        out.append((f"latency_target_s:{v:g}", {"en": f"with a {v:g} s instead of {w.latency_target_s:g} s latency target",
                                                 "de": f"mit {_de(v)} s statt {_de(w.latency_target_s)} s "
                                                       f"Latenzziel"},
                    {"latency_target_s": v}))
    if w.average_rps > 0:
        upd = {"requests_per_second": w.requests_per_second * 2} if w.requests_per_second is not None \
            else {"requests_per_day": (w.requests_per_day or 0) * 2}
        out.append(("requests:x2", {"en": "with twice the requests", "de": "mit doppelt so vielen Anfragen"}, upd))
    elif w.agent is not None and (w.agent.tasks_per_day or w.agent.concurrent_users):  # agent volume
        a = w.agent
        upd = {"agent": a.model_copy(update={"tasks_per_day": a.tasks_per_day * 2} if a.tasks_per_day
                                     else {"concurrent_users": a.concurrent_users * 2})}
        out.append(("requests:x2", {"en": "with twice the tasks", "de": "mit doppelt so vielen Aufgaben"}, upd))
    for m in (12, 60):
        if m != w.horizon_months:
            out.append((f"horizon_months:{m}", {"en": f"over {m} instead of {w.horizon_months} months",
                                                "de": f"über {m} statt {w.horizon_months} Monate"},
                        {"horizon_months": m}))
    if w.deployment == "any" and w.budget != "any":     # budget 'any' already compares both
        other = "capex" if w.budget == "opex" else "opex"
        words = {"opex": ("renting (opex)", "Miete (Opex)"), "capex": ("buying (capex)", "Kauf (Capex)")}
        out.append((f"budget:{other}", {"en": f"with {words[other][0]} instead of {words[w.budget][0]}",
                                        "de": f"mit {words[other][1]} statt {words[w.budget][1]}"},
                    {"budget": other}))
    host = "ch" if w.hosting != "ch" else "any"
    out.append((f"hosting:{host}", {"en": f"with hosting '{host}' instead of '{w.hosting}'",
                                    "de": f"mit Hosting '{host}' statt '{w.hosting}'"}, {"hosting": host}))
    out.append((f"allow_int4:{not w.allow_int4}", {
        "en": "allowing INT4" if not w.allow_int4 else "without INT4",
        "de": "mit erlaubtem INT4" if not w.allow_int4 else "ohne INT4"}, {"allow_int4": not w.allow_int4}))
    return out


def _same(a, b) -> bool:
    if a is None or b is None:
        return a is b
    return (a.source.key, a.count, a.precision, a.tp) == (b.source.key, b.count, b.precision, b.tp)


def sensitivity(w: Workload, catalog, a, out, shared: dict) -> tuple[list[dict[str, str]], list[Sensitivity]]:
    """Texts for the changes that change the choice, and the details of every change tried."""
    texts, details = [], []
    for change, desc, upd in variations(w):
        w2 = w.model_copy(update=upd)
        ctx2, out2, _ = run(w2, catalog, a, shared, optimum_only=True)
        best = out2.best
        changed = not _same(best, out.best)
        if best is None:
            text = {"en": f"{desc['en']}, nothing fits", "de": f"{desc['de']} passt nichts"}
        elif out.best is None:
            text = {"en": f"{desc['en']}, {label(best)} fits ({grouped(best.objective)} CHF over {ctx2.months} months)",
                    "de": f"{desc['de']} passt {label(best, 'de')} ({grouped(best.objective)} CHF über {ctx2.months} Monate)"}
        elif changed:
            text = {"en": f"{desc['en']}, {label(best)} becomes cheapest ({grouped(best.objective)} CHF over "
                          f"{ctx2.months} months)",
                    "de": f"{desc['de']} wird {label(best, 'de')} am günstigsten ({grouped(best.objective)} CHF über "
                          f"{ctx2.months} Monate)"}
        else:
            text = {"en": f"{desc['en']}, the choice stays the same", "de": f"{desc['de']} bleibt die Wahl gleich"}
        if changed:
            texts.append(text)
        details.append(Sensitivity(change=change, changes_choice=changed, text=text,
                                   choice=to_choice(best, ctx2) if best is not None else None))
    return texts, details
