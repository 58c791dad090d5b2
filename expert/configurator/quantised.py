"""Precision beside the pick (issue 22, 000 Q2): a stated precision is kept, so the cheaper quantised
options are shown beside it (fp8 also beside a stated int8: better quality, and often cheaper where the GPU has
native FP8 and int8 runs weight-only); an open precision may be quantised, so the kept 16-bit configuration is
shown beside a quantised pick.

Both are optimum-only sub-searches (`enumeration.run(..., optimum_only=True)`) on a copy of the workload
whose precision is fixed: a quantised option is what `allow_quantization: true` could pick at that
precision (its KV cache at the stated `kv_cache_precision`, else that precision's own, as in the open search), the
baseline is the workload's own precision kept. The texts carry 000 Q2's quality note (INT8 usually
< 3 % loss; INT4 5-8 %, validate case by case) and G3's for FP8 (`configurator.quality.*`).
"""

from __future__ import annotations

from expert.configurator.candidates import QUALITY_NOTE, QUALITY_ORDER
from expert.configurator.feasibility import Candidate
from expert.configurator.models import ConfiguredAlternative, ConfiguredChoice
from expert.configurator.enumeration import run, to_choice
from expert.messages import LANGS, t
from expert.report.numbers import grouped
from expert.inputs.workload import Workload


def others(w: Workload) -> tuple[str, ...]:
    """The quantised precisions beside a kept one: every one but the stated precision, best quality
    first (int4 only with `allow_int4`, as in the open search). Those below it are what
    `allow_quantization: true` adds; one above it (fp8 beside a stated int8) needs `precision:`."""
    return tuple(p for p in QUALITY_NOTE if p != w.precision and (p != "int4" or w.allow_int4))


def how(w: Workload, precision: str) -> str:
    """The workload line that admits `precision`: allow_quantization below the stated one, else precision."""
    return "allow_quantization: true" if QUALITY_ORDER[precision] > QUALITY_ORDER[w.precision] \
        else f"precision: {precision}"


def fixed(w: Workload, precision: str) -> Workload:
    """The workload with its precision fixed to `precision` (kept), its KV cache as the open search sizes
    that precision's candidates (`Workload.kv_precision_at`)."""
    return w.model_copy(update={"precision": precision, "allow_quantization": False})


def note(precision: str) -> dict[str, str]:
    """The quality note of a quantised precision, in both languages (`configurator.quality.<p>`)."""
    return {lang: t(f"configurator.quality.{precision}", lang) for lang in LANGS}


def options(w: Workload, catalog, a, shared: dict, pick: Candidate | None) -> list[ConfiguredAlternative]:
    """For a kept precision: the cheapest configuration at each other quantised precision (`others`) that
    costs less than the pick (or fits where the pick does not) and than every better-quality option before it,
    best quality first (int8 at fp8's price adds nothing)."""
    if w.precision_open or w.agents:
        return []
    out = []
    bar = pick.objective if pick is not None else None
    for precision in others(w):
        ctx, found, _ = run(fixed(w, precision), catalog, a, shared, optimum_only=True)
        best = found.best
        if best is None or (bar is not None and round(bar - best.objective, 2) <= 0):
            continue
        bar = best.objective
        q = note(precision)
        if pick is None:
            why = {lang: t("configurator.quantised.fits", lang, stated=w.precision, precision=precision,
                           note=q[lang], how=how(w, precision)) for lang in LANGS}
        else:
            saving = grouped(pick.objective - best.objective)
            why = {lang: t("configurator.quantised.saves", lang, stated=w.precision, precision=precision,
                           saving=saving, months=ctx.months, note=q[lang], how=how(w, precision))
                   for lang in LANGS}
        out.append(to_choice(best, ctx, ConfiguredAlternative, why_not=why, feasible=True))
    return out


def baseline(w: Workload, catalog, a, shared: dict, pick: Candidate | None) -> tuple[bool, ConfiguredChoice | None]:
    """For an open precision and a quantised pick: (asked, the optimum with the workload's precision
    kept, None when nothing fits so); (False, None) when there is nothing to compare."""
    if not w.precision_open or w.agents or pick is None or pick.precision not in QUALITY_NOTE \
            or pick.precision == w.precision:
        return False, None
    ctx, found, _ = run(fixed(w, w.precision), catalog, a, shared, optimum_only=True)
    return True, None if found.best is None else to_choice(found.best, ctx)
