"""A modal view over the chat (help, cost view) that loses no typed text.

Escape closes it; so does any printable key, which then goes on to the prompt: a user who starts
typing an answer while the help is open finds the text in the prompt, not lost.
"""

from __future__ import annotations

from textual import events
from textual.screen import ModalScreen

from ..bindings import LangScreen, lang_bindings, screen_bindings


class Overlay(LangScreen, ModalScreen[str | None]):
    """Dismissed with the typed character (or None); the chat puts it into the prompt."""

    BINDINGS = [*lang_bindings("escape", "close", "key.close"), *screen_bindings()]

    def action_close(self, lang: str | None = None) -> None:
        """Close the view (nothing typed)."""
        self.dismiss(None)

    def on_key(self, event: events.Key) -> None:
        if event.is_printable and event.character:
            event.stop()
            event.prevent_default()
            self.dismiss(event.character)
