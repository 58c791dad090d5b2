"""Checks of a rule that span fields, run after the pydantic models have validated its shape.

Aliases must be defined before a `{ref: alias.field}` uses them and be unique; every placeholder and
every `facts` entry must name an alias that a positive pattern defines; reserved field names and fact
kinds are refused; `matches` must be a valid regular expression; a `not` may not test facts that a
positive pattern of the same rule can match (the engine never shows a negation a fact that the rule's
positive patterns already hold, so such a `not` silently ignores it — measured in
tests/engine/test_engine_traps.py); a `not` over the same kind is fine where a field's required
values keep the two apart (`flag {name: a}` and `not flag {name: b}`). The first problem is raised as a
`RuleProblem` carrying the location inside the rule, so the loader can name the field.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from expert.engine.rulepack import AnyOf, Not, Ops, Pattern, Ref, Rule
from expert.engine.templates import TemplateError, placeholders

RESERVED_FIELDS = {
    "t": "the fact kind is written as 'fact:', not as a field",
    "sid": "'sid' is the engine's session id",
    "id": "'id' is the engine's identity key; facts carry their id as 'fact_id'",
}
RESERVED_KINDS = {"phase": "'phase' facts are asserted by the engine itself (negation gating)"}
TEXTS = ("title", "explanation", "advice")


class RuleProblem(ValueError):
    """A problem inside one rule: `loc` is the path from the rule, `reason` says what is wrong."""

    def __init__(self, loc: tuple, reason: str, allowed: str | None = None) -> None:
        super().__init__(reason)
        self.loc, self.reason, self.allowed = loc, reason, allowed


def positive_aliases(rule: Rule) -> list[str]:
    """The aliases a rule's positive patterns define, in `when` order."""
    out: list[str] = []
    for cond in rule.when:
        alias = cond.as_ if isinstance(cond, Pattern) else (
            cond.any[0].as_ if isinstance(cond, AnyOf) else None)
        if alias is not None:
            out.append(alias)
    return out


def check_rule(rule: Rule) -> None:
    """Raise RuleProblem for the first cross-field problem of `rule`; return None if it is sound."""
    defined: list[str] = []
    positives = [p for cond in rule.when if not isinstance(cond, Not)
                 for p in (cond.any if isinstance(cond, AnyOf) else [cond])]
    for i, cond in enumerate(rule.when):
        loc = ("when", i)
        if isinstance(cond, Not):
            _check_pattern(cond.not_.fact, cond.not_.where, defined, loc + ("not",))
            if any(p.fact == cond.not_.fact and not _disjoint(p, cond.not_) for p in positives):
                raise RuleProblem(loc + ("not", "fact"), f"a 'not' over '{cond.not_.fact}' facts in a rule that "
                                  f"also matches a '{cond.not_.fact}' fact never blocks: the engine does not "
                                  "show the negation the fact already matched",
                                  allowed="test the field on the positive pattern instead "
                                  "(e.g. {ne: true}, or an 'any' with {exists: false})")
            continue
        branches = cond.any if isinstance(cond, AnyOf) else [cond]
        if len({p.as_ for p in branches}) > 1:
            raise RuleProblem(loc + ("any",), "all patterns of an 'any' must use the same 'as'")
        for j, pattern in enumerate(branches):
            at = loc + ("any", j) if isinstance(cond, AnyOf) else loc
            _check_pattern(pattern.fact, pattern.where, defined, at, own=pattern.as_)
        alias = branches[0].as_
        if alias is not None:
            if alias in defined:
                raise RuleProblem(loc + ("as",), f"alias '{alias}' is defined twice")
            defined.append(alias)
    for k, derive in enumerate(rule.then.derive):
        at = ("then", "derive", k)
        _check_kind(derive.fact, at + ("fact",))
        for field, value in derive.set.items():
            _check_field(field, at + ("set", field))
            if isinstance(value, Ref):
                _check_alias(value.ref, defined, at + ("set", field, "ref"), "defined in 'when'")
    for name in TEXTS:
        for lang in ("en", "de"):
            text = getattr(getattr(rule, name), lang)
            try:
                found = placeholders(text)
            except TemplateError as exc:
                raise RuleProblem((name, lang), str(exc)) from None
            for placeholder in found:
                _check_alias(placeholder.path, defined, (name, lang), "defined in 'when'",
                             what=f"placeholder {{{placeholder.path}}}")
    for k, path in enumerate(rule.facts or []):
        _check_alias(path, defined, ("facts", k), "defined in 'when'")
    for k, path in enumerate(rule.then.join or []):
        _check_alias(path, defined, ("then", "join", k), "defined in 'when'")
        if "." in path.split(".", 1)[1]:
            raise RuleProblem(("then", "join", k), f"'{path}' is a nested field; 'join' lists a fact's own fields",
                              allowed="alias.field")
    if rule.then.join and not rule.emits_finding:
        raise RuleProblem(("then", "join"), "'join' merges the rule's findings, but this rule reports none",
                          allowed="remove 'join', or set 'finding: true'")


