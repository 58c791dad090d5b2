"""The change line under a refilled answer: what a what-if edit changed, in plain words."""

from __future__ import annotations

from expert.messages import t
from expert.report.numbers import chf

from ..widgets.recommendation import choice_title, latency_words, where


def change_lines(before, after, lang: str) -> list[str]:
    """`changed: 1× l40s → 1× h100-nvl`, the cost change, what is recommended now (with where,
    precision and latency in the targets' terms), then the rules that came and went."""
    a, b = before.recommendation, after.recommendation
    if after.kind == "audit" and a is None and b is None:
        lines = reserve_change(before, after, lang) + rule_changes(before, after, lang)
        return lines or [t("chat.findings_unchanged", lang)]
    name = lambda c: choice_title(c) if c else t("chat.nothing_fits", lang)  # noqa: E731
    lines = [f"{t('chat.changed', lang)}: {name(a)} → {name(b)}" if name(a) != name(b)
             else t("chat.unchanged", lang) + f": {name(b)}"]
    if a and b and round(a.monthly_cost_chf) != round(b.monthly_cost_chf):
        lines.append(f"  {chf(a.monthly_cost_chf)} → {chf(b.monthly_cost_chf)} {t('chat.per_month', lang)}")
    if b is not None:
        latency = latency_words(b, lang)
        p95 = f", {latency}" if latency else ""
        lines.append(f"  {t('chat.now', lang)}: {choice_title(b)} ({where(b, lang)}{', ' + b.country if b.country else ''}), "
                     f"{b.precision}{p95}")
    return lines + rule_changes(before, after, lang)


def _reserve(report) -> float | None:
    """The memory reserve of an audited setup, from the facts its rules matched."""
    for fired in report.fired_rules:
        for fact in fired.matched.values():
            if isinstance(fact, dict) and isinstance(fact.get("reserve_ratio"), (int, float)):
                return fact["reserve_ratio"]
    return None


def reserve_change(before, after, lang: str) -> list[str]:
    """`memory reserve: 45 % → 72 %` when an edit (e.g. `/set precision fp8`) moved it."""
    was, now = _reserve(before), _reserve(after)
    if was is None or now is None or round(was, 2) == round(now, 2):
        return []
    return [t("chat.reserve_change", lang, was=f"{was:.0%}", now=f"{now:.0%}")]


def rule_changes(before, after, lang: str) -> list[str]:
    """`+ new: title` and `− no longer: title`, in rule-id order."""
    was = {f.rule_id: f.title for f in before.findings}
    now = {f.rule_id: f.title for f in after.findings}
    lines = [f"  + {t('chat.new_rules', lang)}: {now[r]}" for r in sorted(now.keys() - was.keys())]
    lines += [f"  − {t('chat.gone_rules', lang)}: {was[r]}" for r in sorted(was.keys() - now.keys())]
    return lines
