"""Cards of the answer: the recommendation, the alternatives, one collapsible card per rule.

A `RuleCard` shows a finding's title, its explanation with the user's numbers, the advice, the
source document and section, and the chain of derived facts that led to it (from the report's
`fired_rules` trace). `TraceCard` lists the whole forward-chaining trace in firing order.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.console import Group, RenderableType
from rich.padding import Padding
from rich.text import Text
from textual.binding import Binding
from textual.reactive import reactive
from textual.widgets import Static

from ..texts import severity, t

if TYPE_CHECKING:  # types only: the report models load with the pipeline
    from expert.report.models import Choice, Finding, FiredRule, Report


def money(value: float) -> str:
    """`12 345 CHF`."""
    return f"{value:,.0f}".replace(",", " ") + " CHF"


def choice_title(choice: Choice) -> str:
    """`1× l40s` — the short name used in change lines."""
    return f"{choice.count}× {choice.gpu}"


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


def dec(value: float, lang: str, digits: int = 1) -> str:
    """A decimal number as the language writes it: 8.0 in English, 8,0 in German."""
    text = f"{value:.{digits}f}"
    return text.replace(".", ",") if lang == "de" else text


class RecommendationCard(Static):
    """What to rent or buy, how many, precision, monthly and total cost, memory and headroom."""

    can_focus = False

    def __init__(self, report: Report, lang: str, changed: bool = False) -> None:
        super().__init__(self.body(report, lang, changed), classes="changed" if changed else "")

    @staticmethod
    def body(report: Report, lang: str, changed: bool) -> Text:
        rec = report.recommendation
        text = Text.assemble(("★ " + t("recommendation", lang), "bold"))
        if changed:
            text.append(f"  ({t('changed', lang)})", "bold")
        if rec is None:
            text.append(f"\n{t('nothing_fits', lang)}: {report.nothing_fits or '—'}")
            return text
        where = f"package {rec.package}" if rec.package else (rec.provider or rec.source)
        text.append(f"\n{rec.count}× {rec.gpu}", "bold")
        text.append(f"  ({where}{', ' + rec.country if rec.country else ''}), {rec.precision}, "
                    f"{rec.interconnect}")
        text.append(f"\n{money(rec.monthly_cost_chf)} {t('per_month', lang)} · "
                    f"{money(rec.tco_chf)} {t('total_over', lang, m=rec.horizon_months)}")
        if report.memory:
            m = report.memory
            text.append(f"\n{t('memory', lang)}: {t('weights', lang)} {dec(m.weights_gb, lang)} + KV "
                        f"{dec(m.kv_cache_gb, lang)} + {t('overhead', lang)} {dec(m.overhead_gb, lang)} = "
                        f"{dec(m.total_gb, lang)} GB")
            if m.fine_tuning_gb:
                text.append(f", {t('fine_tuning', lang)} {dec(m.fine_tuning_gb, lang)} GB")
        extra = []
        if rec.headroom is not None:
            extra.append(f"{t('headroom', lang)}: {rec.headroom:.0%}")
        if rec.usable_per_gpu_gb:
            extra.append(t("usable", lang, gb=f"{rec.usable_per_gpu_gb:.0f}"))
        if extra:
            text.append("\n" + ", ".join(extra))
        if rec.latency_p95_s is not None:
            text.append(f" · p95 {dec(rec.latency_p95_s, lang, 2)} s")
        if report.nothing_fits:
            text.append(f"\n{t('nothing_fits', lang)}: {report.nothing_fits}")
        return text


class AlternativesList(Static):
    """The alternatives that lost, each with its cost and why it lost."""

    can_focus = False

    def __init__(self, report: Report, lang: str, limit: int = 4) -> None:
        text = Text.assemble((t("alternatives", lang), "bold"))
        for alt in report.alternatives[:limit]:
            where = alt.provider or (f"package {alt.package}" if alt.package else alt.source)
            text.append(f"\n• {choice_title(alt)} ({where}) "
                        f"{money(alt.monthly_cost_chf)}/{t('month', lang)} — {alt.why_not}")
        if len(report.alternatives) > limit:
            text.append(f"\n  + {len(report.alternatives) - limit} {t('more', lang)}")
        if report.document_recommendation:
            text.append(f"\n◆ {report.document_recommendation}")
        for line in report.sensitivity[:3]:
            text.append(f"\n↻ {line}")
        super().__init__(text)


class Card(Static, can_focus=True):
    """A collapsible card in one widget (cheap to mount, dozens per answer): a title line, and the
    body below it when open. Enter, Space or a click toggles it."""

    BINDINGS = [Binding("enter,space", "toggle", "Open/close", show=False)]

    collapsed: reactive[bool] = reactive(True)

    def __init__(self, title: str, body: Text, classes: str = "") -> None:
        super().__init__(classes=f"card {classes}".strip())
        self.title, self.body = title, body

    def render(self) -> RenderableType:
        head = Text.assemble(("▶ " if self.collapsed else "▼ ", "bold"), (self.title, "bold"))
        return head if self.collapsed else Group(head, Padding(self.body, (0, 0, 0, 2)))

    @property
    def plain(self) -> str:
        """The card as plain text: the title, and the body when open."""
        return self.title + ("" if self.collapsed else "\n" + self.body.plain)

    def watch_collapsed(self, collapsed: bool) -> None:
        self.set_class(not collapsed, "-open")

    def action_toggle(self) -> None:
        self.collapsed = not self.collapsed

    def on_click(self) -> None:
        self.action_toggle()


class RuleCard(Card):
    """One finding as a card: closed shows severity and title; open shows the whole explanation."""

    def __init__(self, finding: Finding, fired: list[FiredRule], lang: str, new: bool = False) -> None:
        self.finding = finding
        mark = f"★ {t('new_rules', lang)} " if new else ""
        title = f"{mark}{severity(finding.severity, lang)}  {finding.title}"
        body = Text()
        body.append(finding.explanation)
        body.append(f"\n{t('advice', lang)}: ", "bold")
        body.append(finding.advice)
        body.append(f"\n{t('source', lang)}: ", "bold")
        body.append(f"{finding.source.document}, {finding.source.section}")
        body.append(f" · {t('rule', lang)} {finding.rule_id} ({finding.category})", "italic")
        lines = chain(fired, finding.rule_id)
        if lines:
            body.append(f"\n{t('trace', lang)}:", "bold")
            body.append("\n" + "\n".join(lines))
        super().__init__(title, body, classes=f"rule {finding.severity}" + (" new" if new else ""))


class TraceCard(Card):
    """Every fired rule in firing order, with what it derived."""

    def __init__(self, fired: list[FiredRule], lang: str) -> None:
        lines = []
        for n, rule in enumerate(fired, 1):
            derived = "; ".join(fact_text(d, 50) for d in rule.derived)
            lines.append(f"{n:>2}. {rule.rule_id}" + (f" → {derived}" if derived else ""))
        super().__init__(f"{t('trace', lang)} ({len(fired)})", Text("\n".join(lines) or "—"),
                         classes="trace")
