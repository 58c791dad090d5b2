"""`gpu-expert explain RULE_ID`: one rule in plain words — what it checks, concludes and cites."""

from __future__ import annotations

from expert.engine.rulepack import AnyOf, Not, Ref
from expert.messages import has, t, value_word

OPS = {"eq": "=", "ne": "≠", "lt": "<", "lte": "≤", "gt": ">", "gte": "≥", "in": "in"}
"""Operators written as symbols; the worded ones are `explain.op.*` in the catalog (German: `vorhanden`)."""


def _value(value) -> str:
    if isinstance(value, Ref):
        return f"{value.ref}"
    return str(value)


def _op(op: str, lang: str) -> str:
    return OPS.get(op) or (t(f"explain.op.{op}", lang) if has(f"explain.op.{op}") else op)


def _test(field: str, test, lang: str) -> str:
    if hasattr(test, "model_dump") and not isinstance(test, Ref):
        parts = []
        for op, value in test.model_dump(exclude_none=True).items():
            if isinstance(value, dict) and "ref" in value:
                value = value["ref"]
            elif isinstance(value, bool):      # `exists: false` → `vorhanden nein` / `exists no`
                value = value_word("bool", str(value).lower(), lang) or value
            parts.append(f"{field} {_op(op.rstrip('_'), lang)} {value}")
        return f" {t('explain.and', lang)} ".join(parts)
    return f"{field} = {_value(test)}"


def _pattern(pattern, lang: str) -> str:
    alias = getattr(pattern, "as_", None)
    tests = ", ".join(_test(field, test, lang) for field, test in pattern.where.items())
    head = f"{pattern.fact}" + (f" ({alias})" if alias else "")
    return f"{head}: {tests}" if tests else head


def unknown_rule(rule_id: str, known: list[str], lang: str = "en") -> str:
    """The one line for a rule id that is not known, in `lang`, with the close ids
    (`close_ids`: those that begin with it first), as the CLI's `explain` and the chat's `/explain`
    say it: "unknown rule 'm2-team'; similar: m2-team-time-against-gpu-saving, m2-team-time-not-counted
    (all rules: gpu-expert rules)"; "—" when none is close (QA 47 #14: never all the ids)."""
    from expert.close_ids import close_ids

    return t("explain.unknown", lang, rule=repr(rule_id), similar=", ".join(close_ids(rule_id, known)) or "—")


def explain_rule(rule, lang: str = "en") -> str:
    """The rule as readable text in `lang`."""
    def w(key: str) -> str:
        return t(f"explain.{key}", lang)

    lines = [f"{rule.id}: {getattr(rule.title, lang)}",
             f"  {w('category')} {value_word('category', rule.category, lang) or rule.category}, {w('severity')} {t(f'severity.word.{rule.severity}', lang)}",
             f"  {w('source')}: {rule.source.document}, {rule.source.section}"
             + (f" [{rule.source.claim}]" if getattr(rule.source, "claim", None) else "")
             + (f"; {rule.source.reference}" if getattr(rule.source, "reference", None) else ""),
             f"{w('when')}:"]
    for condition in rule.when:
        if isinstance(condition, Not):
            lines.append(f"  - {w('no')} {_pattern(condition.not_, lang)}")
        elif isinstance(condition, AnyOf):
            lines.append(f"  - {w('any')}: " + " | ".join(_pattern(p, lang) for p in condition.any))
        else:
            lines.append(f"  - {_pattern(condition, lang)}")
    for derive in rule.then.derive:
        values = ", ".join(f"{k}={_value(v)}" for k, v in derive.set.items())
        lines.append(f"{w('then')}: {derive.fact} {values}")
    if rule.emits_finding:
        lines.append(w("finding") + ".")
    lines += [f"{w('explanation')}: {getattr(rule.explanation, lang)}", f"{w('advice')}: {getattr(rule.advice, lang)}"]
    return "\n".join(lines)
