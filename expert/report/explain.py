"""`gpu-expert explain RULE_ID`: one rule in plain words — what it checks, concludes and cites."""

from __future__ import annotations

from expert.engine.rulepack import AnyOf, Not, Ref
from expert.messages import t, value_word

OPS = {"eq": "=", "ne": "≠", "lt": "<", "lte": "≤", "gt": ">", "gte": "≥", "in": "in", "exists": "exists",
       "matches": "matches", "contains": "contains"}


def _value(value) -> str:
    if isinstance(value, Ref):
        return f"{value.ref}"
    return str(value)


def _test(field: str, test) -> str:
    if hasattr(test, "model_dump") and not isinstance(test, Ref):
        parts = []
        for op, value in test.model_dump(exclude_none=True).items():
            if isinstance(value, dict) and "ref" in value:
                value = value["ref"]
            op = op.rstrip("_")
            parts.append(f"{field} {OPS.get(op, op)} {value}")
        return " and ".join(parts)
    return f"{field} = {_value(test)}"


def _pattern(pattern) -> str:
    alias = getattr(pattern, "as_", None)
    tests = ", ".join(_test(field, test) for field, test in pattern.where.items())
    head = f"{pattern.fact}" + (f" ({alias})" if alias else "")
    return f"{head}: {tests}" if tests else head


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
            lines.append(f"  - {w('no')} {_pattern(condition.not_)}")
        elif isinstance(condition, AnyOf):
            lines.append(f"  - {w('any')}: " + " | ".join(_pattern(p) for p in condition.any))
        else:
            lines.append(f"  - {_pattern(condition)}")
    for derive in rule.then.derive:
        values = ", ".join(f"{k}={_value(v)}" for k, v in derive.set.items())
        lines.append(f"{w('then')}: {derive.fact} {values}")
    if rule.emits_finding:
        lines.append(w("finding") + ".")
    lines += [f"{w('explanation')}: {getattr(rule.explanation, lang)}", f"{w('advice')}: {getattr(rule.advice, lang)}"]
    return "\n".join(lines)
