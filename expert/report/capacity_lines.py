"""The capacity section of a report as lines of text (000 D3): the load, how its peak was obtained, and
for an audit what the setup serves within the latency targets; a running setup's measurements beside
the estimate, and where the estimate finds no operating point, the measurements instead of "serves 0"."""

from __future__ import annotations

from expert.messages import has as has_msg, t as msg
from expert.report.models import CapacitySummary
from expert.report.numbers import dec, number, rate


def capacity_lines(c: CapacitySummary, lang: str) -> list[str]:
    """The section's lines in `lang`."""
    unit = msg("report.unit.steps/s", lang) if c.rate_unit else "req/s"  # as written before in both languages
    lines = [f"{msg('report.avg', lang)} {rate(c.average_rps, lang)} {unit}, {msg('report.peak', lang)} "
             f"{rate(c.peak_rps, lang)} {unit}, {msg('report.conc', lang)} {dec(c.concurrent_inferences, lang)}, "
             f"{msg('report.gpus', lang)} {c.gpus_needed}"]
    if c.peak_basis:
        key = f"report.basis.{c.peak_basis}"
        basis = msg(key, lang) if has_msg(key) else c.peak_basis
        lines.append(f"{msg('report.peak', lang)}: {basis} ({msg('report.factor', lang)} "
                     f"{dec(c.peak_factor or 1.0, lang)})")
    measured = measured_words(c, lang)
    if c.serving_capacity_rps is not None and c.serving_capacity_rps <= 0 and measured:
        # a running setup the estimate gives no room at the stated load (e.g. more sequences than its KV cache
        # holds by the estimate): it serves, as measured; the findings say why the estimate disagrees
        lines.append(msg("report.capacity.none_measured", lang, measured=measured))
        return lines
    if c.serving_capacity_rps is not None:
        busiest = msg("report.busiest", lang, agent=c.worst_agent) if c.worst_agent else ""
        lines.append(f"{busiest}{msg('report.serves', lang)} {rate(c.serving_capacity_rps, lang)} {unit} "
                     f"{msg('report.at_targets', lang)}"
                     + (f", {msg('report.load', lang)} {c.load_ratio:.0%}" if c.load_ratio is not None else ""))
    if measured:
        lines.append(msg("report.capacity.measured", lang, measured=measured))
    gap = utilisation_gap(c)
    if gap is not None:
        lines.append(msg("report.capacity.gap", lang, measured=f"{c.measured_utilization:.0%}",
                         estimated=share(gap, lang), factor=number(_apart(c.measured_utilization, gap), 1, lang,
                                                                   trim=True),
                         limit=number(GAP_FACTOR, 1, lang, trim=True)))
    return lines


GAP_FACTOR = 2.0
"""Measured and estimated mean utilisation further apart than this factor (either way) are named with both
numbers (QA 46 #10): the estimate sizes the optimum, so a gap this wide means one of them is wrong (an engine
or batching far from the model's, or a volume that is not the one measured)."""


def utilisation_gap(c: CapacitySummary) -> float | None:
    """The estimate's mean utilisation (average_rps / serving_capacity_rps) where the measured mean differs
    from it by more than `GAP_FACTOR`; None where they agree, nothing is measured or estimated, or for a pool
    (its capacity is its busiest agent's, not the pool's)."""
    measured, capacity = c.measured_utilization, c.serving_capacity_rps
    if measured is None or not capacity or capacity <= 0 or c.worst_agent is not None:
        return None
    estimated = c.average_rps / capacity
    return estimated if _apart(measured, estimated) > GAP_FACTOR else None


def _apart(a: float, b: float) -> float:
    """How many times the larger of two shares is the smaller (inf where one is 0 and the other not)."""
    low, high = sorted((a, b))
    return high / low if low > 0 else (float("inf") if high > 0 else 1.0)


def share(value: float, lang: str) -> str:
    """A share as a percentage, one decimal below 10 % (6.7%, 0.3%), whole above (65%)."""
    return number(value * 100, 1 if value < 0.1 else 0, lang, trim=True) + "%"


def measured_words(c: CapacitySummary, lang: str) -> str:
    """`mean utilisation 72 %, p95 latency 1.60 s` from a setup's measurements; "" without any."""
    parts = []
    if c.measured_utilization is not None:
        parts.append(msg("report.capacity.utilization", lang, share=f"{c.measured_utilization:.0%}"))
    if c.measured_latency_p95_s is not None:
        parts.append(msg("report.capacity.p95", lang, seconds=dec(c.measured_latency_p95_s, lang, 2)))
    return ", ".join(parts)
