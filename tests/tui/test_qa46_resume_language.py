"""QA 46 nit: resuming a German session in a chat started without `--lang` continues in German (the
autosave's header says lang=de); a language chosen with `--lang` still wins."""

from __future__ import annotations

from tui_helpers import SIZE, screen_text, send


async def _saved_german_session(make_app) -> None:
    app = make_app(lang="de")
    async with app.run_test(size=SIZE) as pilot:
        for answer in ("Llama 3.1 8B", "20 000 pro Tag"):
            await send(pilot, answer)
        await pilot.press("ctrl+q")


async def test_a_german_autosave_resumes_in_german_without_lang(make_app, state_dir):
    from tui.screens.resume import ResumeScreen

    await _saved_german_session(make_app)
    app = make_app(resume=None, lang="en", lang_chosen=False)      # `gpu-expert chat` without --lang
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, ResumeScreen)
        # before: "Resume the last session?" over "… 20,000 requests per day …", the greeting English
        assert app.screen.lang == "de" and "Anfragen pro Tag" in app.screen.summary
        assert app.chat.session.lang == "de"
        await pilot.press("y")
        await pilot.pause()
        assert app.chat.query_one("#prompt").placeholder.startswith("Antwort eingeben")
        assert "Hallo! Ich lege GPUs" in screen_text(app) and "Hello!" not in screen_text(app)


async def test_a_chosen_language_wins_over_the_autosave(make_app, state_dir):
    await _saved_german_session(make_app)
    app = make_app(resume=None, lang="en")                            # --lang en
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert app.screen.lang == "en" and "requests per day" in app.screen.summary
