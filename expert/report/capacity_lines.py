"""The capacity section of a report as lines of text (000 D3): the load, how its peak was obtained, and
for an audit what the setup serves within the latency targets; a running setup's measurements beside
the estimate, and where the estimate finds no operating point, the measurements instead of "serves 0"."""

from __future__ import annotations

from expert.messages import has as has_msg, t as msg
from expert.report.models import CapacitySummary
from expert.report.numbers import dec, rate


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
    return lines


def measured_words(c: CapacitySummary, lang: str) -> str:
    """`mean utilisation 72 %, p95 latency 1.60 s` from a setup's measurements; "" without any."""
    parts = []
    if c.measured_utilization is not None:
        parts.append(msg("report.capacity.utilization", lang, share=f"{c.measured_utilization:.0%}"))
    if c.measured_latency_p95_s is not None:
        parts.append(msg("report.capacity.p95", lang, seconds=dec(c.measured_latency_p95_s, lang, 2)))
    return ", ".join(parts)
