"""Findings grouped by severity (critical first), each as a `RuleCard`."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Static

from expert.messages import severity, t

from .cards import RuleCard

if TYPE_CHECKING:  # types only: the report models load with the pipeline
    from expert.report.models import Report

ORDER = ("critical", "warning", "info")


class FindingList(Vertical):
    """A heading with the counts per severity, then one card per finding, most severe first.

    `show` keeps the cards of rules that still fire (a what-if edit changes a few findings, not
    all), so an update mounts or removes only the difference; an open card stays open.
    """

    def __init__(self, report: Report, lang: str, new_rules: frozenset[str] = frozenset()) -> None:
        super().__init__(classes="findings")
        self.report, self.lang, self.new_rules = report, lang, new_rules

    def compose(self) -> ComposeResult:
        yield Static(self.heading(self.report, self.lang), classes="heading")
        findings = self.ordered(self.report)
        for finding, nth in zip(findings, _nths(findings)):
            yield RuleCard(finding, self.report.fired_rules, self.lang,
                           new=finding.rule_id in self.new_rules, nth=nth)

    @staticmethod
    def ordered(report: Report) -> list:
        """The findings, most severe first (stable within a severity)."""
        return sorted(report.findings, key=lambda f: ORDER.index(f.severity))

    @staticmethod
    def heading(report: Report, lang: str) -> Text:
        """`Why` (advice) or `Findings` (audit), and the counts per severity."""
        findings = report.findings
        counts = ", ".join(f"{sum(f.severity == s for f in findings)} {severity(s, lang)}" for s in ORDER)
        head = t("chat.why", lang) if report.kind == "advice" else t("chat.findings", lang)
        return Text.assemble((head, "bold"), f"\n{counts}" if findings else f"\n{t('chat.no_findings', lang)}")

    async def show(self, report: Report, lang: str, new_rules: frozenset[str] = frozenset()) -> None:
        """Show `report`'s findings. A card whose rule still fires is kept (text refreshed, open
        or closed as it was); cards of rules that no longer fire go, new ones are mounted in place."""
        self.report, self.lang, self.new_rules = report, lang, new_rules
        heading = self.query_one(".heading", Static)
        heading.update(self.heading(report, lang))
        cards = list(self.query_children(RuleCard))
        kept = dict(zip(_keys([c.finding for c in cards]), cards))
        findings = self.ordered(report)
        keys = _keys(findings)
        gone = [card for key, card in kept.items() if key not in keys]
        if gone:
            await self.remove_children(gone)
        previous, mounting = heading, []
        for key, finding, nth in zip(keys, findings, _nths(findings)):
            card = kept.get(key)
            if card is None:
                card = RuleCard(finding, report.fired_rules, lang, new=finding.rule_id in new_rules,
                                nth=nth)
                mounting.append(self.mount(card, after=previous))
            else:
                card.show(finding, report.fired_rules, lang, new=finding.rule_id in new_rules, nth=nth)
                if self.children[self.children.index(previous) + 1] is not card:
                    self.move_child(card, after=previous)
            previous = card
        for mounted in mounting:
            await mounted


def _keys(findings: list) -> list:
    """A finding's identity across reports: its rule, and when the rule fired more than once,
    also the facts it fired on (so an open card keeps showing the same finding)."""
    fired = Counter(f.rule_id for f in findings)
    return [f.rule_id if fired[f.rule_id] == 1 else (f.rule_id, repr(sorted(f.facts.items())))
            for f in findings]


def _nths(findings: list) -> list[str]:
    """`1/2`, `2/2` for findings of a rule that fired more than once (same title, other facts)."""
    total, seen, out = Counter(f.rule_id for f in findings), Counter(), []
    for finding in findings:
        seen[finding.rule_id] += 1
        n = total[finding.rule_id]
        out.append(f"{seen[finding.rule_id]}/{n}" if n > 1 else "")
    return out
