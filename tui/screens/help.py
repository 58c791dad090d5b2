"""F1 / `?`: the keys and the slash commands, in one modal screen (Escape closes it)."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Static

from expert.messages import t

from ..bindings import lang_bindings
from ..commands import COMMANDS
from .overlay import Overlay

KEYS = (("Enter", "send"), ("? + Enter", "explain"), ("F1", "help"), ("F2", "cost"), ("F3", "cards"),
        ("Tab / Shift+Tab", "tab"), (None, "card_enter"), ("PgUp / PgDn", "scroll"), ("Esc", "esc"),
        ("Ctrl+P", "palette"), ("Ctrl+Q", "quit"))
"""Key → its message id (`chat.help.key.ID` in `expert.messages`); None: a key named with a word,
`chat.help.keyname.ID` ("Enter (card)" / "Enter (Karte)")."""


def help_text(lang: str = "en") -> Text:
    """Keys, then commands, then the what-if hint, in `lang`."""
    text = Text.assemble((t("chat.help.keys", lang) + "\n", "bold"))
    for key, name in KEYS:
        key = key or t(f"chat.help.keyname.{name}", lang)
        text.append(f"  {key:<17}", "bold")
        text.append(t(f"chat.help.key.{name}", lang) + "\n")
    text.append("\n" + t("chat.help.commands", lang) + "\n", "bold")
    for name, usage in COMMANDS.items():
        text.append(f"  {usage:<24}", "bold")
        text.append(t(f"chat.cmd.{name}", lang) + "\n")
    text.append("\n" + t("chat.help.what_if", lang))
    return text


class HelpScreen(Overlay):
    """Keys and commands, in the chat's language (Escape or F1 closes it; typing goes on to the
    prompt)."""

    BINDINGS = lang_bindings("escape,f1", "close", "key.close")

    def __init__(self, lang: str = "en") -> None:
        super().__init__()
        self.lang = lang

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help-body"):
            yield Static(help_text(self.lang))
