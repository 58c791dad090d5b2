"""The whole answer to a workload or a setup, as one block of the chat log."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.app import ComposeResult
from textual.containers import Vertical

from ..costs import Line
from .cards import AlternativesList, RecommendationCard, TraceCard
from .cost_chart import CostSummary
from .findings import FindingList

if TYPE_CHECKING:  # types only: the report models load with the pipeline
    from expert.report.models import Report


class AnswerView(Vertical):
    """Recommendation, alternatives, cost summary, rule cards and the trace (advice); findings (audit)."""

    def __init__(self, report: Report, lang: str, changed: bool = False,
                 new_rules: frozenset[str] = frozenset(), bought: Line | None = None,
                 max_alternatives: int = 4) -> None:
        super().__init__(classes="answer")
        self.report, self.lang, self.changed, self.new_rules = report, lang, changed, new_rules
        self.bought, self.max_alternatives = bought, max_alternatives

    def compose(self) -> ComposeResult:
        r = self.report
        if r.kind == "advice" or r.recommendation is not None:
            yield RecommendationCard(r, self.lang, self.changed)
            if r.alternatives:
                yield AlternativesList(r, self.lang, self.max_alternatives)
            if r.recommendation:
                yield CostSummary(r, self.lang, self.bought)
        yield FindingList(r, self.lang, self.new_rules)
        if r.fired_rules:
            yield TraceCard(r.fired_rules, self.lang)
