"""F1 / `?`: the keys and the slash commands, in one modal screen (Escape closes it)."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Static

from ..commands import COMMANDS
from .overlay import Overlay

KEYS = (
    ("Enter", "send the answer or command", "Antwort oder Befehl senden"),
    ("? + Enter", "explain the current question", "die aktuelle Frage erklären"),
    ("F1", "this help", "diese Hilfe"),
    ("F2", "cost view: rent against buy, break-even", "Kostenansicht: Miete gegen Kauf, Break-even"),
    ("F3", "open / close all rule cards", "alle Regelkarten öffnen / schliessen"),
    ("Tab / Shift+Tab", "move between the prompt and the rule cards",
     "zwischen Eingabe und Regelkarten wechseln"),
    ("Enter (card)", "open or close the card", "Karte öffnen oder schliessen"),
    ("PgUp / PgDn", "scroll the chat", "im Chat blättern"),
    ("Esc", "back to the prompt / close this screen", "zurück zur Eingabe / diese Ansicht schliessen"),
    ("Ctrl+P", "command palette (save, export, language, audit, …)",
     "Befehlspalette (speichern, exportieren, Sprache, Audit, …)"),
    ("Ctrl+Q", "quit (answers are autosaved)", "beenden (Antworten sind automatisch gespeichert)"),
)
"""Key → (what it does in English, in German)."""

WHAT_IF = ("What-if: after the interview just type a change, e.g. \"actually 70B\", \"monthly "
           "fine-tuning\", \"latency 0.3 s\"; the answer updates at once and the change is summed up "
           "under it.",
           "Was-wäre-wenn: nach der Befragung einfach eine Änderung tippen, z. B. \"doch 70B\", "
           "\"monatliches Fine-Tuning\", \"Latenz 0,3 s\"; die Antwort ändert sich sofort, die "
           "Änderung steht darunter.")


def help_text(lang: str = "en") -> Text:
    """Keys, then commands, then the what-if hint, in `lang`."""
    de = lang == "de"
    text = Text.assemble(("Tasten\n" if de else "Keys\n", "bold"))
    for key, en_what, de_what in KEYS:
        text.append(f"  {key:<17}", "bold")
        text.append(f"{de_what if de else en_what}\n")
    text.append("\nBefehle\n" if de else "\nCommands\n", "bold")
    for usage, en_what, de_what in COMMANDS.values():
        text.append(f"  {usage:<24}", "bold")
        text.append(f"{de_what if de else en_what}\n")
    text.append("\n" + WHAT_IF[de])
    return text


class HelpScreen(Overlay):
    """Keys and commands, in the chat's language (Escape or F1 closes it; typing goes on to the
    prompt)."""

    BINDINGS = [Binding("escape,f1", "dismiss", "Close")]

    def __init__(self, lang: str = "en") -> None:
        super().__init__()
        self.lang = lang

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help-body"):
            yield Static(help_text(self.lang))
