"""F2 / `/cost`: the cost view, a larger cost chart of the current report (Escape closes it)."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen

from expert.report.models import Report

from ..widgets.cost_chart import CostChart


class CostScreen(ModalScreen[None]):
    """Cumulative cost of renting against buying over the horizon, break-even marked."""

    BINDINGS = [Binding("escape,f2,q", "app.pop_screen", "Close")]

    def __init__(self, report: Report, lang: str) -> None:
        super().__init__()
        self.report, self.lang = report, lang

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="cost-body"):
            yield CostChart(self.report, self.lang, rows=8, width=72)
