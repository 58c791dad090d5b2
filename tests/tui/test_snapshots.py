"""SVG snapshots of the four main views at 80×24, against the hand-built `FakeAdvisor`.

Determinism: fixed size, no cursor blink, `run_before` starts with `await pilot.pause()`, a fixed
report (no pipeline numbers), LF line endings (`.gitattributes`). Update with `--snapshot-update`
and review the SVGs; each test's docstring says what must be on screen.
"""

from __future__ import annotations

import yaml

from tui_helpers import SIZE, send, settle
from tui_fakes import FakeAdvisor
from tui.app import GpuExpertApp
from tui.widgets import RuleCard

SENTENCE = ("My AI agent uses a model of size Llama 3.1 8B, processes 20000 requests per day, "
            "needs fine-tuning no, with non-sensitive data.")


def app() -> GpuExpertApp:
    return GpuExpertApp(advisor=FakeAdvisor(), resume=False, cursor_blink=False)


async def answered(pilot) -> None:
    await pilot.pause()
    await send(pilot, SENTENCE)
    while pilot.app.chat.session.interview.next_question() is not None:
        await send(pilot, "skip")


def test_interview_view(snap_compare):
    """The sentence panel with the model filled in and ‹Y›/‹yes/no›/‹…› blanks; the user's
    answer; ✓ understood; the next question (requests) with its example; prompt and footer keys."""
    async def run_before(pilot) -> None:
        await pilot.pause()
        await send(pilot, "Llama 3.1 8B")

    assert snap_compare(app(), terminal_size=SIZE, run_before=run_before)


def test_what_if_view(snap_compare):
    """After the what-if "/set latency 0.3", the log anchored at its end: the refilled answer's
    cost line (rent 1× h100-nvl 3 100 CHF/month), the rule cards with `★ new ▲ WARNING H100
    justified`, the trace card, and under them the change line `changed: 1× l40s → 1× h100-nvl`,
    `1 450 CHF → 3 100 CHF per month`, `now: 1× h100-nvl (example-cloud, CH), fp16, p95 …`,
    `+ new: H100 justified`, right above the prompt."""
    async def run_before(pilot) -> None:
        await answered(pilot)
        await send(pilot, "/set latency 0.3")

    assert snap_compare(app(), terminal_size=SIZE, run_before=run_before)


def test_answer_with_an_open_rule_card(snap_compare):
    """After the what-if "/set latency 0.3", the ▲ WARNING card "H100 justified" (★ new) open:
    explanation with 20 000 requests, Advice, Source 000, P2, and the chain of derived facts
    (use_case ← classify-use-case, from the workload), then the closed ℹ INFO card and the trace."""
    async def run_before(pilot) -> None:
        await answered(pilot)
        await send(pilot, "/set latency 0.3")
        card = pilot.app.chat.query(RuleCard).first()
        card.collapsed = False
        await pilot.pause()
        pilot.app.chat.query_one("#log").scroll_to_widget(card, top=True, animate=False)
        await pilot.pause()

    assert snap_compare(app(), terminal_size=SIZE, run_before=run_before)


def test_cost_view(snap_compare):
    """F2: rent (█, 1× l40s, 1 450 CHF/month) against buy (▒, package, 18 000 CHF up front),
    sampled every 6 months to 36, ◆ break-even after 14.2 months, and which is cheaper."""
    async def run_before(pilot) -> None:
        await answered(pilot)
        await pilot.press("f2")
        await pilot.pause()

    assert snap_compare(app(), terminal_size=SIZE, run_before=run_before)


def test_audit_view(snap_compare, tmp_path):
    """/audit of a setup file: the panel says `Audit (setup.yaml): You run 2× h100-sxm,
    utilisation 15%.`; counts per severity, then ✖ CRITICAL "Sensitive data hosted abroad",
    ▲ WARNING "GPUs mostly idle", ℹ INFO "Storage is fast enough" — severity as word and icon."""
    path = tmp_path / "setup.yaml"
    path.write_text(yaml.safe_dump({"gpu": "h100-sxm", "count": 2,
                                    "utilization": {"mean": 0.15}}), encoding="utf-8")

    async def run_before(pilot) -> None:
        await pilot.pause()
        pilot.app.chat.query_one("#log").remove_children()
        await send(pilot, "/audit setup.yaml")
        await settle(pilot)

    import os

    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        assert snap_compare(app(), terminal_size=SIZE, run_before=run_before)
    finally:
        os.chdir(cwd)
