"""A yes/no question over the chat: at start, resume the autosaved session? before `/new`,
replace the answers?"""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from expert.messages import t

from ..bindings import LangScreen, lang_bindings, screen_bindings


class ResumeScreen(LangScreen, ModalScreen[bool]):
    """Shows the saved clarification sentence; `y`/Enter resumes, `n`/Escape starts fresh.

    Any other key answers `on_typing`, no unless told (start afresh at start, keep the answers
    before `/new`), and goes on to the prompt, so an answer typed at once is not lost: it is the
    first answer of the new session (QA 45: typed text + Enter never means "resume"). The
    question is answered once: keys that arrive together (a paste, a fast typist) reach it before it
    has closed, and each of them, `y` and `n` included, only goes on to the prompt."""

    BINDINGS = [*lang_bindings("y,enter,j", "choose(True)", "key.resume"),
                *lang_bindings("n,escape", "choose(False)", "key.start_fresh"), *screen_bindings()]

    def __init__(self, summary: str, lang: str, question: str | None = None,
                 on_typing: bool = False) -> None:
        """`question` replaces "Resume the last session?" (e.g. before `/new`)."""
        super().__init__()
        self.summary, self.lang = summary, lang
        self.question = question or t("chat.resume", lang)
        self.on_typing = on_typing
        self.answered = False

    def compose(self) -> ComposeResult:
        with Vertical(id="resume-body"):
            yield Static(Text.assemble((self.question, "bold"), f"\n\n{self.summary}\n\n",
                                       (t("chat.yes_no_keys", self.lang), "bold")))

    def action_choose(self, resume: bool, lang: str | None = None) -> None:
        self._answer(resume)

    def _answer(self, resume: bool) -> None:
        """Close with `resume`, once (a second dismiss of the closing screen fails in Textual)."""
        if not self.answered:
            self.answered = True
            self.dismiss(resume)

    def on_key(self, event: events.Key) -> None:
        if event.key in ("y", "j", "n") and not self.answered:
            return        # the bindings answer
        if event.is_printable and event.character:
            event.stop()
            event.prevent_default()
            chat = self.app.chat
            self._answer(self.on_typing)
            chat.call_after_refresh(chat.type_in, event.character)
