"""Plain-word explanations in English and German: why an alternative lost, why nothing fits, the
Pareto front of cost against latency."""

from __future__ import annotations

from expert.configurator.feasibility import Candidate, Violation
from expert.configurator.models import ParetoPoint
from expert.messages import has, provider_name, t
from expert.report.numbers import dec, grouped
from expert.sizing.parallel import TP_DEGREES

LANGS = ("en", "de")
REASON_FIELD = {"en": "reason", "de": "reason_de"}
"""The fact that carries a training plan's own reason, per language (`training_plan.py`)."""
TARGET = {"en": lambda x: f"{x:g}", "de": lambda x: dec(x, "de", 2).rstrip("0").rstrip(",")}
"""How a latency target is written in each language (see `short`)."""


def num(x: float, digits: int = 1, lang: str = "en") -> str:
    """`1.24` in English, `1,24` in German."""
    return dec(x, lang, digits)


def label(c: Candidate, lang: str = "en") -> str:
    """'2× l40s (Hikube, int8)': where it comes from (`where_words`) and its precision."""
    return f"{c.count}× {c.source.gpu.id} ({where_words(c.source, lang)}, {c.precision})"


def where_words(source, lang: str = "en") -> str:
    """Where a configuration's GPUs come from, in `lang` words: the offer's provider (`Hikube`), a
    package (`Paket 4`) or a purchase (`Kauf, neu`); never an offer id or the `purchase:<gpu>:<condition>`
    key."""
    if source.package:
        return t("report.package", lang, id=source.package)
    if source.key.startswith("purchase:"):
        key = f"configurator.purchase.{source.key.rsplit(':', 1)[-1]}"
        return t(key, lang) if has(key) else t("configurator.purchase", lang)
    return provider_name(source.provider, lang) if source.provider else source.key


def short(x: float, lang: str = "en") -> str:
    """A latency target as written: `0.5`, `2` (Python's shortest form) in English; `0,5`, `2` (at most
    two decimals) in German."""
    return TARGET[lang](x)


def violation_text(v: Violation) -> dict[str, str]:
    """One failed constraint in plain words."""
    return {lang: _violation(v, lang) for lang in LANGS}


def _violation(v: Violation, lang: str) -> str:
    f = v.facts
    if v.kind == "memory":
        if f.get("growth_gb") and f["growth_gb"] > f["usable_gb"]:
            return t("configurator.violation.memory.growth", lang, growth=grouped(f["growth_gb"]),
                     usable=grouped(f["usable_gb"]))
        r = round(f["reserve"] * 100)
        if r and f["need_gb"] <= f["usable_gb"]:
            return t("configurator.violation.memory.reserve", lang, weights=grouped(f["weights_gb"]),
                     limit=grouped(f["weights_limit_gb"]), reserve=r)
        # the figures are one replica's: said so where the count holds more (QA 44 D12: "64× ... has 184")
        tp, count = f.get("tp", 1), f.get("count", 1)
        key = ("configurator.violation.memory.replica" if tp > 1 else
               "configurator.violation.memory.gpu" if count > 1 else "configurator.violation.memory")
        return t(key, lang, need=grouped(f["need_gb"]), usable=grouped(f["usable_gb"]), tp=tp)
    if v.kind == "latency":
        metric = f.get("metric", "e2e")
        if metric == "tpot":
            ms, target = f["latency_s"] * 1000, f["target_s"] * 1000
            # the milliseconds keep the English mark in both languages, as before the catalog
            return t("configurator.violation.tpot", lang, value=num(ms), target=f"{target:g}", miss=num(ms - target))
        what = {"ttft": "TTFT p95", "e2e": "p95"}[metric]
        return t("configurator.violation.latency", lang, what=what, value=num(f["latency_s"], 2, lang),
                 target=short(f["target_s"], lang), miss=num(f["latency_s"] - f["target_s"], 2, lang))
    if v.kind == "capacity":
        if f["gpus_needed"] is None:  # no replica count the search tries meets the targets at the peak
            return t("configurator.violation.capacity_unknown", lang, count=f["count"])
        return t("configurator.violation.capacity", lang, needed=f["gpus_needed"], count=f["count"])
    if v.kind == "availability":
        return t("configurator.violation.availability", lang, needed=f["replicas_needed"], replicas=f["replicas"])
    if v.kind == "ft_plan":
        reason = f.get(REASON_FIELD[lang]) or t("configurator.violation.ft_plan.no_fit", lang)
        return t("configurator.violation.ft_plan", lang, reason=reason)
    if v.kind == "budget":
        return t("configurator.violation.budget", lang, cost=grouped(f["cost_chf"]), limit=grouped(f["limit_chf"]))
    return v.kind


