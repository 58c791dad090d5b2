"""F2 / `/cost`: the cost view, a larger cost chart of the current report (Escape closes it)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.app import ComposeResult
from textual.containers import VerticalScroll

from ..bindings import lang_bindings
from ..widgets.cost_chart import CostChart
from .overlay import Overlay

if TYPE_CHECKING:  # types only: the report models load with the pipeline
    from expert.report.models import Report

    from ..costs import Line  # the core's cost line, loaded with the pipeline


class CostScreen(Overlay):
    """Cumulative cost of renting against buying over the horizon, break-even marked (Escape or
    F2 closes it; typing goes on to the prompt)."""

    BINDINGS = lang_bindings("escape,f2", "close", "key.close")

    def __init__(self, report: Report, lang: str, bought: Line | None = None) -> None:
        super().__init__()
        self.report, self.lang, self.bought = report, lang, bought

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="cost-body"):
            yield CostChart(self.report, self.lang, rows=8, width=72, bought=self.bought)
