"""Plain-word explanations in English and German: why an alternative lost, why nothing fits, the
Pareto front of cost against latency."""

from __future__ import annotations

from expert.configurator.feasibility import Candidate, Violation
from expert.configurator.models import ParetoPoint
from expert.messages import has, t
from expert.numbers import dec, grouped


def num(x: float, digits: int = 1, lang: str = "en") -> str:
    """`1.24` in English, `1,24` in German."""
    return dec(x, lang, digits)


def label(c: Candidate, lang: str = "en") -> str:
    """'2× l40s (hikube-l40s, int8)'; a package or a purchase in `lang` words (`Paket 4`,
    `Kauf, neu`), never the `purchase:<gpu>:<condition>` key."""
    if c.source.package:
        where = t("report.package", lang, id=c.source.package)
    elif c.source.key.startswith("purchase:"):
        condition = c.source.key.rsplit(":", 1)[-1]
        key = f"configurator.purchase.{condition}"
        where = t(key, lang) if has(key) else t("configurator.purchase", lang)
    else:
        where = c.source.key
    return f"{c.count}× {c.source.gpu.id} ({where}, {c.precision})"


def violation_text(v: Violation) -> dict[str, str]:
    """One failed constraint in plain words."""
    f = v.facts
    if v.kind == "memory":
        if f.get("growth_gb") and f["growth_gb"] > f["usable_gb"]:
            return {"en": f"the grown model needs {grouped(f['growth_gb'])} GB, has {grouped(f['usable_gb'])} usable",
                    "de": f"das gewachsene Modell braucht {grouped(f['growth_gb'])} GB, verfügbar sind "
                          f"{grouped(f['usable_gb'])}"}
        r = round(f["reserve"] * 100)
        if r and f["need_gb"] <= f["usable_gb"]:
            return {"en": f"weights take {grouped(f['weights_gb'])} GB, more than the {grouped(f['weights_limit_gb'])} "
                          f"GB left after the {r} % growth reserve (000 M5)",
                    "de": f"die Gewichte belegen {grouped(f['weights_gb'])} GB, mehr als die "
                          f"{grouped(f['weights_limit_gb'])} GB nach {r} % Wachstumsreserve (000 M5)"}
        return {"en": f"needs {grouped(f['need_gb'])} GB, has {grouped(f['usable_gb'])}",
                "de": f"braucht {grouped(f['need_gb'])} GB, verfügbar sind {grouped(f['usable_gb'])}"}
    if v.kind == "latency":
        metric = f.get("metric", "e2e")
        if metric == "tpot":
            ms, target = f["latency_s"] * 1000, f["target_s"] * 1000
            return {"en": f"TPOT {num(ms)} ms over the {target:g} ms target (misses it by {num(ms - target)} ms)",
                    "de": f"TPOT {num(ms)} ms über dem Ziel von {target:g} ms (verfehlt es um {num(ms - target)} ms)"}
        over = f["latency_s"] - f["target_s"]
        what = {"ttft": ("TTFT p95", "TTFT p95"), "e2e": ("p95", "p95")}[metric]
        return {"en": f"{what[0]} {num(f['latency_s'], 2)} s over the {f['target_s']:g} s target "
                      f"(misses it by {num(over, 2)} s)",
                "de": f"{what[1]} {num(f['latency_s'], 2, 'de')} s über dem Ziel von "
                      f"{dec(f['target_s'], 'de', 2).rstrip('0').rstrip(',')} s "
                      f"(verfehlt es um {num(over, 2, 'de')} s)"}
    if v.kind == "capacity":
        return {"en": f"the peak load needs {f['gpus_needed']} GPUs, has {f['count']}",
                "de": f"die Spitzenlast braucht {f['gpus_needed']} GPUs, vorhanden sind {f['count']}"}
    if v.kind == "ft_plan":
        return {"en": f"no GPUs for the fine-tuning run: on these GPUs {f.get('reason') or 'it does not fit'}, "
                      f"and no rented or dedicated GPUs are admissible",
                "de": f"keine GPUs für den Fine-Tuning-Lauf: auf diesen GPUs {f.get('reason_de') or 'passt er nicht'}, "
                      f"und keine gemieteten oder eigenen Trainings-GPUs sind zulässig"}
    if v.kind == "budget":
        return {"en": f"costs {grouped(f['cost_chf'])} CHF, over the {grouped(f['limit_chf'])} CHF budget limit",
                "de": f"kostet {grouped(f['cost_chf'])} CHF, über der Budgetgrenze von {grouped(f['limit_chf'])} CHF"}
    return {"en": v.kind, "de": v.kind}


