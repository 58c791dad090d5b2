"""The only door to durable-rules: one engine per process, one fresh session per evaluation.

Only durable's public API is used (its `Host.get_action` hook, `Ruleset.create_rulesets`,
`Ruleset.assert_fact`, `Ruleset.do_actions`, `Ruleset.delete_state`, the `Closure` an action gets), so
that the engine can be upgraded or replaced behind this module alone. Measured traps it defends
against (docs/notes/durable-rules.md):
- one `Host` per process (each starts two timer threads): a lazy singleton. Our rulesets are created
  from it but never registered in its own list, so its timer threads find nothing to dispatch and
  every action runs inside the call that asserted its fact, on the caller's thread;
- each distinct set of packs is created once under its content-hash name, from a fresh copy of its
  definition (creating a ruleset mutates the dict; parsed from its JSON text, kept with the rule base);
- live sessions are never freed by the engine (the 1,025th raises MemoryError): every evaluation
  uses a fresh sid and deletes its state in `finally`;
- actions' exceptions are swallowed by durable's action loop: they are collected from its completion
  callback and raised as the session's `EngineError`;
- batched asserts run actions later on a timer thread: facts are asserted one at a time;
- identical facts raise MessageObservedException and a key named `id` is the engine's identity:
  facts are deduplicated, carry a serial `_n`, and an input `id` becomes `fact_id`;
- an action reads its matched facts as attributes of its `Closure`, whose own attributes (`s`, `m`,
  `host`, …) would shadow aliases of those names: the compiler prefixes every engine alias
  (`compiler.engine_alias`);
- concurrent use of the engine is unsafe: one module lock serialises every evaluation.
"""

from __future__ import annotations

import itertools
import json
import math
import re
import threading
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from durable.engine import Host, MessageNotHandledException, Ruleset

from expert.engine.compiler import CONCLUDE, PHASE, SINK_ACTION, RuleBase, engine_alias
from expert.engine.results import Evaluation, Fact
from expert.engine.rulepack import RulePack
from expert.engine.session import SERIAL, Session
from expert.errors import EngineError, InputError

LANGS = ("en", "de")
_KIND = re.compile(r"^[a-z][a-z0-9_]*$")
_LOCK = threading.Lock()
_SIDS = itertools.count(1)
_ENGINE: _Engine | None = None


class _Engine(Host):
    """durable's Host, resolving each rule's action by rule id, with the rulesets created from it."""

    def __init__(self) -> None:
        self.session: Session | None = None
        self.rulesets: dict[str, Ruleset] = {}
        super().__init__()

    def get_action(self, action_name: str) -> Any:
        """A tracing wrapper that hands each firing of rule `action_name` to the live session."""
        if action_name == SINK_ACTION:
            return _sink

        def action(c: Any) -> None:  # exactly one parameter: durable inspects the arity
            session = self.session
            if session is None:
                raise EngineError(f"rule '{action_name}' fired outside an evaluation")
            matched = {}
            for key in session.base.rules[action_name].keys:
                content = getattr(c, engine_alias(key))
                if content is not None:
                    matched[key] = dict(content.items())
            session.fire(action_name, matched, c.assert_fact)

        return action

    def run_fact(self, ruleset: Ruleset, session: Session, payload: dict) -> None:
        """Assert one fact and run every action it triggers (and their derived facts' actions) now;
        raise the session's error if an action failed."""
        try:
            state = ruleset.assert_fact(payload)
        except MessageNotHandledException:
            return  # no rule tests this fact: it cannot contribute
        failures: list[Any] = []
        ruleset.do_actions(state, lambda error, _state: failures.append(error) if error else None)
        if session.error is not None:
            raise session.error
        if failures:
            raise EngineError(f"a rule action failed: {failures[0]}")


def _sink(c: Any) -> None:
    """No-op action of the sink rules."""


def _engine() -> _Engine:
    global _ENGINE
    if _ENGINE is None:
        _ENGINE = _Engine()
    return _ENGINE


def prepare(rules: RuleBase | Sequence[RulePack]) -> RuleBase:
    """Compile packs into a RuleBase (do it once and reuse it: compiling costs more than evaluating)."""
    return rules if isinstance(rules, RuleBase) else RuleBase.from_packs(list(rules))


