"""The card of an audit (issue 33): the setup's memory, capacity, speed and cost, and the configurator's
optimum with its saving — the same names and figures as the report's `memory`, `capacity` and `audit`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text

from expert.messages import t
from expert.report.capacity_lines import measured_words
from expert.report.numbers import chf, dec, rate
from expert.report.render import place, precisions

from .choice_words import memory_sum, where

if TYPE_CHECKING:  # types only: the report models load with the pipeline
    from expert.report.models import Report


def audit_body(report: Report, lang: str) -> Text:
    """The card's text for an audit that has its comparison (`report.audit`)."""
    a = report.audit
    mine = a.setup
    text = Text.assemble(("★ " + t("chat.audit_setup", lang), "bold"))
    text.append(f"\n{mine.count}× {mine.gpu}", "bold")
    placed = place(mine, where(mine, lang), lang)
    text.append(f"  ({placed}), {precisions(mine)}" if placed else f"  {precisions(mine)}")
    if mine.monthly_cost_chf is None:  # the catalog prices none of its GPU (Gaudi2, A100 40 GB PCIe)
        text.append("\n" + t("report.unpriced", lang))
    else:
        text.append(f"\n{chf(mine.monthly_cost_chf)} {t('chat.per_month', lang)} · "
                    f"{chf(mine.tco_chf)} {t('chat.total_over', lang, m=mine.horizon_months)}")
    m, c = report.memory, report.capacity
    if m is not None:
        text.append("\n" + memory_sum(m, lang))
        if m.used_per_gpu_gb is not None and m.usable_per_gpu_gb:
            reserve = f", {t('report.reserve', lang)} {m.reserve_ratio:.0%}" if m.reserve_ratio is not None else ""
            text.append("\n" + t("chat.used_of_usable", lang, used=dec(m.used_per_gpu_gb, lang),
                                 usable=dec(m.usable_per_gpu_gb, lang)) + reserve)
    measured = measured_words(c, lang) if c is not None else ""
    if c is not None and c.serving_capacity_rps is not None and c.serving_capacity_rps <= 0 and measured:
        text.append("\n" + t("report.capacity.none_measured", lang, measured=measured))  # as the text report
    elif c is not None and c.serving_capacity_rps is not None:
        text.append("\n" + t("chat.serves", lang, rate=rate(c.serving_capacity_rps, lang),
                             unit=t(f"report.unit.{c.rate_unit or 'req/s'}", lang),
                             peak=rate(c.peak_rps, lang), load=f"{(c.load_ratio or 0):.0%}"))
    if mine.ttft_p95_s is not None and mine.tpot_ms is not None and mine.latency_p95_s is not None:
        text.append("\n" + t("chat.latency_slo", lang, ttft=dec(mine.ttft_p95_s, lang, 2),
                              tpot=dec(mine.tpot_ms, lang, 0), e2e=dec(mine.latency_p95_s, lang, 1)))
    if a.meets_targets is not None:
        text.append(" — " + t(f"report.meets.{a.missed or a.meets_targets}", lang))  # as the text report
    if a.optimum is not None and not a.is_optimum:
        best = a.optimum
        text.append(f"\n◆ {t('report.optimum_line', lang)}: {best.count}× {best.gpu} ({where(best, lang)}), "
                    f"{best.precision}, {chf(best.monthly_cost_chf)} {t('chat.per_month', lang)}")
    text.append("\n" + a.summary, "bold" if a.saving_chf_month > 0 and not a.is_optimum else "")
    return text
