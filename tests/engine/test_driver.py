"""`driver.assert_direct` against durable's own path (`driver.assert_via_host`, which it replaces):
the same firings in the same order, the same findings and derived facts (key order included), in
both languages, on the facts of every advice and audit scenario and example, on the fixture packs,
and the same errors."""

from __future__ import annotations

import json

import pytest

from expert.api import Expert
from expert.engine import driver, evaluate, facade
from expert.errors import EngineError


def _both(monkeypatch, rules, facts, lang="en") -> tuple[str, str]:
    """The evaluation's JSON (key order kept) through the direct path, then through durable's."""
    direct = json.dumps(evaluate(rules, facts, lang=lang).as_dict(), ensure_ascii=False)
    with monkeypatch.context() as patch:
        patch.setattr(facade, "assert_direct", driver.assert_via_host)
        via_host = json.dumps(evaluate(rules, facts, lang=lang).as_dict(), ensure_ascii=False)
    return direct, via_host


def test_every_scenario_evaluates_the_same_through_durables_own_path(monkeypatch, scenario_inputs,
                                                                   record_evaluations) -> None:
    expert_ = Expert()
    for kind, data in scenario_inputs:   # every evaluation an advice or an audit makes, recorded
        getattr(expert_, kind)(data)
    evaluations = list(record_evaluations)
    assert len(evaluations) >= 150
    fired = 0
    for rules, facts in evaluations:
        for lang in ("en", "de"):
            direct, via_host = _both(monkeypatch, rules, facts, lang)
            assert direct == via_host, facts[0]
        fired += len(json.loads(direct)["fired"])
    assert fired > 1000


def test_fixture_packs_evaluate_the_same(monkeypatch, rulebase, twenty, audit_facts, healthy_facts) -> None:
    cases = [(twenty, audit_facts), (twenty, healthy_facts),
             (rulebase("negation"), [{"t": "item", "name": "a", "marked": True}, {"t": "item", "name": "b"}]),
             (rulebase("chain"), [{"t": "unrelated", "v": 1}, {"t": "input", "name": "n"}]),
             (rulebase("traps"), [{"t": "probe", "mode": "orphan", "name": "p1"}])]
    for rules, facts in cases:
        direct, via_host = _both(monkeypatch, rules, facts)
        assert direct == via_host


@pytest.mark.parametrize("facts", [[{"t": "probe", "mode": "orphan"}], [{"t": "probe", "mode": "explain"}]])
def test_an_action_error_is_the_same_error(monkeypatch, rulebase, facts) -> None:
    errors = []
    for path in (driver.assert_direct, driver.assert_via_host):
        monkeypatch.setattr(facade, "assert_direct", path)
        with pytest.raises(EngineError) as caught:
            evaluate(rulebase("traps"), facts)
        errors.append(str(caught.value))
    assert errors[0] == errors[1] and errors[0].startswith("rule '")
