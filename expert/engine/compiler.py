"""Compiling rule packs into a durable-rules ruleset (a plain dict), plus the metadata the facade needs.

Only conditions reach the engine: titles, texts, sources and derivations stay in Python (durable
rejects unknown keys, error 105). Each rule becomes `{"all": [...], "run": rule_id, "pri": n}` with
its patterns in this order: positive patterns and `any` groups as written, then, if the rule has a
`not`, the gate `{t: phase, name: conclude}`, then the negations. Negations placed before the gate
would be checked too early (see docs/notes/durable-rules.md, "Ordering and negation"); a leading
negation never fires at all. Derived kinds that no rule consumes, and `phase`, get a no-op sink rule
so asserting them never fails. The ruleset name is a hash of the compiled dict, so a different set of
packs becomes a different ruleset on the same engine host.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from expert.engine.checks import positive_aliases
from expert.engine.rulepack import AnyOf, Not, Ops, Ref, Rule, RulePack
from expert.engine.templates import placeholders

PHASE = "phase"
CONCLUDE = "conclude"
SINK_ACTION = "_sink"
ALIAS_PREFIX = "~"  # no attribute of durable's Closure starts with it (`engine_alias`)
_COMPARE = {"ne": "$neq", "lt": "$lt", "lte": "$lte", "gt": "$gt", "gte": "$gte"}


@dataclass(frozen=True)
class CompiledRule:
    """A rule with its trace keys (durable aliases of its positive patterns, in order)."""

    rule: Rule
    keys: tuple[str, ...]
    aliases: tuple[str, ...]
    fact_paths: tuple[str, ...]


@dataclass(frozen=True)
class RuleBase:
    """Packs compiled once: the durable ruleset `definition`, its `name`, and rules by id.

    `definition_json` is the definition's JSON text, written once when compiling (and kept in the
    compiled cache): registering with the engine parses a fresh copy from it (facade.evaluate).
    `parts` keeps the smaller bases made from it by `only` and `reachable` (pickled with it in the
    compiled cache; `facade.register` registers them with it)."""

    packs: tuple[RulePack, ...]
    rules: Mapping[str, CompiledRule]
    definition: Mapping[str, Any]
    name: str
    definition_json: str
    parts: dict[str, RuleBase] = field(default_factory=dict, compare=False, repr=False)

    @classmethod
    def from_packs(cls, packs: Sequence[RulePack]) -> RuleBase:
        """Compile `packs` (already validated and free of duplicate ids)."""
        rules: dict[str, CompiledRule] = {}
        definition: dict[str, Any] = {}
        for pack in packs:
            for rule in pack.rules:
                definition[rule.id], keys = compile_rule(rule)
                rules[rule.id] = CompiledRule(rule, keys, tuple(positive_aliases(rule)),
                                              _fact_paths(rule))
        definition.update(_sinks(packs))
        return cls(tuple(packs), rules, definition, ruleset_name(definition), json.dumps(definition))

    def only(self, pack: str) -> RuleBase:
        """The rule base of this base's packs named `pack`, from the rules it compiled already: equal to
        `from_packs` of those packs (a rule compiles alone; the sinks are recomputed for them). Made
        once per base and kept in `parts`."""
        hit = self.parts.get(pack)
        if hit is None:
            hit = self.parts[pack] = self._only(pack)
        return hit

    def _only(self, pack: str) -> RuleBase:
        packs = tuple(p for p in self.packs if p.pack == pack)
        return self._subset(packs, [rule.id for p in packs for rule in p.rules])

    def reachable(self, kinds: Iterable[str]) -> RuleBase:
        """The rules that can fire when only facts of `kinds` are asserted: a rule whose positive
        patterns (one branch of each `any`) all match a kind given or derived by a rule kept, until
        nothing changes. The others can never fire on such facts, and they neither derive a fact nor
        take a place in the agenda, so the rules kept fire exactly as in the whole base, on less
        engine work (the advice asserts no `setup`: 105 of 167 built-in rules). Kept in `parts`."""
        key = "reachable:" + ",".join(sorted(set(kinds)))
        hit = self.parts.get(key)
        if hit is None:
            hit = self.parts[key] = self._reachable(set(kinds) | {PHASE})
        return hit

    def _reachable(self, available: set[str]) -> RuleBase:
        needs = {rid: [{p.fact for p in c.any} if isinstance(c, AnyOf) else {c.fact}
                       for c in compiled.rule.when if not isinstance(c, Not)]
                 for rid, compiled in self.rules.items()}
        kept: set[str] = set()
        grown = True
        while grown:
            grown = False
            for rid, groups in needs.items():
                if rid not in kept and all(group & available for group in groups):
                    kept.add(rid)
                    available.update(d.fact for d in self.rules[rid].rule.then.derive)
                    grown = True
        packs = tuple(p.model_copy(update={"rules": [r for r in p.rules if r.id in kept]}) for p in self.packs)
        packs = tuple(p for p in packs if p.rules)
        return self._subset(packs, [rule.id for p in packs for rule in p.rules])

    def _subset(self, packs: tuple[RulePack, ...], ids: list[str]) -> RuleBase:
        """The base of `packs` (rules `ids`, in this base's order) from the rules compiled already:
        equal to `from_packs(packs)` (a rule compiles alone; the sinks are recomputed for them)."""
        definition: dict[str, Any] = {i: self.definition[i] for i in ids}
        definition.update(_sinks(packs))
        return RuleBase(packs, {i: self.rules[i] for i in ids}, definition, ruleset_name(definition),
                        json.dumps(definition))


def compile_packs(packs: Sequence[RulePack]) -> dict[str, Any]:
    """The durable-rules ruleset dict (rule id → definition) of `packs`, sinks included."""
    return dict(RuleBase.from_packs(packs).definition)


def engine_alias(key: str) -> str:
    """The durable alias of a pattern's trace key. An action reads its matched facts as attributes of
    durable's `Closure` (`c.<alias>`), whose own attributes (`s`, `m`, `host`, `post`, …) would shadow
    aliases of those names: prefixed, no alias can."""
    return ALIAS_PREFIX + key


def ruleset_name(definition: Mapping[str, Any]) -> str:
    """A content hash of a compiled ruleset: equal definitions share one engine ruleset."""
    text = json.dumps(definition, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return "gpu-expert-" + hashlib.sha256(text.encode()).hexdigest()[:16]


def compile_rule(rule: Rule) -> tuple[dict[str, Any], tuple[str, ...]]:
    """One rule's durable definition and the trace keys of its positive patterns."""
    used = set(positive_aliases(rule))
    needed = _referenced_fields(rule)
    positives: list[dict[str, Any]] = []
    negations: list[dict[str, Any]] = []
    keys: list[str] = []
    for i, cond in enumerate(rule.when):
        if isinstance(cond, Not):
            negations.append({f"_not{i}$not": _pattern(cond.not_.fact, cond.not_.where)})
        elif isinstance(cond, AnyOf):
            branches, group_keys = [], {}  # unaliased branches of one kind share a key
            for branch in cond.any:
                key = branch.as_ or group_keys.get(branch.fact) or _key_for(branch.fact, used)
                group_keys[branch.fact] = key
                if key not in keys:
                    keys.append(key)
                branches.append({engine_alias(key): _pattern(branch.fact, branch.where, needed.get(branch.as_, ()))})
            positives.append({f"_any{i}$any": branches})
        else:
            key = cond.as_ or _key_for(cond.fact, used)
            keys.append(key)
            positives.append({engine_alias(key): _pattern(cond.fact, cond.where, needed.get(cond.as_, ()))})
    if negations:
        positives.append({"_phase": {"$and": [{"t": PHASE}, {"name": CONCLUDE}]}})
    definition: dict[str, Any] = {"all": positives + negations}
    if rule.priority is not None:
        definition["pri"] = rule.priority
    definition["run"] = rule.id
    return definition, tuple(keys)


def _key_for(kind: str, used: set[str]) -> str:
    """Trace key of an unaliased pattern: its kind, or `kind#2`, `kind#3`… when taken."""
    key, n = kind, 1
    while key in used:
        n += 1
        key = f"{kind}#{n}"
    used.add(key)
    return key


def _pattern(kind: str, where: Mapping[str, Any], required: Sequence[str] = ()) -> dict[str, Any]:
    tests: list[dict[str, Any]] = [{"t": kind}]
    for field, test in where.items():
        tests.extend(_tests(field, test))
    # measured: a cross-fact reference to a field the other fact lacks makes durable fail the whole
    # assert (error 311); requiring the field on the referenced pattern turns that into "no match"
    tests.extend({"$ex": {field: 1}} for field in required if field not in where)
    return tests[0] if len(tests) == 1 else {"$and": tests}


def _referenced_fields(rule: Rule) -> dict[str, list[str]]:
    """alias → fields other patterns of the rule reference with `{ref: alias.field}`."""
    found: dict[str, list[str]] = {}
    patterns = []
    for cond in rule.when:
        if isinstance(cond, Not):
            patterns.append(cond.not_)
        elif isinstance(cond, AnyOf):
            patterns.extend(cond.any)
        else:
            patterns.append(cond)
    for pattern in patterns:
        for test in pattern.where.values():
            values = [test] if not isinstance(test, Ops) else [
                getattr(test, name) for name in ("eq", *_COMPARE) if getattr(test, name, None) is not None]
            for value in values:
                if isinstance(value, Ref):
                    alias, field = value.ref.split(".", 1)
                    found.setdefault(alias, [])
                    if field not in found[alias]:
                        found[alias].append(field)
    return found


def _tests(field: str, test: Any) -> list[dict[str, Any]]:
    if not isinstance(test, Ops):
        return [{field: _operand(test)}]
    out: list[dict[str, Any]] = []
    if test.eq is not None:
        out.append({field: _operand(test.eq)})
    for op, engine_op in _COMPARE.items():
        value = getattr(test, op)
        if value is not None:
            out.append({engine_op: {field: _operand(value)}})
    if test.in_ is not None:
        choices = [{field: value} for value in test.in_]
        out.append(choices[0] if len(choices) == 1 else {"$or": choices})
    if test.exists is not None:
        out.append({"$ex" if test.exists else "$nex": {field: 1}})
    if test.matches is not None:
        out.append({"$mt": {field: test.matches}})
    if test.contains is not None:
        out.append({"$iany": {field: {"$i": test.contains}}})
    return out


def _operand(value: Any) -> Any:
    if isinstance(value, Ref):
        alias, field = value.ref.split(".", 1)
        return {engine_alias(alias): field}
    return value


def _fact_paths(rule: Rule) -> tuple[str, ...]:
    if rule.facts is not None:
        return tuple(rule.facts)
    paths: list[str] = []
    for text in (rule.explanation.en, rule.advice.en):
        for placeholder in placeholders(text):
            if placeholder.path not in paths:
                paths.append(placeholder.path)
    return tuple(paths)


def _sinks(packs: Sequence[RulePack]) -> dict[str, Any]:
    consumed: set[str] = set()
    derived: set[str] = {PHASE}
    for pack in packs:
        for rule in pack.rules:
            for cond in rule.when:
                patterns = cond.any if isinstance(cond, AnyOf) else [
                    cond.not_ if isinstance(cond, Not) else cond]
                consumed.update(p.fact for p in patterns)
            derived.update(d.fact for d in rule.then.derive)
    sinks = sorted((derived - consumed) | {PHASE})
    return {f"_sink-{kind}": {"all": [{"m": {"t": kind}}], "run": SINK_ACTION} for kind in sinks}

