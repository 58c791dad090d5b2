"""The cost chart: cumulative rent against buy over the horizon, break-even marked (text only)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual.widgets import Static

from expert.messages import t

from ..costs import chart, summary

if TYPE_CHECKING:  # types only: the report models and the cost core load with the pipeline
    from expert.report.models import Report

    from ..costs import Line


class CostChart(Static):
    """`tui.costs.chart` of a report; `rows` sampled months (6 inline, 12 in the cost view)."""

    can_focus = False

    def __init__(self, report: Report, lang: str, rows: int = 6, width: int = 74,
                 bought: Line | None = None, **kwargs) -> None:
        text = Text.assemble((t("chat.cost", lang), "bold"), "\n", chart(report, lang, width, rows, bought))
        super().__init__(text, **kwargs)


class CostSummary(Static):
    """The cost comparison in one or two lines, inside the answer view."""

    can_focus = False

    def __init__(self, report: Report, lang: str, bought: Line | None = None) -> None:
        super().__init__()
        self.show(report, lang, bought)

    def show(self, report: Report, lang: str, bought: Line | None = None) -> None:
        """Show the cost comparison of `report` (against buying as `bought`, when given)."""
        if report.recommendation is not None:
            self.update(Text.assemble((t("chat.cost", lang) + ": ", "bold"), summary(report, lang, bought)))
