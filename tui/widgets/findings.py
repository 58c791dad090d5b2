"""Findings grouped by severity (critical first), each as a `RuleCard`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Static

from ..texts import severity, t
from .cards import RuleCard

if TYPE_CHECKING:  # types only: the report models load with the pipeline
    from expert.report.models import Report

ORDER = ("critical", "warning", "info")


class FindingList(Vertical):
    """A heading with the counts per severity, then one card per finding, most severe first."""

    def __init__(self, report: Report, lang: str, new_rules: frozenset[str] = frozenset()) -> None:
        super().__init__(classes="findings")
        self.report, self.lang, self.new_rules = report, lang, new_rules

    def compose(self) -> ComposeResult:
        findings = sorted(self.report.findings, key=lambda f: ORDER.index(f.severity))
        counts = ", ".join(f"{sum(f.severity == s for f in findings)} {severity(s, self.lang)}"
                           for s in ORDER)
        head = t("why", self.lang) if self.report.kind == "advice" else t("findings", self.lang)
        yield Static(Text.assemble((head, "bold"), f"\n{counts}" if findings else
                                   f"\n{t('no_findings', self.lang)}"), classes="heading")
        for finding in findings:
            yield RuleCard(finding, self.report.fired_rules, self.lang,
                           new=finding.rule_id in self.new_rules)
