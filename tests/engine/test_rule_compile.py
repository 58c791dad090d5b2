"""Compiling rules to durable-rules: golden snapshot, condition grammar, gating, sinks, naming."""

from __future__ import annotations

from pathlib import Path

import pytest
from syrupy.extensions.json import JSONSnapshotExtension

from expert.engine import RuleBase, compile_packs, load_packs, ruleset_name
from expert.engine.compiler import compile_rule
from expert.engine.loader import parse_pack


@pytest.fixture
def snapshot_json(snapshot):
    """syrupy snapshot stored as a JSON file."""
    return snapshot.use_extension(JSONSnapshotExtension)


def rule_from(when: list, **extra) -> object:
    """A single valid rule with the given `when`, through the real loader."""
    rule = {"id": "r", "title": {"en": "t", "de": "t"}, "category": "operations",
            "source": {"document": "000", "section": "s"}, "when": when,
            "explanation": {"en": "e", "de": "e"}, "advice": {"en": "a", "de": "a"}, **extra}
    return parse_pack({"pack": "p", "rules": [rule]}, "test").rules[0]


def golden(compiled: dict) -> dict:
    """Snapshot form: the JSON extension sorts keys, so the rule order is kept as a list."""
    return {"order": list(compiled), "rules": compiled}


def test_golden_compiled_ruleset_of_the_twenty_rule_fixture(packs_dir: Path, snapshot_json) -> None:
    assert golden(compile_packs(load_packs([packs_dir / "twenty"]))) == snapshot_json


def test_golden_compiled_ruleset_of_the_negation_fixture(packs_dir: Path, snapshot_json) -> None:
    assert golden(compile_packs(load_packs([packs_dir / "negation"]))) == snapshot_json


def test_every_operator_compiles_to_the_engine_grammar() -> None:
    rule = rule_from([
        {"fact": "w", "as": "w"},
        {"fact": "s", "as": "s", "where": {
            "a": 1, "b": {"eq": {"ref": "w.b"}}, "c": {"ne": "x"}, "d": {"lt": 1, "gte": 0},
            "e": {"lte": {"ref": "w.e"}}, "f": {"gt": 2.5}, "g": {"in": ["x", "y"]},
            "h": {"in": ["only"]}, "i": {"exists": True}, "j": {"exists": False},
            "k": {"matches": "h100-.*"}, "l": {"contains": "iso27001"}, "m.n": True}},
    ])
    definition, keys = compile_rule(rule)
    assert keys == ("w", "s")
    assert definition["all"][1] == {"~s": {"$and": [  # engine aliases prefixed (compiler.engine_alias)
        {"t": "s"}, {"a": 1}, {"b": {"~w": "b"}}, {"$neq": {"c": "x"}},
        {"$lt": {"d": 1}}, {"$gte": {"d": 0}}, {"$lte": {"e": {"~w": "e"}}}, {"$gt": {"f": 2.5}},
        {"$or": [{"g": "x"}, {"g": "y"}]}, {"h": "only"}, {"$ex": {"i": 1}}, {"$nex": {"j": 1}},
        {"$mt": {"k": "h100-.*"}}, {"$iany": {"l": {"$i": "iso27001"}}}, {"m.n": True}]}}
    assert definition["run"] == "r" and "pri" not in definition


def test_negations_go_after_the_phase_gate_whatever_their_position() -> None:
    rule = rule_from([{"not": {"fact": "flag", "where": {"name": "x"}}},
                      {"fact": "item", "as": "i"},
                      {"not": {"fact": "flag", "where": {"item": {"ref": "i.name"}}}}],
                     priority=3)
    definition, _ = compile_rule(rule)
    assert definition == {"all": [
        {"~i": {"$and": [{"t": "item"}, {"$ex": {"name": 1}}]}},  # referenced field required
        {"_phase": {"$and": [{"t": "phase"}, {"name": "conclude"}]}},
        {"_not0$not": {"$and": [{"t": "flag"}, {"name": "x"}]}},
        {"_not2$not": {"$and": [{"t": "flag"}, {"item": {"~i": "name"}}]}},
    ], "pri": 3, "run": "r"}


