"""The rules an advice evaluates (`RuleBase.reachable`, issue 21): only the rules its input kinds can
reach, which fire exactly as in the whole base — checked on a small pack by hand, on the built-in
packs' structure, and on the facts of every advice scenario and example (findings, firings and
derived facts in both languages)."""

from __future__ import annotations

import pytest

from expert.api import Expert
from expert.engine import evaluate, parse_pack, prepare
from expert.engine.compiler import RuleBase
from expert.engine.rulepack import AnyOf, Not
from expert.engine.rule_base import rule_base
from expert.facts.vocabulary import ADVICE_KINDS


def inline(*rules: dict) -> RuleBase:
    full = [{"title": {"en": "t", "de": "t"}, "category": "classification",
             "source": {"document": "000", "section": "s"},
             "explanation": {"en": "e", "de": "e"}, "advice": {"en": "a", "de": "a"}, **rule}
            for rule in rules]
    return prepare([parse_pack({"pack": "inline", "rules": full}, "inline")])


def test_reachable_follows_derivations_any_branches_and_ignores_negations():
    base = inline(
        {"id": "a-derives-b", "when": [{"fact": "workload"}], "then": {"derive": [{"fact": "flag", "set": {"name": "b"}}]}},
        {"id": "needs-b", "when": [{"fact": "flag", "where": {"name": "b"}}]},
        {"id": "needs-setup", "when": [{"fact": "setup"}]},
        {"id": "setup-derives-c", "when": [{"fact": "setup"}], "then": {"derive": [{"fact": "tier", "set": {"name": "c"}}]}},
        {"id": "needs-c", "when": [{"fact": "workload"}, {"fact": "tier"}]},
        {"id": "any-branch", "when": [{"any": [{"fact": "setup", "as": "x"}, {"fact": "workload", "as": "x"}]}]},
        {"id": "not-setup", "when": [{"fact": "workload"}, {"not": {"fact": "setup"}}]})
    part = base.reachable(["workload"])
    assert list(part.rules) == ["a-derives-b", "needs-b", "any-branch", "not-setup"]
    assert base.reachable(["workload"]) is part                     # kept with the base
    assert part == RuleBase.from_packs(part.packs)                  # as if those rules were compiled alone
    facts = [{"t": "workload", "params_b": 8}]
    assert evaluate(part, facts).as_dict() == evaluate(base, facts).as_dict()
    assert evaluate(part, facts).fired_ids() == ["a-derives-b", "needs-b", "any-branch", "not-setup"]


def test_the_advice_base_leaves_out_only_rules_that_need_a_setup():
    base = rule_base()
    part = base.reachable(ADVICE_KINDS)
    assert part == RuleBase.from_packs(part.packs)
    left_out = [r for r in base.rules if r not in part.rules]
    assert left_out and len(part.rules) + len(left_out) == len(base.rules)
    available = set(ADVICE_KINDS) | {"phase"} | {d.fact for c in part.rules.values() for d in c.rule.then.derive}
    for rule_id in left_out:
        groups = [{p.fact for p in c.any} if isinstance(c, AnyOf) else {c.fact}
                  for c in base.rules[rule_id].rule.when if not isinstance(c, Not)]
        assert any(not (g & available) for g in groups), rule_id
        assert any("setup" in g for g in groups) or any(
            g <= {d.fact for r in left_out for d in base.rules[r].rule.then.derive} for g in groups), rule_id


def test_every_advice_fires_the_same_on_the_reachable_rules(scenario_inputs, record_evaluations):
    expert_ = Expert()
    part, base = rule_base().reachable(ADVICE_KINDS), rule_base()
    checked = 0
    for workload in (data for kind, data in scenario_inputs if kind == "advise"):
        record_evaluations.clear()
        expert_.advise(workload, sensitivity=False)
        used = [(rules, facts) for rules, facts in record_evaluations if rules.name == part.name]
        assert len(used) == 1, workload
        facts = used[0][1]
        for lang in ("en", "de"):
            assert evaluate(part, facts, lang=lang).as_dict() == evaluate(base, facts, lang=lang).as_dict()
        checked += 1
    assert checked >= 45


@pytest.mark.parametrize("kind", ["setup", "unknown_kind"])
def test_a_fact_of_another_kind_is_evaluated_on_the_whole_base(kind):
    from expert.flows.advice import _advice_rules

    base = rule_base()
    assert _advice_rules(base, [{"t": "workload"}, {"t": "sizing"}]) is base.reachable(ADVICE_KINDS)
    assert _advice_rules(base, [{"t": "workload"}, {"t": kind}]) is base
