"""Chat bubbles: the assistant's question, the user's answer, the assistant's reply, a change.

All text is passed as `rich.text.Text`, never as markup, so `[X]` blanks and user input are shown
as typed. Each kind has a leading word or icon, so nothing depends on colour alone.
"""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from expert.messages import t


class Bubble(Static):
    """Base of the chat bubbles: not focusable, full width, plain text."""

    can_focus = False

    def __init__(self, text: Text | str, **kwargs) -> None:
        super().__init__(text if isinstance(text, Text) else Text(text), **kwargs)


class QuestionBubble(Bubble):
    """The assistant asks one question; the example answer is shown in a dim second line."""

    def __init__(self, question: str, example: str, lang: str,
                 progress: tuple[int, int] | None = None) -> None:
        """`progress` (n, total) adds "question n of total" after the example."""
        step = f" · {t('chat.progress', lang, n=progress[0], total=progress[1])}" if progress else ""
        text = Text.assemble(("? ", "bold"), question, "\n",
                             (f"  {t('chat.example', lang)}: {example}", "italic"), (step, "dim"))
        super().__init__(text)


class UserBubble(Bubble):
    """What the user typed, right-aligned."""

    def __init__(self, answer: str, lang: str = "en") -> None:
        super().__init__(Text.assemble(answer, (f" ◂ {t('chat.you', lang)}", "dim")))


class ReplyBubble(Bubble):
    """The assistant's reply: `kind` is understood, unclear, help, skip, info, error or propose (a
    default offered for a vague answer, to accept with yes)."""

    ICONS = {"understood": "✓ ", "unclear": "✗ ", "help": "ℹ ", "skip": "↷ ", "info": "· ",
             "error": "✗ ", "propose": "→ "}

    def __init__(self, kind: str, text: str, example: str | None = None, lang: str = "en") -> None:
        body = Text.assemble((self.ICONS.get(kind, ""), "bold"))
        if kind == "unclear":
            body.append(f"{t('chat.not_understood', lang)}: ", "bold")
        elif kind == "propose":
            body.append(f"{t('chat.propose', lang)}: ", "bold")
        body.append(text)
        if example:
            body.append(f"\n  {t('chat.example', lang)}: {example}", "italic")
        super().__init__(body, classes=kind)


class ChangeBubble(Bubble):
    """A what-if result: `changed: 1× l40s → 1× h100-nvl`, plus rules that came and went."""

    def __init__(self, lines: list[str]) -> None:
        super().__init__(Text("\n".join(lines)))
