"""The whole answer to a workload or a setup, as one block of the chat log."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.app import ComposeResult
from textual.containers import Vertical

from .cards import TraceCard
from .cost_chart import CostSummary
from .findings import FindingList
from .plans import PlanCard
from .recommendation import AlternativesList, RecommendationCard

if TYPE_CHECKING:  # types only: the report models load with the pipeline
    from expert.report.models import Report

    from ..costs import Line  # the core's cost line, loaded with the pipeline


class AnswerView(Vertical):
    """Recommendation, alternatives, cost summary, the fine-tuning plan and a pool's groups (cards,
    closed), rule cards and the trace (advice); findings (audit).

    Built once; `show` puts a newer report into the same widgets (a what-if edit then costs a few
    milliseconds of layout, not the mounting of a new view). Parts a report lacks are hidden.
    """

    def __init__(self, report: Report, lang: str, changed: bool = False,
                 new_rules: frozenset[str] = frozenset(), bought: Line | None = None,
                 max_alternatives: int = 4) -> None:
        super().__init__(classes="answer")
        self.report, self.lang, self.changed, self.new_rules = report, lang, changed, new_rules
        self.bought, self.max_alternatives = bought, max_alternatives

    def compose(self) -> ComposeResult:
        yield RecommendationCard(self.report, self.lang, self.changed)
        yield AlternativesList(self.report, self.lang, self.max_alternatives)
        yield CostSummary(self.report, self.lang, self.bought)
        yield PlanCard(self.report, self.lang, "training")
        yield PlanCard(self.report, self.lang, "pool")
        yield FindingList(self.report, self.lang, self.new_rules)
        yield TraceCard(self.report.fired_rules, self.lang)

    def on_mount(self) -> None:
        self._show_parts(self.report)

    def _show_parts(self, report: Report) -> None:
        """Hide the recommendation and the cost line of an audit without a recommendation (an audit's
        comparison with the optimum, `report.audit`, takes the card)."""
        advice = report.kind == "advice" or report.recommendation is not None
        self.query_one(RecommendationCard).display = advice or report.audit is not None
        self.query_one(CostSummary).display = advice and report.recommendation is not None
        if not advice:
            self.query_one(AlternativesList).display = False

    async def show(self, report: Report, lang: str, changed: bool = False,
                   new_rules: frozenset[str] = frozenset(), bought: Line | None = None) -> None:
        """Show `report` in place of the one on screen."""
        self.report, self.lang, self.changed, self.new_rules = report, lang, changed, new_rules
        self.bought = bought
        self.query_one(RecommendationCard).show(report, lang, changed)
        self.query_one(AlternativesList).show(report, lang)
        self.query_one(CostSummary).show(report, lang, bought)
        for card in self.query(PlanCard):
            card.show(report, lang)
        self.query_one(TraceCard).show(report.fired_rules, lang)
        self._show_parts(report)
        await self.query_one(FindingList).show(report, lang, new_rules)
