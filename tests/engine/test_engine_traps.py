"""Regression tests, one per durable-rules trap measured in docs/notes/durable-rules.md."""

from __future__ import annotations

import json
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from expert.engine import evaluate, load_packs, prepare
from expert.engine import facade
from expert.engine.loader import parse_pack
from expert.errors import EngineError, InputError


def inline(*rules: dict):
    """A RuleBase from rule dicts (title/texts/source filled in when absent)."""
    full = [{"title": {"en": "t", "de": "t"}, "category": "classification",
             "source": {"document": "000", "section": "s"},
             "explanation": {"en": "e", "de": "e"}, "advice": {"en": "a", "de": "a"}, **rule}
            for rule in rules]
    return prepare([parse_pack({"pack": "inline", "rules": full}, "inline")])


def test_trap_negation_not_cancelled_by_a_derivation_in_the_same_evaluation(rulebase) -> None:
    """Without phase gating, 'no flag x' fires before the rule deriving flag x has run."""
    base = rulebase("negation")
    marked = evaluate(base, [{"t": "item", "name": "a", "marked": True}])
    assert marked.derived == [{"t": "flag", "name": "x", "item": "a"}]
    assert "no-flag-x" not in marked.fired_ids()
    assert marked.fired_ids() == ["derive-flag-x", "no-flag-y", "only-negation"]

    plain = evaluate(base, [{"t": "item", "name": "a", "marked": False}])
    assert plain.fired_ids() == ["no-flag-x", "no-flag-y", "only-negation"]


def test_trap_negation_with_a_reference_is_checked_per_matched_fact(rulebase) -> None:
    result = evaluate(rulebase("negation"), [{"t": "item", "name": "a", "marked": True},
                                             {"t": "item", "name": "b"}])
    no_x = [f.matched["i"]["name"] for f in result.fired if f.rule_id == "no-flag-x"]
    assert no_x == ["b"]


def test_trap_identical_facts_asserted_twice_do_not_raise() -> None:
    """MessageObservedException: facts form a set; the duplicate is not asserted again."""
    base = inline({"id": "see-x", "when": [{"fact": "x", "as": "x"}]})
    result = evaluate(base, [{"t": "x", "v": 1}, {"t": "x", "v": 1}, {"t": "x", "v": 2}])
    assert [f.matched["x"]["v"] for f in result.fired] == [1, 2]


def test_trap_identical_derived_facts_do_not_raise_and_chain_once() -> None:
    base = inline(
        {"id": "from-a", "when": [{"fact": "a"}], "then": {"derive": [{"fact": "flag", "set": {"n": 1}}]}},
        {"id": "from-b", "when": [{"fact": "b"}], "then": {"derive": [{"fact": "flag", "set": {"n": 1}}]}},
        {"id": "use-flag", "when": [{"fact": "flag"}]},
    )
    result = evaluate(base, [{"t": "a"}, {"t": "b"}])
    assert result.fired_ids() == ["from-a", "use-flag", "from-b"]
    assert result.derived == [{"t": "flag", "n": 1}]


def test_trap_self_feeding_rule_terminates() -> None:
    base = inline({"id": "echo", "when": [{"fact": "f", "as": "f"}],
                   "then": {"derive": [{"fact": "f", "set": {"v": {"ref": "f.v"}}}]}})
    assert evaluate(base, [{"t": "f", "v": 1}]).fired_ids() == ["echo"]


def test_trap_key_id_would_collide_and_is_renamed_fact_id(rulebase) -> None:
    """Two facts with the same `id` are one identity to the engine; we rename `id` to `fact_id`."""
    result = evaluate(rulebase("traps"), [{"t": "gpu", "id": "h100", "price": 25000},
                                          {"t": "gpu", "id": "h100", "price": 30000}])
    assert [f.matched["g"] for f in result.fired] == [
        {"t": "gpu", "fact_id": "h100", "price": 25000},
        {"t": "gpu", "fact_id": "h100", "price": 30000}]
    assert [f.explanation for f in result.findings] == ["h100 at 25 000 CHF.", "h100 at 30 000 CHF."]


def test_trap_action_exception_surfaces_as_engine_error(rulebase) -> None:
    """The engine swallows exceptions inside actions; the facade raises them."""
    base = rulebase("traps")
    with pytest.raises(EngineError, match=r"rule 'derive-orphan' failed: no value for 'p.name'"):
        evaluate(base, [{"t": "probe", "mode": "orphan"}])  # the derivation needs p.name
    with pytest.raises(EngineError, match=r"rule 'needs-field' failed: no value for \{p.value\}"):
        evaluate(base, [{"t": "probe", "mode": "explain"}])  # the text needs p.value
    # the failed sessions were cleaned up: the same engine keeps working
    ok = evaluate(base, [{"t": "probe", "mode": "explain", "value": 1.25}])
    assert ok.findings[0].explanation == "Value 1.2."


