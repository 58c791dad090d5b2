"""The plan cards of an answer: the fine-tuning plan (where the runs' GPUs come from, the cost lines)
and a pool of agents' groups, each a collapsible card with the report's own lines."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text

from expert.messages import t

from .cards import Card

if TYPE_CHECKING:  # types only: the report models load with the pipeline
    from expert.report.models import Report


def plan_lines(report: Report, kind: str) -> list[str]:
    """The report's lines of the fine-tuning plan (`kind` "training") or of its pool ("pool")."""
    if kind == "training":  # an advice's plan, or an audited setup's (issue 33 item 2)
        plans = [p for p in (report.training_plan, report.fine_tuning_plan) if p] + list(report.fine_tuning_plans)
        return [line for plan in plans for line in plan.lines]  # a pool audit: one plan per tuned agent
    return list(report.pool)


class PlanCard(Card):
    """One plan of the report (`kind`: "training" or "pool"), titled as the printed report titles it;
    hidden when the report has none."""

    def __init__(self, report: Report, lang: str, kind: str) -> None:
        self.kind = kind
        super().__init__(*self.parts(report, lang))
        self.display = bool(plan_lines(report, kind))

    def show(self, report: Report, lang: str) -> None:
        """Show the plan of `report` (hidden when it has none)."""
        self.set_card(*self.parts(report, lang))
        self.display = bool(plan_lines(report, self.kind))

    def parts(self, report: Report, lang: str) -> tuple[str, Text, str]:
        """(title, body, classes) of the card."""
        lines = plan_lines(report, self.kind)
        title = f"{t('report.' + self.kind, lang)} ({len(lines)})"
        return title, Text("\n".join(f"• {line}" for line in lines)), f"plan plan-{self.kind}"
