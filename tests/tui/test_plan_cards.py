"""The answer view shows the fine-tuning plan and a pool's groups as cards (the printed report's
"Fine-tuning plan" and "Pool of agents" sections), closed until opened, hidden when absent."""

from __future__ import annotations

import yaml
from textual.app import App

from expert.api import Expert
from tui.widgets import AnswerView, PlanCard

from tui_helpers import SIZE

EXPERT = Expert()


class Host(App):
    """A bare app holding one answer view."""

    def __init__(self, report, lang: str = "en") -> None:
        super().__init__()
        self.report, self.lang = report, lang

    def compose(self):
        yield AnswerView(self.report, self.lang)


async def cards_of(report, lang: str = "en") -> dict:
    async with Host(report, lang).run_test(size=SIZE) as pilot:
        return {c.kind: (c.display, c.collapsed, c.title, c.body.plain) for c in pilot.app.query(PlanCard)}


async def test_a_fine_tuned_workload_shows_its_plan_closed_and_no_pool():
    report = EXPERT.advise({"model": "llama-3.1-70b", "requests_per_day": 5000,
                            "fine_tuning": {"frequency": "monthly", "method": "full"}})
    cards = await cards_of(report)
    shown, closed, title, body = cards["training"]
    assert shown and closed and title == f"Fine-tuning plan ({len(report.training_plan.lines)})"
    assert "rented for the run's hours" in body                  # where the runs' GPUs come from
    assert not cards["pool"][0]
    german = await cards_of(EXPERT.advise({"model": "llama-3.1-8b", "requests_per_day": 2000,
                                           "fine_tuning": "monthly"}, "de"), "de")
    assert german["training"][2].startswith("Fine-Tuning-Plan (")


async def test_a_pool_shows_its_groups():
    report = EXPERT.advise(yaml.safe_load(open("examples/agent-pool-t3.yaml", encoding="utf-8")))
    shown, _, title, body = (await cards_of(report))["pool"]
    assert shown and title == f"Pool of agents ({len(report.pool)})"
    assert body.startswith("• 2× l40s (Hikube), serve+train: faq (fp8, TP 1, 1×)")   # the provider, not the offer id


async def test_a_workload_without_either_shows_no_plan_card():
    cards = await cards_of(EXPERT.advise({"model": "llama-3.1-8b", "requests_per_day": 20000}))
    assert not cards["training"][0] and not cards["pool"][0]


async def test_an_audit_of_a_fine_tuning_setup_shows_its_plan_as_the_text_does():
    report = EXPERT.audit({"gpu": "l40s", "count": 1,
                           "workload": {"model": "llama-3.1-8b", "requests_per_day": 20000,
                                        "fine_tuning": {"frequency": "monthly", "method": "lora"}}})
    shown, _, title, body = (await cards_of(report))["training"]
    assert shown and title == f"Fine-tuning plan ({len(report.fine_tuning_plan.lines)})"
    assert body.splitlines()[1] == "• " + report.fine_tuning_plan.lines[1]       # the layout on its own GPUs
    assert "on this setup's 1× l40s: one GPU" in body