def _values(test: object) -> set | None:
    """The values a field test admits, where it names them (a bare value, `eq`, `in`)."""
    if isinstance(test, Ops):
        if test.eq is not None and not isinstance(test.eq, Ref):
            return {test.eq}
        return set(test.in_) if test.in_ is not None else None
    return None if isinstance(test, Ref) else {test}


def _disjoint(one: Pattern, other: Pattern) -> bool:
    """Whether no fact can match both patterns: some field admits different named values in each."""
    for field, test in one.where.items():
        if field in other.where:
            a, b = _values(test), _values(other.where[field])
            if a is not None and b is not None and not a & b:
                return True
    return False


def _check_pattern(kind: str, where: dict, defined: list[str], loc: tuple,
                   own: str | None = None) -> None:
    _check_kind(kind, loc + ("fact",))
    for field, test in where.items():
        at = loc + ("where", field)
        _check_field(field, at)
        for op, ref in _refs(test):
            ref_loc = at + ((op,) if op else ()) + ("ref",)
            if own is not None and ref.ref.split(".")[0] == own:
                raise RuleProblem(ref_loc, f"'{ref.ref}' refers to the pattern's own alias: the "
                                  "engine cannot compare two fields of one fact (let the sizing "
                                  "core compute the comparison as a field)")
            _check_alias(ref.ref, defined, ref_loc, "defined earlier in 'when'")
        if isinstance(test, Ops) and test.matches is not None:
            try:
                re.compile(test.matches)
            except re.error as exc:
                raise RuleProblem(at + ("matches",), f"invalid regular expression: {exc}") from None


def _refs(test: object) -> Iterator[tuple[str | None, Ref]]:
    if isinstance(test, Ref):
        yield None, test
    elif isinstance(test, Ops):
        for op in ("eq", "ne", "lt", "lte", "gt", "gte"):
            value = getattr(test, op)
            if isinstance(value, Ref):
                yield op, value


def _check_kind(kind: str, loc: tuple) -> None:
    if kind in RESERVED_KINDS:
        raise RuleProblem(loc, f"fact kind '{kind}' is reserved: {RESERVED_KINDS[kind]}")


def _check_field(field: str, loc: tuple) -> None:
    head = field.split(".")[0]
    if head in RESERVED_FIELDS:
        raise RuleProblem(loc, f"field '{field}' is reserved: {RESERVED_FIELDS[head]}")


def _check_alias(path: str, defined: list[str], loc: tuple, where: str, what: str = "") -> None:
    alias = path.split(".")[0]
    if alias not in defined:
        subject = what or f"'{path}'"
        raise RuleProblem(loc, f"{subject} names alias '{alias}', which is not {where}",
                          allowed=", ".join(defined) or "no alias is defined")
