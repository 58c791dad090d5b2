"""Collapsible cards of the answer: one per fired rule's finding, and the whole trace.

A `RuleCard` shows a finding's title, its explanation with the user's numbers, the advice, the
source document and section, and the chain of derived facts that led to it (from the report's
`fired_rules` trace). `TraceCard` lists the whole forward-chaining trace in firing order.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from rich.console import Group
from rich.padding import Padding
from rich.text import Text
from textual.reactive import reactive
from textual.widgets import Static

from expert.messages import severity, t, value_word

from ..bindings import LangBindings, lang_bindings

if TYPE_CHECKING:  # types only: the report models load with the pipeline
    from expert.report.models import Finding, FiredRule


def fact_text(fact: dict, limit: int = 66) -> str:
    """`kind(a=1, b=x)`, cut at `limit` characters."""
    kind = fact.get("kind") or fact.get("t") or "fact"
    body = ", ".join(f"{k}={v}" for k, v in fact.items() if k not in ("kind", "t"))
    text = f"{kind}({body})"
    return text if len(text) <= limit else text[:limit - 1] + "…"


def chain(fired: list[FiredRule], rule_id: str, depth: int = 4) -> list[str]:
    """The derivation chain behind `rule_id`: what it matched, and which rule derived each fact."""
    index = next((i for i in range(len(fired) - 1, -1, -1) if fired[i].rule_id == rule_id), None)
    if index is None:
        return []
    lines: list[str] = []

    def walk(i: int, indent: int) -> None:
        for fact in fired[i].matched.values():
            if not isinstance(fact, dict):
                continue
            source = next((j for j in range(i - 1, -1, -1) if fact in fired[j].derived), None)
            by = f"  ← {fired[source].rule_id}" if source is not None else ""
            lines.append("  " * indent + "• " + fact_text(fact) + by)
            if source is not None and indent < depth:
                walk(source, indent + 1)

    walk(index, 0)
    for fact in fired[index].derived:
        lines.append("→ " + fact_text(fact))
    return lines


class Card(LangBindings, Static, can_focus=True):
    """A collapsible card in one widget (cheap to mount, dozens per answer): a title line, and the
    body below it when open. Enter, Space or a click toggles it.

    The text is handed to `Static.update` when it changes, not built in `render()`: Textual keeps
    an updated Static's converted text, while `render()` runs again on every layout and paint (with
    a dozen cards that was most of the time a what-if edit took to reach the screen)."""

    BINDINGS = lang_bindings("enter,space", "toggle", "key.toggle_card", show=False)

    collapsed: reactive[bool] = reactive(True)

    def __init__(self, title: str = "", body: Text | Callable[[], Text] | None = None,
                 classes: str = "") -> None:
        super().__init__(classes=f"card {classes}".strip())
        self.title = title
        self._body, self._make_body = (None, body) if callable(body) else (body, None)
        self._drawn: tuple | None = None
        self._redraw()

    @property
    def body(self) -> Text:
        """The text below the title (built on first use when it was given as a function)."""
        if self._body is None:
            self._body = self._make_body() if self._make_body is not None else Text()
        return self._body

    def set_card(self, title: str, body: Text | Callable[[], Text], classes: str = "") -> None:
        """Show another title and body (kept open or closed as it is); `classes` replace the old.
        `body` may be a function: it is called only when the card is open (most never are)."""
        self.title = title
        self._body, self._make_body = (None, body) if callable(body) else (body, None)
        wanted = {"card", *classes.split()} | ({"-open"} if not self.collapsed else set())
        if set(self.classes) != wanted:
            self.set_classes(wanted)
        self._redraw()

    def _redraw(self) -> None:
        drawn = (self.title,) if self.collapsed else None  # an open card is always drawn anew
        if drawn is not None and drawn == self._drawn:
            return
        self._drawn = drawn
        head = Text.assemble(("▶ " if self.collapsed else "▼ ", "bold"), (self.title, "bold"))
        self.update(head if self.collapsed else Group(head, Padding(self.body, (0, 0, 0, 2))))

    @property
    def plain(self) -> str:
        """The card as plain text: the title, and the body when open."""
        return self.title + ("" if self.collapsed else "\n" + self.body.plain)

    def watch_collapsed(self, collapsed: bool) -> None:
        self.set_class(not collapsed, "-open")
        self._redraw()

    def action_toggle(self, lang: str | None = None) -> None:
        self.collapsed = not self.collapsed

    def on_click(self) -> None:
        self.action_toggle()


class RuleCard(Card):
    """One finding as a card: closed shows severity and title; open shows the whole explanation."""

    def __init__(self, finding: Finding, fired: list[FiredRule], lang: str, new: bool = False,
                 nth: str = "") -> None:
        self.finding = finding
        super().__init__(*self.parts(finding, fired, lang, new, nth))

    def show(self, finding: Finding, fired: list[FiredRule], lang: str, new: bool = False,
             nth: str = "") -> None:
        """Show `finding` (with the derivation chain from `fired`); `new` marks a rule that came
        with the latest what-if edit; `nth` (`1/2`) tells findings of one rule apart."""
        self.finding = finding
        self.set_card(*self.parts(finding, fired, lang, new, nth))

    def parts(self, finding: Finding, fired: list[FiredRule], lang: str, new: bool,
              nth: str = "") -> tuple[str, Callable[[], Text], str]:
        """(title, body function, classes) of the card for `finding`."""
        mark = f"★ {t('chat.new_rules', lang)} " if new else ""
        title = f"{mark}{severity(finding.severity, lang)}  {finding.title}" + (f" ({nth})" if nth else "")
        return (title, lambda: self.explanation(finding, fired, lang),
                f"rule {finding.severity}" + (" new" if new else ""))

    @staticmethod
    def explanation(finding: Finding, fired: list[FiredRule], lang: str) -> Text:
        """The open card: explanation, advice, source, rule id and the chain of derived facts."""
        body = Text()
        body.append(finding.explanation)
        body.append(f"\n{t('chat.advice', lang)}: ", "bold")
        body.append(finding.advice)
        body.append(f"\n{t('chat.source', lang)}: ", "bold")
        body.append(f"{finding.source.document}, {finding.source.section}")
        body.append(f" · {t('chat.rule', lang)} {finding.rule_id} ({value_word('category', finding.category, lang) or finding.category})", "italic")
        lines = chain(fired, finding.rule_id)
        if lines:
            body.append(f"\n{t('chat.trace', lang)}:", "bold")
            body.append("\n" + "\n".join(lines))
        return body


class TraceCard(Card):
    """Every fired rule in firing order, with what it derived."""

    def __init__(self, fired: list[FiredRule], lang: str) -> None:
        super().__init__(*self.parts(fired, lang))
        self.display = bool(fired)

    def show(self, fired: list[FiredRule], lang: str) -> None:
        """Show the trace `fired` (hidden when no rule fired)."""
        self.set_card(*self.parts(fired, lang))
        self.display = bool(fired)

    def parts(self, fired: list[FiredRule], lang: str) -> tuple[str, Callable[[], Text], str]:
        """(title, body function, classes) of the trace card."""
        return f"{t('chat.trace', lang)} ({len(fired)})", lambda: self.listing(fired), "trace"

    @staticmethod
    def listing(fired: list[FiredRule]) -> Text:
        """One line per fired rule: its number, id and what it derived."""
        lines = []
        for n, rule in enumerate(fired, 1):
            derived = "; ".join(fact_text(d, 50) for d in rule.derived)
            lines.append(f"{n:>2}. {rule.rule_id}" + (f" → {derived}" if derived else ""))
        return Text("\n".join(lines) or "—")
