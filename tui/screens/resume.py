"""At start: offer to resume the autosaved session (y / n)."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from ..texts import t


class ResumeScreen(ModalScreen[bool]):
    """Shows the saved clarification sentence; `y`/Enter resumes, `n`/Escape starts fresh."""

    BINDINGS = [Binding("y,enter,j", "choose(True)", "Resume"),
                Binding("n,escape", "choose(False)", "Start fresh")]

    def __init__(self, summary: str, lang: str) -> None:
        super().__init__()
        self.summary, self.lang = summary, lang

    def compose(self) -> ComposeResult:
        with Vertical(id="resume-body"):
            yield Static(Text.assemble((t("resume", self.lang), "bold"), f"\n\n{self.summary}\n\n",
                                       ("[y] yes / ja    [n] no / nein", "bold")))

    def action_choose(self, resume: bool) -> None:
        self.dismiss(resume)
