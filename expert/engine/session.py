"""One evaluation's bookkeeping: facts asserted, rules fired, findings rendered, errors caught.

The engine calls `Session.fire` from inside a rule action. Everything a firing concludes is computed
here, in Python: the trace entry and the derived facts, which are asserted back into the engine so
that other rules can chain on them. Findings are rendered in `result()`, after the engine is done
(and outside the engine lock), in the session's language.

Facts form a set: a fact identical to one already present (input or derived) is not asserted again,
which also guarantees that chaining ends. Every asserted fact gets a serial `_n`, unique within the
session, so the engine never sees two identical facts (MessageObservedException); a rule that
matches the same facts twice (e.g. through two branches of an `any`) is recorded once.
"""

from __future__ import annotations

import json
from typing import Any, Callable

from durable.engine import MessageNotHandledException

from expert.engine.compiler import RuleBase
from expert.engine.results import Evaluation, Fact, Finding, FindingSource, Firing
from expert.engine.rulepack import Ref, Rule
from expert.engine.templates import TemplateError, lookup, render
from expert.errors import EngineError

SERIAL = "_n"
MAX_FIRINGS = 10_000
_KEY = json.JSONEncoder(sort_keys=True, ensure_ascii=False).encode  # json.dumps, minus an encoder per call


class Session:
    """The state of one evaluation on session id `sid` of ruleset `base.name`."""

    def __init__(self, base: RuleBase, sid: str, lang: str) -> None:
        self.base, self.sid, self.lang = base, sid, lang
        self._firings: list[tuple[str, dict, list[Fact], dict]] = []
        self.derived: list[Fact] = []
        self.error: EngineError | None = None
        self._known: set[str] = set()
        self._seen: set[tuple] = set()
        self._serial = 0

    def stamp(self, fact: Fact) -> Fact | None:
        """The engine payload for a new fact (sid and serial added), or None if already known."""
        key = _KEY(fact)
        if key in self._known:
            return None
        self._known.add(key)
        self._serial += 1
        return {**fact, SERIAL: self._serial, "sid": self.sid}

    def fire(self, rule_id: str, engine_facts: dict[str, Fact], assert_fact: Callable[[Fact], Any]) -> None:
        """Record the firing of `rule_id` on the facts the engine matched (by alias) and assert what it
        derives with `assert_fact` (the engine's, inside the action); an error becomes the session's
        `EngineError`, raised here and kept for `check`."""
        try:
            self._fire(rule_id, engine_facts, assert_fact)
        except Exception as exc:
            if self.error is None:
                self.error = EngineError(f"rule '{rule_id}' failed: {exc}")
                self.error.__cause__ = exc
            raise self.error  # durable's action loop catches it; the facade raises it again

    def _fire(self, rule_id: str, engine_facts: dict[str, Fact], assert_fact: Callable[[Fact], Any]) -> None:
        compiled = self.base.rules[rule_id]
        rule = compiled.rule
        matched: dict[str, Fact] = {}
        serials = []
        for key in compiled.keys:
            fact = engine_facts.get(key)
            if fact is not None:  # a dict of its own, decoded from the engine's message: trimmed in place
                serials.append((key, fact.pop(SERIAL)))
                fact.pop("sid", None)
                matched[key] = fact
        signature = (rule_id, tuple(serials))
        if signature in self._seen:
            return
        self._seen.add(signature)
        if len(self._firings) >= MAX_FIRINGS:
            raise EngineError(f"more than {MAX_FIRINGS} firings in one evaluation")
        values = {alias: matched[alias] for alias in compiled.aliases if alias in matched}
        derived = [{"t": d.fact, **{field: _value(values, v.ref) if isinstance(v, Ref) else v
                                     for field, v in d.set.items()}}
                   for d in rule.then.derive]
        self._firings.append((rule_id, matched, derived, values))
        for fact in derived:
            payload = self.stamp(fact)
            if payload is None:
                continue
            self.derived.append(fact)
            try:
                assert_fact(payload)
            except MessageNotHandledException:
                pass  # no rule tests this fact's values: nothing to chain on

    def result(self) -> Evaluation:
        """The finished evaluation; findings are rendered here, outside the engine lock. A rule with
        `then.join` reports one finding, at its first firing, for all of its firings (`_joined`)."""
        fired, groups = [], {}
        for n, (rule_id, matched, derived, values) in enumerate(self._firings):
            fired.append(Firing(rule_id=rule_id, matched=matched, derived=derived))
            rule = self.base.rules[rule_id].rule
            if rule.emits_finding:  # a dict keeps the first firing's place
                groups.setdefault(rule_id if rule.then.join else n, (rule_id, []))[1].append(values)
        findings = [self._render(rule_id, firings) for rule_id, firings in groups.values()]
        return Evaluation(lang=self.lang, fired=fired, findings=findings, derived=self.derived)

    def _render(self, rule_id: str, firings: list[dict[str, Fact]]) -> Finding:
        compiled = self.base.rules[rule_id]
        try:
            return _finding(compiled.rule, compiled.fact_paths, firings, self.lang)
        except (TemplateError, EngineError) as exc:
            raise EngineError(f"rule '{rule_id}' failed: {exc}") from exc


def _finding(rule: Rule, paths: tuple[str, ...], firings: list[dict[str, Fact]], lang: str) -> Finding:
    """The finding of one firing, or of all firings of a rule with `then.join` (`_joined`)."""
    values = _joined(firings, rule.then.join or [])
    source = FindingSource(document=rule.source.document,
                                           section=rule.source.section)
    return Finding(
        rule_id=rule.id, category=rule.category, severity=rule.severity,
        title=render(getattr(rule.title, lang), values, lang),
        explanation=render(getattr(rule.explanation, lang), values, lang),
        advice=render(getattr(rule.advice, lang), values, lang),
        source=source, facts={path: _value(values, path) for path in paths})


def _joined(firings: list[dict[str, Fact]], join: list[str]) -> dict[str, Fact]:
    """The values a finding renders: the first firing's, each joined path as the list of its distinct values
    in firing order (a template writes a list as 'a, b', each value in the session's language)."""
    values = firings[0]
    for path in join:
        alias, field = path.split(".", 1)
        found: list = []
        for value in (_value(v, path) for v in firings):
            if value not in found:  # values may be lists: no set
                found.append(value)
        values = {**values, alias: {**values[alias], field: found}}
    return values


def _value(values: dict[str, Fact], path: str) -> Any:
    try:
        return lookup(values, *path.split(".", 1))
    except KeyError:
        raise EngineError(f"no value for '{path}' in the matched facts") from None