def test_rules_without_negation_are_not_gated() -> None:
    definition, _ = compile_rule(rule_from([{"fact": "item"}]))
    assert definition == {"all": [{"~item": {"t": "item"}}], "run": "r"}


def test_unaliased_patterns_are_traced_under_their_kind() -> None:
    rule = rule_from([{"fact": "setup"}, {"fact": "setup", "where": {"a": 1}},
                      {"any": [{"fact": "flag"}, {"fact": "mark"}, {"fact": "flag", "where": {"b": 1}}]}])
    definition, keys = compile_rule(rule)
    assert keys == ("setup", "setup#2", "flag", "mark")
    assert definition["all"][2] == {"_any2$any": [
        {"~flag": {"t": "flag"}}, {"~mark": {"t": "mark"}},
        {"~flag": {"$and": [{"t": "flag"}, {"b": 1}]}}]}


def test_sinks_for_unconsumed_derived_kinds_and_phase(rulebase) -> None:
    definition = rulebase("traps").definition
    sinks = {name: rule for name, rule in definition.items() if name.startswith("_sink-")}
    # `mark` is consumed by a rule (values differ), `orphan` by none; `phase` always gets one
    assert sinks == {
        "_sink-orphan": {"all": [{"m": {"t": "orphan"}}], "run": "_sink"},
        "_sink-phase": {"all": [{"m": {"t": "phase"}}], "run": "_sink"},
    }


def test_ruleset_name_is_a_content_hash(packs_dir: Path, rulebase) -> None:
    twenty, chain = rulebase("twenty"), rulebase("chain")
    again = RuleBase.from_packs(load_packs([packs_dir / "twenty"]))
    both = RuleBase.from_packs(load_packs([packs_dir / "twenty", packs_dir / "chain"]))
    assert twenty.name == again.name == ruleset_name(dict(twenty.definition))
    assert len({twenty.name, chain.name, both.name}) == 3
    assert twenty.name.startswith("gpu-expert-")


def test_compiling_leaves_no_text_for_the_engine(rulebase) -> None:
    allowed = {"all", "any", "pri", "run"}
    for definition in rulebase("twenty").definition.values():
        assert set(definition) <= allowed


def test_regression_reference_to_missing_field_is_no_match_not_error_311() -> None:
    """durable fails a whole assert (error 311) when a `{ref: a.f}` points at a fact without `f`;
    the compiler requires the referenced field on the referenced pattern, so it is simply no match."""
    from expert.engine import evaluate, parse_pack

    pack = parse_pack({"pack": "p", "rules": [{
        "id": "slow", "title": {"en": "t", "de": "t"}, "category": "underprovisioning",
        "source": {"document": "000", "section": "s"},
        "when": [{"fact": "workload", "as": "w"},
                 {"fact": "setup", "as": "s", "where": {"latency_p95_s": {"gt": {"ref": "w.latency_target_s"}}}}],
        "explanation": {"en": "x", "de": "x"}, "advice": {"en": "x", "de": "x"}}]}, "inline.yaml")
    without = evaluate([pack], [{"t": "workload", "params_b": 8}, {"t": "setup", "latency_p95_s": 3.0}])
    assert without.fired_ids() == []
    with_target = evaluate([pack], [{"t": "workload", "latency_target_s": 2.0}, {"t": "setup", "latency_p95_s": 3.0}])
    assert with_target.fired_ids() == ["slow"]


def test_definition_json_is_the_definition_in_its_rule_order(rulebase) -> None:
    # registration parses the engine's copy from this text (facade.evaluate): it must be the same
    # data, rules in the same order (sinks last), and mutating the copy (the engine does) leaves
    # the compiled definition as it was
    import json

    base = rulebase("twenty")
    parsed = json.loads(base.definition_json)
    assert parsed == dict(base.definition)
    assert list(parsed) == list(base.definition)
    first = next(iter(parsed))
    parsed[first]["pri"] = -1
    assert base.definition[first].get("pri") != -1