def evaluate(rules: RuleBase | Sequence[RulePack], facts: Iterable[Mapping[str, Any]], *,
             lang: str = "en") -> Evaluation:
    """Run the rules over `facts`; return firings in order, findings in `lang`, derived facts.

    Every fact needs `t` (its kind). A key `id` is renamed `fact_id`; keys set to None are dropped
    (null means absent). Inputs are asserted one at a time, chaining runs, then the phase fact
    `{t: phase, name: conclude}` releases the rules that contain a `not`.
    """
    if lang not in LANGS:
        raise InputError(f"unknown language '{lang}'", allowed=", ".join(LANGS))
    base = prepare(rules)
    inputs = [_normalise(fact, index) for index, fact in enumerate(facts)]
    with _LOCK:
        engine = _engine()
        if base.name not in engine.rulesets:
            _register(engine, [base])
        ruleset = engine.rulesets[base.name]
        session = Session(base, f"s{next(_SIDS)}", lang)
        engine.session = session
        try:
            for fact in inputs + [{"t": PHASE, "name": CONCLUDE}]:
                payload = session.stamp(fact)
                if payload is None:
                    continue
                try:
                    engine.run_fact(ruleset, session, payload)
                except EngineError:
                    raise
                except Exception as exc:
                    raise EngineError(f"the rule engine failed on {fact['t']!r}: {exc}") from exc
        finally:
            engine.session = None
            _delete_state(ruleset, session.sid)
    return session.result()


def register(rules: RuleBase | Sequence[RulePack]) -> RuleBase:
    """Register a rule base and the smaller bases made from it (`RuleBase.parts`: the documents' pick,
    the rules an advice can fire) with the engine host now, so that no evaluation pays for it
    (`Expert.preload`). `evaluate` registers only the base it evaluates, on first use."""
    base = prepare(rules)
    with _LOCK:
        _register(_engine(), [base, *base.parts.values()])
    return base


def _register(engine: _Engine, bases: list[RuleBase]) -> None:
    """Create the engine rulesets of the bases that have none yet, in one call."""
    todo = {b.name: b for b in bases if b.name not in engine.rulesets}
    if not todo:
        return
    try:
        # a fresh copy parsed from the definition's JSON text, written when it was compiled:
        # ten times faster than copy.deepcopy on 126 rules, and no json.dumps per process
        engine.rulesets.update(Ruleset.create_rulesets(
            engine, {name: json.loads(b.definition_json) for name, b in todo.items()}))
    except Exception as exc:
        raise EngineError(f"the rule engine refused the rule packs: {exc}") from exc


def _delete_state(ruleset: Ruleset, sid: str) -> None:
    """Free the session's engine state; error 309 means no fact was ever stored for it."""
    try:
        ruleset.delete_state(sid)
    except Exception as exc:  # durable_rules_engine.error
        if "309" not in str(exc):
            raise EngineError(f"could not free engine session {sid}: {exc}") from exc


def _normalise(fact: Mapping[str, Any], index: int) -> Fact:
    if not isinstance(fact, Mapping):
        raise EngineError(f"fact #{index + 1} is not a mapping: {fact!r}")
    kind = fact.get("t")
    if not isinstance(kind, str) or not _KIND.match(kind) or kind == PHASE:
        raise EngineError(f"fact #{index + 1} needs a kind 't' of lowercase letters, digits "
                          f"and underscores (not '{PHASE}'), got {kind!r}")
    out = {key: value for key, value in fact.items() if value is not None}
    if "id" in out:
        if "fact_id" in out:
            raise EngineError(f"fact #{index + 1} has both 'id' and 'fact_id'")
        out["fact_id"] = out.pop("id")
    for reserved in ("sid", SERIAL):
        if reserved in out:
            raise EngineError(f"fact #{index + 1} uses the reserved key '{reserved}'")
    if all(type(key) is str and _is_plain(value) for key, value in out.items()):
        return out  # what the JSON round trip below would give back, without the trip
    try:
        return json.loads(json.dumps(out, allow_nan=False, ensure_ascii=False))
    except (TypeError, ValueError) as exc:
        raise EngineError(f"fact #{index + 1} is not plain JSON data: {exc}") from None


def _is_plain(value: Any) -> bool:
    """Text, a bool, an int or a finite float (exactly those types): JSON gives it back unchanged."""
    kind = type(value)
    return kind is str or kind is int or kind is bool or (kind is float and math.isfinite(value))
