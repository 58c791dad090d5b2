"""Issue 17: key descriptions (footer, key panel), the resume dialog's keys and the chat's file
errors are in the chat's language, never English in a German chat."""

from __future__ import annotations

from tui_helpers import SIZE, screen_text, send, workers_done

from expert.messages import MESSAGES
from tui.app import run_app
from tui.screens.resume import LONE_KEY_S, ResumeScreen

ENGLISH_KEYS = {en for key, (en, de) in MESSAGES.items() if key.startswith(("key.", "chat.key.")) and en != de}
GERMAN_KEYS = {de for key, (en, de) in MESSAGES.items() if key.startswith(("key.", "chat.key.")) and en != de}


def descriptions(app) -> set[str]:
    """The descriptions of the active bindings of the screen on top (what footer and key panel show)
    that the chat defines; Textual's own (the prompt's cursor keys, Tab, Ctrl+Q) are left out."""
    return {b.binding.description for b in app.screen.active_bindings.values()
            if type(b.node).__module__.startswith("tui.")}


async def test_the_chats_keys_are_described_in_german(make_app):
    app = make_app(lang="de")
    async with app.run_test(size=SIZE) as pilot:
        await workers_done(app)
        app.screen.set_focus(None)                         # the prompt's PgUp/PgDn would hide the chat's
        await pilot.pause()
        said = descriptions(app)
        assert {"Hilfe", "Kosten", "Regelkarten", "Eingabe", "Nach oben blättern", "Nach unten blättern"} <= said
        assert not said & ENGLISH_KEYS, said & ENGLISH_KEYS
        await pilot.press("f1")                            # the help view: its Close key in German
        assert type(app.screen).__name__ == "HelpScreen"
        assert descriptions(app) >= {"Schliessen"} and "Close" not in descriptions(app)
        await pilot.press("escape")                        # still closes it, and types nothing
        assert app.screen is app.chat and app.chat.query_one("#prompt").value == ""
        await send(pilot, "/lang en")                      # the keys follow a language switch
        app.screen.set_focus(None)
        await pilot.pause()
        said = descriptions(app)
        assert {"Help", "Scroll up", "Prompt"} <= said and not said & GERMAN_KEYS


async def test_the_resume_dialogs_keys_are_german(make_app):
    app = make_app(lang="de")
    answers = []
    async with app.run_test(size=SIZE) as pilot:
        await workers_done(app)
        app.push_screen(ResumeScreen("Llama 3.1 8B, 20 000 Anfragen pro Tag", "de"), answers.append)
        await pilot.pause()
        assert {"Fortsetzen", "Neu beginnen"} <= descriptions(app)
        assert not {"Resume", "Start fresh"} & descriptions(app)
        await pilot.press("n")                             # a lone key answers (QA 46) …
        await pilot.pause(LONE_KEY_S + 0.3)                # … once no next key came
        await pilot.pause()
    assert answers == [False]


async def test_a_file_that_is_not_a_mapping_is_said_in_german(make_app, tmp_path):
    path = tmp_path / "list.yaml"
    path.write_text("- gpu: h100-sxm\n- count: 2\n", encoding="utf-8")
    app = make_app(lang="de")
    async with app.run_test(size=SIZE) as pilot:
        await workers_done(app)
        await send(pilot, f"/load {path}")
        await send(pilot, f"/load {tmp_path / 'fehlt.yaml'}")
        await send(pilot, f"/audit {tmp_path}")
        text = screen_text(app)
    assert "oberste Ebene muss eine Zuordnung sein" in text and "top level must be" not in text
    assert "fehlt.yaml: Datei nicht gefunden" in text and "file not found" not in text
    assert "ist ein Ordner, keine Datei" in text and "directory" not in text


def test_a_missing_file_before_the_chat_starts_is_said_in_german(capsys, tmp_path):
    missing = tmp_path / "fehlt.yaml"
    assert run_app(lang="de", load=str(missing)) == 2
    assert capsys.readouterr().err.strip() == f"{missing}: Datei nicht gefunden"
    assert run_app(lang="en", load=str(missing)) == 2
    assert capsys.readouterr().err.strip() == f"{missing}: file not found"


def test_the_help_names_the_card_key_in_german():
    from tui.screens.help import help_text

    assert "Enter (Karte)" in help_text("de").plain and "(card)" not in help_text("de").plain
    assert "Enter (card)" in help_text("en").plain


async def test_textuals_own_keys_and_palette_commands_follow_the_chats_language(make_app):
    app = make_app(lang="de")
    async with app.run_test(size=SIZE) as pilot:
        await workers_done(app)
        keys = {key: b.binding.description for key, b in app.screen.active_bindings.items()}
        assert keys["ctrl+q"] == "Beenden" and keys["ctrl+p"] == "Palette"
        assert keys["tab"] == "Nächstes Element" and keys["shift+tab"] == "Vorheriges Element"
        # the prompt's editing keys (Textual's Input) too, and they still edit
        assert keys["left"] == "Cursor nach links" and keys["ctrl+u"] == "Alles links löschen"
        assert {b.binding.description for b in app.screen.active_bindings.values()} & {
            "Move cursor left", "Delete all to the left", "Submit", "Focus Next", "Quit", "Copy selected text"} == set()
        await pilot.press("a", "b", "left", "x", "ctrl+e", "c")
        assert app.chat.query_one("#prompt").value == "axbc"
        await pilot.press("ctrl+u")
        assert app.chat.query_one("#prompt").value == ""
        titles = {c.title for c in app.get_system_commands(app.screen)}
        assert {"Farbschema", "Beenden", "Tasten", "Bildschirmfoto"} <= titles
        assert not {"Theme", "Quit", "Keys", "Screenshot"} & titles
        await pilot.press("ctrl+p")                        # the German binding opens the palette
        await pilot.pause()
        assert type(app.screen).__name__ == "CommandPalette"
        await pilot.press("escape")
        await pilot.pause()
        await send(pilot, "/lang en")
        keys = {key: b.binding.description for key, b in app.screen.active_bindings.items()}
        assert keys["ctrl+q"] == "Quit" and "Keys" in {c.title for c in app.get_system_commands(app.screen)}
        await pilot.press("ctrl+q")                        # and Ctrl+Q still quits
        await pilot.pause()
    assert not app.is_running
