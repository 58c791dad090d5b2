"""The top of an answer: the recommendation card and the alternatives that lost.

Both are a single `Static` whose text is rebuilt by `show`, so a what-if edit updates them in place.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual.widgets import Static

from expert.messages import t
from expert.report.numbers import chf, dec

from .choice_words import memory_sum, where  # noqa: F401 - `where` is imported from here by other widgets


if TYPE_CHECKING:  # types only: the report models load with the pipeline
    from expert.report.models import Choice, Report


def choice_title(choice: Choice) -> str:
    """`1× l40s` — the short name used in change lines."""
    return f"{choice.count}× {choice.gpu}"


def latency_words(choice, lang: str) -> str | None:
    """The estimated latency in the targets' terms (docs/slo.md): first words (p95), time per token and
    the complete answer; a complete answer alone is named so, never a bare `p95`."""
    if choice.ttft_p95_s is not None and choice.tpot_ms is not None and choice.latency_p95_s is not None:
        return t("chat.latency_slo", lang, ttft=dec(choice.ttft_p95_s, lang, 2), tpot=dec(choice.tpot_ms, lang, 0),
                 e2e=dec(choice.latency_p95_s, lang, 1))
    if choice.latency_p95_s is not None:
        return t("chat.latency_complete", lang, e2e=dec(choice.latency_p95_s, lang, 2))
    return None


class RecommendationCard(Static):
    """What to rent or buy, how many, precision, monthly and total cost, memory and headroom."""

    can_focus = False

    def __init__(self, report: Report, lang: str, changed: bool = False) -> None:
        super().__init__()
        self.show(report, lang, changed)

    def show(self, report: Report, lang: str, changed: bool = False) -> None:
        """Show `report`'s recommendation; `changed` marks it (border and words) as new."""
        self.set_class(changed, "changed")
        self.update(self.body(report, lang, changed))

    @staticmethod
    def body(report: Report, lang: str, changed: bool) -> Text:
        """The card's text."""
        rec = report.recommendation
        if report.kind == "audit" and report.audit is not None:
            from .audit_card import audit_body

            return audit_body(report, lang)
        text = Text.assemble(("★ " + t("chat.recommendation", lang), "bold"))
        if changed:
            text.append(f"  ({t('chat.changed', lang)})", "bold")
        if rec is None:
            text.append(f"\n{t('chat.nothing_fits', lang)}: {report.nothing_fits or '—'}")
            return text
        text.append(f"\n{rec.count}× {rec.gpu}", "bold")
        text.append(f"  ({where(rec, lang)}{', ' + rec.country if rec.country else ''}), {rec.precision}, "
                    f"{rec.interconnect}")
        text.append(f"\n{chf(rec.monthly_cost_chf)} {t('chat.per_month', lang)} · "
                    f"{chf(rec.tco_chf)} {t('chat.total_over', lang, m=rec.horizon_months)}")
        if report.memory:
            m = report.memory
            text.append("\n" + memory_sum(m, lang))
            if m.fine_tuning_gb:
                text.append(f", {t('chat.fine_tuning', lang)} {dec(m.fine_tuning_gb, lang)} GB")
        extra = []
        if report.memory and report.memory.reserve_ratio is not None:   # the text's and export's figure
            extra.append(f"{t('report.reserve', lang)}: {report.memory.reserve_ratio:.0%}")
        if rec.usable_per_gpu_gb:
            extra.append(t("chat.usable", lang, gb=f"{rec.usable_per_gpu_gb:.0f}"))
        if extra:
            text.append("\n" + ", ".join(extra))
        latency = latency_words(rec, lang)
        if latency:
            text.append("\n" + latency)
        if report.near_tie:
            text.append(f"\n{report.near_tie}")
        if report.nothing_fits:  # the reason says "nothing fits: ..." itself (issue 34)
            text.append("\n" + report.nothing_fits[:1].upper() + report.nothing_fits[1:])
        return text


class AlternativesList(Static):
    """The alternatives that lost, each with its cost and why it lost; the documents' own pick and
    the first sensitivity lines below them."""

    can_focus = False

    def __init__(self, report: Report, lang: str, limit: int = 4) -> None:
        super().__init__()
        self.limit = limit
        self.show(report, lang)

    def show(self, report: Report, lang: str) -> None:
        """Show `report`'s alternatives (hidden when there are none)."""
        text = Text.assemble((t("chat.alternatives", lang), "bold"))
        for alt in report.alternatives[:self.limit]:
            text.append(f"\n• {choice_title(alt)} ({where(alt, lang)}) "
                        f"{chf(alt.monthly_cost_chf)}/{t('chat.month', lang)} — {alt.why_not}")
        if len(report.alternatives) > self.limit:
            text.append(f"\n  + {len(report.alternatives) - self.limit} {t('chat.more', lang)}")
        if report.document_recommendation:
            text.append(f"\n◆ {report.document_recommendation}")
        for line in report.sensitivity[:3]:
            text.append(f"\n↻ {line}")
        self.display = bool(report.alternatives)
        self.update(text)
