"""The only door to durable-rules: one engine host per process, one fresh session per evaluation.

Measured traps this module defends against (docs/notes/durable-rules.md):
- one `Host` per process (each would start timer threads; ruleset names cannot be re-registered):
  a lazy singleton; each distinct set of packs is registered once under its content-hash name, from
  a deep copy (registration mutates the dict; parsed from its JSON text, kept with the rule base);
- live sessions are never freed by the engine (the 1,025th raises MemoryError): every evaluation
  uses a fresh sid and deletes its state in `finally`;
- durable's own action loop swallows actions' exceptions into the session state: the facts are
  asserted and the actions run by `driver.assert_direct` (the same engine calls without durable's
  Python layer), which raises an action's error as the session's `EngineError`;
- batched asserts run actions later on a timer thread: facts are asserted one at a time; the host's
  background dispatch threads are not started at all, so every action runs inside the assert call;
- identical facts raise MessageObservedException and a key named `id` is the engine's identity:
  facts are deduplicated, carry a serial `_n`, and an input `id` becomes `fact_id`;
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

from durable.engine import Host

from expert.engine.compiler import CONCLUDE, PHASE, SINK_ACTION, RuleBase
from expert.engine.driver import assert_direct
from expert.engine.results import Evaluation, Fact
from expert.engine.rulepack import RulePack
from expert.engine.session import SERIAL, Session
from expert.errors import EngineError, InputError

LANGS = ("en", "de")
_KIND = re.compile(r"^[a-z][a-z0-9_]*$")
_LOCK = threading.Lock()
_SIDS = itertools.count(1)
_HOST: _EngineHost | None = None


class _EngineHost(Host):
    """durable's Host with actions resolved by rule id and no background dispatch threads."""

    def __init__(self) -> None:
        self.session: Session | None = None
        self.registered: set[str] = set()
        super().__init__()

    def _run(self) -> None:
        """Start no timer threads: we never batch, post events or use timers (see module doc)."""

    def get_action(self, action_name: str) -> Any:
        """A tracing wrapper that hands each firing of rule `action_name` to the live session (durable's
        own path, `driver.assert_via_host`; `driver.assert_direct` resolves actions itself)."""
        if action_name == SINK_ACTION:
            return _sink

        def action(c: Any) -> None:  # exactly one parameter: durable inspects the arity
            if self.session is None:
                raise EngineError(f"rule '{action_name}' fired outside an evaluation")
            self.session.fire(action_name, c._m, c.assert_fact)

        return action


def _sink(c: Any) -> None:
    """No-op action of the sink rules."""


def _host() -> _EngineHost:
    global _HOST
    if _HOST is None:
        _HOST = _EngineHost()
    return _HOST


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
        host = _host()
        if base.name not in host.registered:
            _register(host, [base])
        session = Session(base, f"s{next(_SIDS)}", lang)
        host.session = session
        try:
            for fact in inputs + [{"t": PHASE, "name": CONCLUDE}]:
                payload = session.stamp(fact)
                if payload is None:
                    continue
                try:
                    assert_direct(host, base, session, payload)
                except EngineError:
                    raise
                except Exception as exc:
                    raise EngineError(f"the rule engine failed on {fact['t']!r}: {exc}") from exc
        finally:
            host.session = None
            _delete_state(host, base.name, session.sid)
    return session.result()


def register(rules: RuleBase | Sequence[RulePack]) -> RuleBase:
    """Register a rule base and the smaller bases made from it (`RuleBase.parts`: the documents' pick,
    the rules an advice can fire) with the engine host now, so that no evaluation pays for it
    (`Expert.preload`). `evaluate` registers only the base it evaluates, on first use."""
    base = prepare(rules)
    with _LOCK:
        _register(_host(), [base, *base.parts.values()])
    return base


def _register(host: _EngineHost, bases: list[RuleBase]) -> None:
    """Register the bases not registered yet, in one call."""
    todo = {b.name: b for b in bases if b.name not in host.registered}
    if not todo:
        return
    try:
        # a fresh copy parsed from the definition's JSON text, written when it was compiled:
        # ten times faster than copy.deepcopy on 126 rules, and no json.dumps per process
        host.register_rulesets({name: json.loads(b.definition_json) for name, b in todo.items()})
    except Exception as exc:
        raise EngineError(f"the rule engine refused the rule packs: {exc}") from exc
    host.registered.update(todo)


def _delete_state(host: _EngineHost, name: str, sid: str) -> None:
    """Free the session's engine state; error 309 means no fact was ever stored for it."""
    try:
        host.delete_state(name, sid)
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