def test_trap_aliases_named_like_durables_closure_attributes_read_their_facts() -> None:
    """An action reads its matched facts as attributes of durable's Closure, which has its own `s`
    (the session state), `m`, `host` and `post`: every engine alias is prefixed, so these aliases
    still give the facts they matched, cross-fact references included."""
    base = inline({"id": "closure-names",
                   "when": [{"fact": "state", "as": "s"}, {"fact": "msg", "as": "m"},
                            {"fact": "peer", "as": "host", "where": {"v": {"ref": "s.v"}}},
                            {"fact": "note", "as": "post"}],
                   "then": {"derive": [{"fact": "seen", "set": {"v": {"ref": "m.v"}}}]}})
    result = evaluate(base, [{"t": "state", "v": 1}, {"t": "msg", "v": 2},
                             {"t": "peer", "v": 1}, {"t": "peer", "v": 3}, {"t": "note", "v": 4}])
    assert [f.matched for f in result.fired] == [{"s": {"t": "state", "v": 1}, "m": {"t": "msg", "v": 2},
                                                   "host": {"t": "peer", "v": 1},
                                                   "post": {"t": "note", "v": 4}}]
    assert result.derived == [{"t": "seen", "v": 2}]


def test_trap_derived_kind_without_consumer_does_not_break(rulebase) -> None:
    """Asserting a fact no rule handles raises inside the action unless it is sunk."""
    result = evaluate(rulebase("traps"), [{"t": "probe", "mode": "orphan", "name": "p1"}])
    assert result.fired_ids() == ["derive-orphan"]
    assert result.derived == [{"t": "orphan", "of": "p1"}, {"t": "mark", "name": "unconsumed-value"}]


def test_trap_input_kind_no_rule_mentions_is_ignored(rulebase) -> None:
    result = evaluate(rulebase("chain"), [{"t": "unrelated", "v": 1}, {"t": "input", "name": "n"}])
    assert result.fired_ids() == ["chain-a", "chain-b", "chain-c"]


def test_trap_2000_sequential_evaluations_free_their_sessions(rulebase) -> None:
    """Without delete_state the 1,025th live session raises MemoryError."""
    base = rulebase("chain")
    for n in range(2000):
        result = evaluate(base, [{"t": "input", "name": f"job-{n}"}])
    assert result.fired[-1].derived == [{"t": "done", "from": "job-1999"}]


def test_trap_four_threads_give_the_sequential_results(twenty, audit_facts, healthy_facts) -> None:
    inputs = [audit_facts, healthy_facts] * 25

    def run(facts: list[dict]) -> str:
        return json.dumps(evaluate(twenty, facts).as_dict(), sort_keys=True)

    expected = [run(facts) for facts in inputs]

    def worker(_: int) -> list[str]:
        return [run(facts) for facts in inputs]

    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(worker, range(4)))
    assert results == [expected] * 4


def test_trap_one_engine_rulesets_created_once_actions_on_the_callers_thread(twenty, packs_dir: Path,
                                                                             audit_facts) -> None:
    evaluate(twenty, audit_facts)
    host = facade._engine()
    with_org = prepare(load_packs([packs_dir / "twenty", packs_dir / "chain"]))
    result = evaluate(with_org, audit_facts + [{"t": "input", "name": "org"}])
    assert [r for r in result.fired_ids() if r.startswith("chain-")] == [
        "chain-a", "chain-b", "chain-c"]
    evaluate(prepare(load_packs([packs_dir / "twenty"])), audit_facts)  # same name: reused
    assert facade._engine() is host
    assert {twenty.name, with_org.name} <= set(host.rulesets)
    # durable's Host runs timer threads; they dispatch only the rulesets in its own list, which ours are
    # not in: every action ran inside `evaluate`, on this thread, and nothing runs after it
    threads: list[int] = []
    real_action = host.get_action

    def spied_action(name: str):
        action = real_action(name)

        def spy(c) -> None:
            threads.append(threading.get_ident())
            action(c)

        return spy

    host.get_action = spied_action   # read once, when a ruleset is created
    try:
        spied = inline({"id": "thread-spy", "when": [{"fact": "input"}]})
        assert evaluate(spied, [{"t": "input", "name": "n"}]).fired_ids() == ["thread-spy"]
    finally:
        del host.get_action
    assert threads and set(threads) == {threading.get_ident()}   # the rule and the phase sink


