"""The whole answer to a workload or a setup, as one block of the chat log."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Vertical

from expert.report.models import Report

from .cards import AlternativesList, RecommendationCard, TraceCard
from .cost_chart import CostSummary
from .findings import FindingList


class AnswerView(Vertical):
    """Recommendation, alternatives, cost summary, rule cards and the trace (advice); findings (audit)."""

    def __init__(self, report: Report, lang: str, changed: bool = False,
                 new_rules: frozenset[str] = frozenset()) -> None:
        super().__init__(classes="answer")
        self.report, self.lang, self.changed, self.new_rules = report, lang, changed, new_rules

    def compose(self) -> ComposeResult:
        r = self.report
        if r.kind == "advice" or r.recommendation is not None:
            yield RecommendationCard(r, self.lang, self.changed)
            if r.alternatives:
                yield AlternativesList(r, self.lang)
            if r.recommendation:
                yield CostSummary(r, self.lang)
        yield FindingList(r, self.lang, self.new_rules)
        if r.fired_rules:
            yield TraceCard(r.fired_rules, self.lang)
