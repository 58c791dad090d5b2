"""Cards of the answer: the recommendation, the alternatives, one collapsible card per rule.

A `RuleCard` shows a finding's title, its explanation with the user's numbers, the advice, the
source document and section, and the chain of derived facts that led to it (from the report's
`fired_rules` trace). `TraceCard` lists the whole forward-chaining trace in firing order.
"""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Collapsible, Static

from expert.report.models import Choice, Finding, FiredRule, Report

from ..texts import severity, t


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
            text.append(f"\n{t('memory', lang)}: weights {m.weights_gb:.1f} + KV {m.kv_cache_gb:.1f} "
                        f"+ overhead {m.overhead_gb:.1f} = {m.total_gb:.1f} GB")
            if m.fine_tuning_gb:
                text.append(f", fine-tuning {m.fine_tuning_gb:.1f} GB")
        if rec.usable_per_gpu_gb:
            text.append(f" of {rec.usable_per_gpu_gb:.0f} GB usable/GPU")
        if rec.headroom is not None:
            text.append(f"\n{t('headroom', lang)}: {rec.headroom:.0%}")
        if rec.latency_p95_s is not None:
            text.append(f" · p95 {rec.latency_p95_s:.2f} s")
        if report.nothing_fits:
            text.append(f"\n{t('nothing_fits', lang)}: {report.nothing_fits}")
        return text


class AlternativesList(Static):
    """The alternatives that lost, each with its cost and why it lost."""

    can_focus = False

    def __init__(self, report: Report, lang: str) -> None:
        text = Text.assemble((t("alternatives", lang), "bold"))
        for alt in report.alternatives:
            text.append(f"\n• {choice_title(alt)} ({alt.provider or alt.package or alt.source}) "
                        f"{money(alt.monthly_cost_chf)}/{t('month', lang)} — {alt.why_not}")
        super().__init__(text)


class RuleCard(Collapsible):
    """One finding as a card: closed shows severity and title; open shows the whole explanation."""

    def __init__(self, finding: Finding, fired: list[FiredRule], lang: str, new: bool = False) -> None:
        self.finding = finding
        mark = f"★ {t('new_rules', lang)} " if new else ""
        title = f"{mark}{severity(finding.severity, lang)}  {finding.title}  ({finding.rule_id})"
        body = Text()
        body.append(finding.explanation)
        body.append(f"\n{t('advice', lang)}: ", "bold")
        body.append(finding.advice)
        body.append(f"\n{t('source', lang)}: ", "bold")
        body.append(f"{finding.source.document}, {finding.source.section}")
        lines = chain(fired, finding.rule_id)
        if lines:
            body.append(f"\n{t('trace', lang)}:", "bold")
            body.append("\n" + "\n".join(lines))
        super().__init__(Static(body), title=title, collapsed=True,
                         classes=f"rule {finding.severity}" + (" new" if new else ""))


class TraceCard(Collapsible):
    """Every fired rule in firing order, with what it derived."""

    def __init__(self, fired: list[FiredRule], lang: str) -> None:
        lines = []
        for n, rule in enumerate(fired, 1):
            derived = "; ".join(fact_text(d, 50) for d in rule.derived)
            lines.append(f"{n:>2}. {rule.rule_id}" + (f" → {derived}" if derived else ""))
        super().__init__(Static(Text("\n".join(lines) or "—")), collapsed=True, classes="trace",
                         title=f"{t('trace', lang)} ({len(fired)})")
