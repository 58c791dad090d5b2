"""A modal view over the chat (help, cost view) that loses no typed text.

Escape closes it; so does any printable key, which then goes on to the prompt: a user who starts
typing an answer while the help is open finds the text in the prompt, not lost. Keys that arrive
together (a paste, a fast typist) reach the view before it has closed: it closes once, and every key
goes on to the prompt in order (a second dismiss of a closing screen fails in Textual).
"""

from __future__ import annotations

from textual import events
from textual.screen import ModalScreen

from ..bindings import LangScreen, lang_bindings, screen_bindings


class Overlay(LangScreen, ModalScreen[str | None]):
    """Dismissed with None; the chat then focuses its prompt, and each key typed meanwhile is added to
    it in order (`ChatScreen.type_in`)."""

    BINDINGS = [*lang_bindings("escape", "close", "key.close"), *screen_bindings()]
    closing = False

    def action_close(self, lang: str | None = None) -> None:
        """Close the view (nothing typed), once."""
        if not self.closing:
            self.closing = True
            self.dismiss(None)

    def on_key(self, event: events.Key) -> None:
        if event.is_printable and event.character:
            event.stop()
            event.prevent_default()
            chat = self.app.chat
            self.action_close()
            chat.call_after_refresh(chat.type_in, event.character)
