"""Issue 15: focus seen without colour, no typed text lost, an audit's findings in view, and a
file loaded after an audit.

Each test is one problem a newcomer met: a focused rule card differed only by a shade of grey;
after Esc closed the cost view the next typed text went to a card and was lost; `/audit FILE`
drew its findings below the visible area; `/audit` then `/load` showed a ValueError.
"""

from __future__ import annotations

from tui_fakes import FakeAdvisor
from tui_helpers import SIZE, screen_text, send, visible_text, workers_done
from tui.screens.cost import CostScreen
from tui.screens.help import HelpScreen
from tui.widgets import AnswerView
from tui.widgets.cards import RuleCard

SENTENCE = ("My AI agent uses a model of size Llama 3.1 8B, processes 20000 requests per day, "
            "needs fine-tuning no, with non-sensitive data.")


async def answered(pilot) -> None:
    await send(pilot, SENTENCE)
    while pilot.app.chat.session.interview.next_question() is not None:
        await send(pilot, "skip")


async def test_a_focused_card_has_a_bar_not_only_a_shade(make_app):
    app = make_app(advisor=FakeAdvisor())
    async with app.run_test(size=SIZE) as pilot:
        await answered(pilot)
        card = app.chat.query(RuleCard).first()
        assert card.styles.border_left[0] == ""          # unfocused: no bar
        card.focus()
        await pilot.pause()
        assert card.styles.border_left[0] == "outer"     # focused: a bar drawn at its left edge
        row = next(line for line in visible_text(app).splitlines() if card.title in line)
        assert row.lstrip().startswith("▌▶")              # ... and on screen, before the title


async def test_typing_on_a_card_goes_to_the_prompt(make_app):
    app = make_app(advisor=FakeAdvisor())
    async with app.run_test(size=SIZE) as pilot:
        await answered(pilot)
        app.chat.query(RuleCard).first().focus()
        await pilot.press("h", "i")
        prompt = app.chat.query_one("#prompt")
        assert app.focused is prompt and prompt.value == "hi"


async def test_typing_after_the_cost_view_and_the_help_loses_nothing(make_app):
    app = make_app(advisor=FakeAdvisor())
    async with app.run_test(size=SIZE) as pilot:
        await answered(pilot)
        app.chat.query(RuleCard).first().focus()          # focus on a card, as in the report
        await pilot.press("f2")
        assert isinstance(app.screen, CostScreen)
        await pilot.press("escape", "o", "k")
        prompt = app.chat.query_one("#prompt")
        assert app.focused is prompt and prompt.value == "ok"
        await pilot.press("f1")
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("!")                            # typing closes the help, keeps the key
        assert not isinstance(app.screen, HelpScreen) and prompt.value == "ok!"


async def test_an_audit_file_shows_its_findings_in_view(make_app):
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await workers_done(app)
        await send(pilot, "13B")                          # a short log: shorter than the screen
        await send(pilot, "/audit examples/idle-h100.yaml")
        await pilot.pause(0.2)
        seen = visible_text(app)
        assert "Findings" in seen and "High-end GPU idles under 40 %" in seen


async def test_loading_a_workload_after_an_audit(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await workers_done(app)
        await send(pilot, "/audit examples/idle-h100.yaml")
        await send(pilot, "/load examples/rag-agent.yaml")
        assert "Error" not in screen_text(app)
        assert app.chat.report.kind == "advice" and len(app.chat.query(AnswerView)) == 1


async def test_typing_at_a_yes_no_question_keeps_the_answers_and_the_text(make_app):
    app = make_app(advisor=FakeAdvisor())
    async with app.run_test(size=SIZE) as pilot:
        await answered(pilot)
        report = app.chat.report
        await send(pilot, "/new")                          # answers given: a yes/no question
        await pilot.press("7", "0", "B")                   # the user types on instead
        await pilot.pause()
        prompt = app.chat.query_one("#prompt")
        assert app.chat.report is report and prompt.value == "70B"


async def test_a_burst_of_typing_at_a_yes_no_question_answers_it_once(make_app):
    """Keys that arrive together (a paste, a fast typist, tmux) reach the question before it has
    closed: the first answers it, every key goes on to the prompt, none answers it a second time
    (a second dismiss raised "coroutine raised StopIteration" and ended the chat)."""
    from textual import events

    app = make_app(advisor=FakeAdvisor())
    async with app.run_test(size=SIZE) as pilot:
        await answered(pilot)
        report = app.chat.report
        await send(pilot, "/new")
        question = app.screen
        for ch in "a RAG yn":                            # all queued before the screen can close
            question.post_message(events.Key(ch if ch != " " else "space", ch))
        await pilot.pause(0.2)
        prompt = app.chat.query_one("#prompt")
        assert app.screen is not question and app.chat.report is report
        assert prompt.value == "a RAG yn"


async def test_a_burst_of_typing_over_the_help_closes_it_once_and_keeps_every_key(make_app):
    """The help (like the cost view) closes on the first key of a burst; all keys reach the prompt."""
    from textual import events

    app = make_app(advisor=FakeAdvisor())
    async with app.run_test(size=SIZE) as pilot:
        await answered(pilot)
        await pilot.press("f1")
        view = app.screen
        assert isinstance(view, HelpScreen)
        for ch in "ok 70B":
            view.post_message(events.Key(ch if ch != " " else "space", ch))
        await pilot.pause(0.2)
        prompt = app.chat.query_one("#prompt")
        assert app.screen is not view and app.focused is prompt and prompt.value == "ok 70B"
