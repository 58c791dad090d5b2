"""F1 / `?`: the keys and the slash commands, in one modal screen (Escape closes it)."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from ..commands import COMMANDS

KEYS = (
    ("Enter", "send the answer or command"),
    ("? + Enter", "explain the current question"),
    ("F1", "this help"),
    ("F2", "cost view: rent against buy, break-even"),
    ("F3", "open / close all rule cards"),
    ("Tab / Shift+Tab", "move between the prompt and the rule cards"),
    ("Enter on a card", "open or close it"),
    ("PgUp / PgDn", "scroll the chat"),
    ("Esc", "back to the prompt / close this screen"),
    ("Ctrl+P", "command palette (save, export, language, audit, …)"),
    ("Ctrl+Q", "quit (answers are autosaved)"),
)


def help_text() -> Text:
    """Keys, then commands, then the what-if hint."""
    text = Text.assemble(("Keys\n", "bold"))
    for key, what in KEYS:
        text.append(f"  {key:<17}", "bold")
        text.append(f"{what}\n")
    text.append("\nCommands\n", "bold")
    for usage, what in COMMANDS.values():
        text.append(f"  {usage:<24}", "bold")
        text.append(f"{what}\n")
    text.append("\nWhat-if: after the interview just type a change, e.g. \"actually 70B\", "
                "\"monthly fine-tuning\", \"latency 0.3 s\"; the answer updates at once and the "
                "change is marked.")
    return text


class HelpScreen(ModalScreen[None]):
    """Keys and commands."""

    BINDINGS = [Binding("escape,f1,q", "app.pop_screen", "Close")]

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help-body"):
            yield Static(help_text())
