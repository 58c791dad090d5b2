"""Issue 35: every character typed or pasted while a rule card has focus reaches the prompt — a
burst of keys queued before the focus moves keeps its spaces ("/setrequests160000perday" once),
and a paste lands whole; the resume dialog shows the saved answers in the chat's language."""

from __future__ import annotations

import contextlib

import pytest
from textual import events

from tui_fakes import FakeAdvisor
from tui_helpers import SIZE, send
from tui.widgets import UserBubble
from tui.widgets.cards import RuleCard

SENTENCE = ("My AI agent uses a model of size Llama 3.1 8B, processes 20000 requests per day, "
            "needs fine-tuning no, with non-sensitive data.")
LINE = "/set requests 160000 per day"


async def answered(pilot) -> None:
    await send(pilot, SENTENCE)
    while pilot.app.chat.session.interview.next_question() is not None:
        await send(pilot, "skip")


def key(ch: str) -> events.Key:
    return events.Key("space" if ch == " " else ch, ch)


@pytest.fixture
def card_in_focus(make_app):
    """`async with card_in_focus() as (app, pilot, card)`: an answered chat (fake advisor) whose
    first rule card has focus."""
    @contextlib.asynccontextmanager
    async def opened():
        app = make_app(advisor=FakeAdvisor())
        async with app.run_test(size=SIZE) as pilot:
            await answered(pilot)
            card = app.chat.query(RuleCard).first()
            card.focus()
            await pilot.pause()
            yield app, pilot, card
    return opened


@pytest.mark.parametrize("messages", [
    lambda: [key(ch) for ch in LINE],      # a burst of typing, all queued before the focus can move
    lambda: [events.Paste(LINE)],          # a paste
], ids=["burst-of-typing", "paste"])
async def test_typing_or_pasting_on_a_card_lands_whole_in_the_prompt(card_in_focus, messages):
    async with card_in_focus() as (app, pilot, _):
        for message in messages():
            app.post_message(message)
        await pilot.pause()
        await pilot.pause()
        prompt = app.chat.query_one("#prompt")
        assert prompt.value == LINE and app.focused is prompt


async def test_space_on_a_card_still_opens_it(card_in_focus):
    async with card_in_focus() as (app, pilot, card):
        before = card.collapsed
        await pilot.press("space")
        assert app.focused is card and app.chat.query_one("#prompt").value == ""
        assert card.collapsed is not before


@contextlib.asynccontextmanager
async def at_resume_dialog(make_app, answers: tuple[str, ...], saved_lang: str):
    """`async with at_resume_dialog(...) as (app, pilot)`: a session of `answers` in `saved_lang` quit and
    saved, then a fresh English chat at its "Resume the last session?" dialog."""
    from tui.screens.resume import ResumeScreen

    app = make_app(lang=saved_lang)
    async with app.run_test(size=SIZE) as pilot:
        for answer in answers:
            await send(pilot, answer)
        await pilot.press("ctrl+q")
    app = make_app(resume=None, lang="en")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, ResumeScreen)
        yield app, pilot


async def test_the_resume_dialog_shows_the_saved_answers_in_the_chats_language(make_app, state_dir):
    async with at_resume_dialog(make_app, ("Llama 3.1 8B", "20 000 pro Tag"), "de") as (app, pilot):
        assert "requests per day" in app.screen.summary and "Anfragen" not in app.screen.summary
        assert "Resume" in app.screen.question


async def test_typing_an_answer_at_the_resume_dialog_starts_afresh_with_it(make_app, state_dir):
    """QA 45 D8: typed text + Enter at "Resume the last session?" is no yes: the saved session is not
    resumed, and the text is the first answer of the new session (the model question)."""
    async with at_resume_dialog(make_app, ("Llama 3.1 70B", "20000 per day"), "en") as (app, pilot):
        for ch in "Qwen3 8B":
            await pilot.press("space" if ch == " " else ch)
        await pilot.pause()
        await pilot.press("enter")
        for _ in range(5):
            await pilot.pause()
        answers = app.chat.session.interview.answers
        assert answers.get("model") == "qwen3-8b" and "requests_per_day" not in answers, answers


async def type_at_dialog(pilot, text: str, enter: bool = True) -> None:
    """Type `text` key by key at the dialog (a typist: no pause between keys), then Enter."""
    for ch in text:
        await pilot.press("space" if ch == " " else ch)
    if enter:
        await pilot.press("enter")
    for _ in range(5):
        await pilot.pause()


@pytest.mark.parametrize("typed", ["no fine-tuning", "yes 70B", "nein danke", "nope, 8B"])
async def test_text_that_begins_with_a_yes_or_no_key_starts_afresh_with_it(make_app, state_dir, typed):
    """QA 46: "no fine-tuning", "yes 70B", "nein danke" typed at the dialog are not its n/y keys: a
    new session starts with the text as its first answer (the model question) and nothing resumed."""
    async with at_resume_dialog(make_app, ("Llama 3.1 70B", "20000 per day"), "en") as (app, pilot):
        await type_at_dialog(pilot, typed)
        iv = app.chat.session.interview
        assert "requests_per_day" not in iv.answers and "model" not in iv.answers, iv.answers
        assert app.chat.query_one("#prompt").value == ""           # sent as the first answer, whole
        said = [str(b.content) for b in app.chat.query(UserBubble)]
        assert said == [f"{typed} ◂ you"], said
        assert iv.answers.get("params_b") == {"yes 70B": 70, "nope, 8B": 8}.get(typed), iv.answers


@pytest.mark.parametrize(("typed", "resumed"), [("yes", True), ("ja", True), ("no", False),
                                                ("nein", False), ("j", True), ("n", False)])
async def test_a_whole_yes_or_no_typed_with_enter_answers_the_dialog(make_app, state_dir, typed, resumed):
    async with at_resume_dialog(make_app, ("Llama 3.1 70B", "20000 per day"), "en") as (app, pilot):
        await type_at_dialog(pilot, typed)
        answers = app.chat.session.interview.answers
        # resumed: the saved 70B and 20 000 a day; afresh: nothing answered, the prompt empty
        assert answers.get("requests_per_day") == (20000 if resumed else None), answers
        assert app.chat.query_one("#prompt").value == ""


@pytest.mark.parametrize(("key_", "resumed"), [("y", True), ("j", True), ("n", False)])
async def test_a_lone_key_press_still_answers_the_dialog(make_app, state_dir, key_, resumed):
    from tui.screens.resume import LONE_KEY_S, ResumeScreen

    async with at_resume_dialog(make_app, ("Llama 3.1 70B", "20000 per day"), "en") as (app, pilot):
        await pilot.press(key_)
        await pilot.pause(LONE_KEY_S + 0.3)
        await pilot.pause()
        assert not isinstance(app.screen, ResumeScreen)
        answers = app.chat.session.interview.answers
        assert answers.get("requests_per_day") == (20000 if resumed else None), answers