def failed_text(c: Candidate) -> dict[str, str]:
    """All failed constraints of a candidate, tightest (largest miss) first; where the model does not fit
    its memory, that alone: a replica that cannot load the model has no latency to state (QA 45 #10)."""
    stated = [v for v in c.violations if v.kind == "memory"] or c.violations
    parts = [violation_text(v) for v in sorted(stated, key=lambda v: -v.ratio)]
    return {lang: "; ".join(p[lang] for p in parts) for lang in LANGS}


def _signed(amount: float) -> str:
    return f"{'+' if amount >= 0 else '−'}{grouped(abs(amount))}"


def why_not(c: Candidate, best: Candidate | None, months: int) -> dict[str, str]:
    """Why a candidate lost against the recommendation."""
    if not c.feasible:
        return failed_text(c)
    if best is None:
        return {lang: "" for lang in LANGS}
    return {lang: _why_not(c, best, months, lang) for lang in LANGS}


def _why_not(c: Candidate, best: Candidate, months: int, lang: str) -> str:
    diff = c.objective - best.objective
    if round(diff, 2) > 0:
        parts = []
        train = (c.train_monthly - best.train_monthly) * months
        if round(train, 2) != 0:
            parts.append(t("configurator.why_not.training", lang, amount=_signed(train)))
        team = (c.team_monthly - best.team_monthly) * months
        if round(team, 2) != 0:
            parts.append(t("configurator.why_not.team", lang, amount=_signed(team)))
        extra = t("configurator.why_not.of_which", lang, parts=", ".join(parts)) if parts else ""
        return t("configurator.why_not.costlier", lang, diff=grouped(diff), months=months, extra=extra)
    if round(diff, 2) < 0:  # the cheapest, which lost a near tie (near_tie_pick.py)
        return t("configurator.why_not.near_tie", lang, saving=grouped(-diff), months=months)
    if c.precision != best.precision and c.key[1] > best.key[1]:
        return t("configurator.why_not.quantised", lang, precision=c.precision, best=best.precision)
    if round(c.latency, 6) > round(best.latency, 6):
        return t("configurator.why_not.slower", lang, latency=num(c.latency, 2, lang), best=num(best.latency, 2, lang))
    return t("configurator.why_not.tie", lang)


def nothing_fits_text(c: Candidate | None, reason: dict[str, str] | None = None,
                      limit: Candidate | None = None) -> dict[str, str]:
    """'nothing fits: the closest candidate, 8× h200 (...), misses ...', saying that serving across nodes is
    not modelled when the closest misses memory at TP 8 (a whole node). Where a candidate at the search's
    largest count misses capacity alone (`count_limit.beyond_limit`), the search's GPU limit is the cause:
    the text names it and the GPUs the peak needs there (QA 47 #12)."""
    if limit is not None:
        v = limit.violations[0].facts
        return {lang: t("configurator.nothing_fits.count_limit", lang, limit=limit.count, needed=grouped(
            v["gpus_needed"]), gpu=limit.source.gpu.id, closest=label(limit, lang), replicas=grouped(
            v["replicas_needed"]), tp=limit.tp) for lang in LANGS}
    if c is None:
        return {lang: t("configurator.nothing_fits", lang, reason=reason[lang] if reason else
                        t("configurator.nothing_fits.none_admissible", lang)) for lang in LANGS}
    failed = failed_text(c)
    beyond_node = c.tp == TP_DEGREES[-1] and any(v.kind == "memory" for v in c.violations)
    return {lang: t("configurator.nothing_fits.closest", lang, closest=label(c, lang), failed=failed[lang])
            + (t("configurator.nothing_fits.multi_node", lang, gpu=c.source.gpu.id) if beyond_node else "")
            for lang in LANGS}


def pareto(cands: list[Candidate], limit: int = 12) -> list[ParetoPoint]:
    """Non-dominated feasible candidates on (objective, latency), cheapest first."""
    front: list[Candidate] = []
    best_latency = float("inf")
    for c in sorted(cands, key=lambda c: c.key):
        if round(c.latency, 6) < round(best_latency, 6):
            front.append(c)
            best_latency = c.latency
    out = [ParetoPoint(gpu=c.source.gpu.id, count=c.count, source=c.source.kind, key=c.source.key,
                       precision=c.precision, tco_chf=round(c.objective, 2), latency_p95_s=round(c.latency, 4))
           for c in front]
    if len(out) > limit:  # keep both ends and an even spread
        step = (len(out) - 1) / (limit - 1)
        out = [out[round(i * step)] for i in range(limit)]
    return out