def failed_text(c: Candidate) -> dict[str, str]:
    """All failed constraints of a candidate, tightest (largest miss) first."""
    parts = [violation_text(v) for v in sorted(c.violations, key=lambda v: -v.ratio)]
    return {lang: "; ".join(p[lang] for p in parts) for lang in ("en", "de")}


def why_not(c: Candidate, best: Candidate | None, months: int) -> dict[str, str]:
    """Why a candidate lost against the recommendation."""
    if not c.feasible:
        return failed_text(c)
    if best is None:
        return {"en": "", "de": ""}
    diff = c.objective - best.objective
    if round(diff, 2) > 0:
        parts_en, parts_de = [], []
        train = (c.train_monthly - best.train_monthly) * months
        if round(train, 2) != 0:
            parts_en.append(f"fine-tuning GPUs {'+' if train >= 0 else '−'}{grouped(abs(train))} CHF")
            parts_de.append(f"Fine-Tuning-GPUs {'+' if train >= 0 else '−'}{grouped(abs(train))} CHF")
        team = (c.team_monthly - best.team_monthly) * months
        if round(team, 2) != 0:
            parts_en.append(f"team time waiting on fine-tuning {'+' if team >= 0 else '−'}{grouped(abs(team))} CHF")
            parts_de.append(f"Teamzeit für das Warten auf Fine-Tuning {'+' if team >= 0 else '−'}{grouped(abs(team))} CHF")
        extra_en = f" (of which {', '.join(parts_en)})" if parts_en else ""
        extra_de = f" (davon {', '.join(parts_de)})" if parts_de else ""
        return {"en": f"costs {grouped(diff)} CHF more over {months} months{extra_en}",
                "de": f"kostet {grouped(diff)} CHF mehr über {months} Monate{extra_de}"}
    if c.precision != best.precision and c.key[1] > best.key[1]:
        return {"en": f"same cost, but quantised to {c.precision} instead of {best.precision}",
                "de": f"gleiche Kosten, aber auf {c.precision} statt {best.precision} quantisiert"}
    if round(c.latency, 6) > round(best.latency, 6):
        return {"en": f"same cost, slower: p95 {num(c.latency, 2)} s instead of {num(best.latency, 2)} s",
                "de": f"gleiche Kosten, langsamer: p95 {num(c.latency, 2, 'de')} s statt "
                      f"{num(best.latency, 2, 'de')} s"}
    return {"en": "same cost; loses on the tie-break (fewer GPUs, then catalog order)",
            "de": "gleiche Kosten; verliert bei der Gleichstandsregel (weniger GPUs, dann Katalogreihenfolge)"}


def nothing_fits_text(c: Candidate | None, reason: dict[str, str] | None = None) -> dict[str, str]:
    """'nothing fits: the closest candidate, 8× h200 (...), misses ...'."""
    if c is None:
        r = reason or {"en": "no candidate is admissible", "de": "kein Kandidat ist zulässig"}
        return {"en": f"nothing fits: {r['en']}", "de": f"nichts passt: {r['de']}"}
    t = failed_text(c)
    return {"en": f"nothing fits: the closest candidate, {label(c)}, {t['en']}",
            "de": f"nichts passt: der nächste Kandidat, {label(c, 'de')}, {t['de']}"}


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
