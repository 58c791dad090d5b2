"""The clarification sentence, shown above the chat and filled in as answers arrive."""

from __future__ import annotations

import re

from rich.text import Text
from textual.widgets import Static

from expert.messages import t

_BLANK = re.compile(r"\[[^\]]*\]")


class SentencePanel(Static):
    """`Interview.sentence()` with the still-missing parts (`[X]`, `[yes/no]`) marked ‹…› and bold."""

    can_focus = False

    def show(self, sentence: str, lang: str, label: str | None = None) -> None:
        """Redraw the panel with `sentence` after `label` (default: "Clarification")."""
        text = Text.assemble((f"{label or t('chat.sentence', lang)}: ", "bold"))
        pos = 0
        for m in _BLANK.finditer(sentence):
            text.append(sentence[pos:m.start()])
            text.append(f"‹{m.group()[1:-1]}›", "bold reverse")
            pos = m.end()
        text.append(sentence[pos:])
        self.update(text)