def test_register_registers_a_base_with_its_parts_evaluate_only_the_base() -> None:
    # a part (`RuleBase.only`/`reachable`) is kept with its base; `register` (Expert.preload) registers
    # both at once, `evaluate` only the base it evaluates (an audit never pays for the advice's parts).
    # Rule ids of their own: ruleset names are content hashes, and the engine host lives per process.
    base = inline({"id": "register-test-workload", "when": [{"fact": "workload"}]},
                  {"id": "register-test-setup", "when": [{"fact": "setup"}]})
    part = base.reachable(["workload"])
    assert base.reachable(["workload"]) is part and list(base.parts.values()) == [part]
    evaluate(base, [{"t": "setup"}])
    host = facade._engine()
    assert base.name in host.rulesets and part.name not in host.rulesets
    assert facade.register(base) is base
    assert part.name in host.rulesets
    assert evaluate(part, [{"t": "workload"}]).fired_ids() == ["register-test-workload"]


# ------------------------------------------------------------ `not` over the kind a positive pattern holds
def _unchecked(*rules: dict):
    """A RuleBase built from rule models directly, past the loader's checks (to measure the engine)."""
    from expert.engine.rulepack import RulePack

    full = [{"title": {"en": "t", "de": "t"}, "category": "quantization",
             "source": {"document": "000", "section": "s"},
             "explanation": {"en": "e", "de": "e"}, "advice": {"en": "a", "de": "a"}, **rule}
            for rule in rules]
    return prepare([RulePack.model_validate({"pack": "raw", "rules": full})])


Q2_WORKLOAD = {"t": "workload", "precision": "int4"}


def test_trap_negation_over_the_positively_matched_fact_never_blocks() -> None:
    """Measured (the cause of issue 14's Q2 mis-firing): durable-rules hides the fact a positive pattern
    matched from the rule's `not`, so `setup s` + `not setup {validated: true}` fires on a validated
    setup too. Only *another* setup fact can block it."""
    raw = _unchecked({"id": "q2", "when": [{"fact": "workload", "where": {"precision": "int4"}},
                                            {"fact": "setup", "as": "s"},
                                            {"not": {"fact": "setup", "where": {"validated": True}}}]})
    assert evaluate(raw, [Q2_WORKLOAD, {"t": "setup", "gpu": "h100", "validated": True}]).fired_ids() == ["q2"]
    assert evaluate(raw, [Q2_WORKLOAD, {"t": "setup", "gpu": "h100", "validated": False}]).fired_ids() == ["q2"]


def test_loader_refuses_a_negation_the_engine_would_ignore() -> None:
    with pytest.raises(InputError, match="never blocks"):
        inline({"id": "q2", "when": [{"fact": "setup", "as": "s"},
                                     {"not": {"fact": "setup", "where": {"validated": True}}}]})


def test_negation_over_the_same_kind_with_disjoint_values_is_allowed_and_blocks() -> None:
    """`flag {name: a}` and `not flag {name: b}` can never be the same fact: allowed, and it works."""
    base = inline({"id": "a-without-b", "when": [{"fact": "flag", "where": {"name": "a"}},
                                                 {"not": {"fact": "flag", "where": {"name": "b"}}}]})
    assert evaluate(base, [{"t": "flag", "name": "a"}]).fired_ids() == ["a-without-b"]
    assert evaluate(base, [{"t": "flag", "name": "a"}, {"t": "flag", "name": "b"}]).fired_ids() == []


def test_q2_written_as_a_positive_any_respects_the_validation() -> None:
    """The fix of rules/optimisation.yaml: validated → silent; not validated or not said → fires."""
    base = inline({"id": "q2", "when": [
        {"fact": "workload", "where": {"precision": "int4"}},
        {"any": [{"fact": "setup", "as": "s", "where": {"validated": False}},
                 {"fact": "setup", "as": "s", "where": {"validated": {"exists": False}}}]}]})
    assert evaluate(base, [Q2_WORKLOAD, {"t": "setup", "gpu": "h100", "validated": True}]).fired_ids() == []
    assert evaluate(base, [Q2_WORKLOAD, {"t": "setup", "gpu": "h100", "validated": False}]).fired_ids() == ["q2"]
    assert evaluate(base, [Q2_WORKLOAD, {"t": "setup", "gpu": "h100"}]).fired_ids() == ["q2"]
