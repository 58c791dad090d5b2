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


ANSWERS = {"y": True, "yes": True, "j": True, "ja": True, "n": False, "no": False, "nein": False}
"""What answers the dialog as the whole of what was typed (a lone key, or the word + Enter)."""
LONE_KEY_S = 0.5
"""How long a lone `y`, `j` or `n` waits for a next key before it answers the dialog (a typist's
"yes 70B" or "no fine-tuning" brings its next key sooner)."""


class ResumeScreen(LangScreen, ModalScreen[bool]):
    """Shows the saved clarification sentence; `y`/Enter resumes, `n`/Escape starts fresh.

    A lone `y`, `j` or `n` (no other key within `LONE_KEY_S`), or `yes`/`ja`/`no`/`nein` as the whole
    of what was typed + Enter, answers it (QA 46: "no fine-tuning", "yes 70B", "nein" + more did
    before). Any other text answers `on_typing`, no unless told (start afresh at start, keep the
    answers before `/new`), and goes on to the prompt, so an answer typed at once is not lost: it is
    the first answer of the new session (QA 45: typed text + Enter never means "resume"). The
    question is answered once: keys that arrive after it (a paste, a fast typist) go on to the
    prompt."""

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
        self.typed = ""
        """What was typed so far while it can still be a yes or a no ("n", "ne", "nei")."""

    def compose(self) -> ComposeResult:
        with Vertical(id="resume-body"):
            yield Static(Text.assemble((self.question, "bold"), f"\n\n{self.summary}\n\n",
                                       (t("chat.yes_no_keys", self.lang), "bold")))
            yield Static("", id="resume-typed")

    def action_choose(self, resume: bool, lang: str | None = None) -> None:
        self._answer(resume)

    def _answer(self, resume: bool) -> None:
        """Close with `resume`, once (a second dismiss of the closing screen fails in Textual)."""
        if not self.answered:
            self.answered = True
            self.dismiss(resume)

    def _type(self, typed: str) -> None:
        """Keep `typed` while it can still be a yes or a no; a lone key answers unless another comes."""
        self.typed = typed
        self.query_one("#resume-typed", Static).update(typed)
        if typed.lower() in ("y", "j", "n"):
            self.set_timer(LONE_KEY_S, lambda: self._lone(typed))

    def _lone(self, key: str) -> None:
        """`key` was pressed and nothing after it: the dialog's answer."""
        if self.typed == key:
            self._answer(ANSWERS[key.lower()])

    def _hand_over(self, text: str, submit: bool = False) -> None:
        """Not a yes or a no: answer `on_typing` and give `text` to the prompt (and send it)."""
        chat = self.app.chat
        self.typed = ""
        self._answer(self.on_typing)
        chat.call_after_refresh(chat.type_in, text)
        if submit:
            chat.call_after_refresh(chat.submit_prompt)

    def on_key(self, event: events.Key) -> None:
        if self.answered:
            if event.is_printable and event.character:
                event.stop()
                event.prevent_default()
                self.app.chat.call_after_refresh(self.app.chat.type_in, event.character)
            return
        if event.key == "escape" or not (self.typed or event.is_printable and event.character):
            return        # Enter, Escape: the bindings answer
        event.stop()
        event.prevent_default()
        if event.key == "enter":
            word = self.typed.strip().lower()
            self._answer(ANSWERS[word]) if word in ANSWERS else self._hand_over(self.typed, submit=True)
        elif event.key == "backspace":
            self._type(self.typed[:-1])
        elif event.is_printable and event.character:
            typed = self.typed + event.character
            if any(w.startswith(typed.lower()) for w in ANSWERS):
                self._type(typed)
            else:
                self._hand_over(typed)
