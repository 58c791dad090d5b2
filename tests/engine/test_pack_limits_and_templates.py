"""Issue 34: a rule pack that `validate` accepts never fails at `advise`. Before, each pack below was
accepted by `validate` and then failed on every advice (exit 3), hung, or let a pack fake the program's
own `choice` fact; now each is refused at load with the field path (exit 2)."""

from __future__ import annotations

import pytest
import yaml

from expert.cli.main import main


def _rule(rule_id: str, **changes) -> dict:
    rule = {"id": rule_id, "title": {"en": "t", "de": "t"}, "category": "cost", "severity": "info",
            "source": {"document": "000", "section": "x"}, "when": [{"fact": "choice", "as": "c"}],
            "explanation": {"en": "{c.gpu}", "de": "{c.gpu}"}, "advice": {"en": "a", "de": "a"}}
    return {**rule, **changes}


CASES = {
    "no-field": ([_rule("r", explanation={"en": "{c.no_such_field}", "de": "x"})],
                 "fact 'choice' has no field 'no_such_field'"),
    "descend": ([_rule("r", explanation={"en": "{c.gpu.upper}", "de": "x"})], "'gpu' is a string, it has no fields"),
    "filter": ([_rule("r", explanation={"en": "{c.gpu|chf}", "de": "x"})], "the filter takes a number"),
    "derive-choice": ([_rule("r", then={"derive": [{"fact": "choice", "set": {"gpu": "b200"}}]})],
                      "derives a 'choice' fact, which only the program asserts"),
    "any-500": ([_rule("r", when=[{"any": [{"fact": "workload", "as": "w", "where": {"params_b": {"gt": i}}}
                                           for i in range(500)]}], explanation={"en": "x", "de": "x"})],
                "too many entries (500): the engine's limit is 32"),
    # QA 46 nit: the unknown field's full path (before: "field rules[0].when")
    "where-field": ([_rule("r", when=[{"fact": "choice", "as": "c"},
                                      {"fact": "workload", "as": "w", "where": {"param_b": {"lt": 13}}}])],
                    "field rules[0].when[1].where.param_b: rule 'r': fact 'workload' has no field 'param_b'"),
    "where-field-any": ([_rule("r", when=[{"fact": "choice", "as": "c"}, {"any": [
        {"fact": "workload", "as": "w", "where": {"params_b": {"lt": 13}}},
        {"fact": "workload", "as": "w", "where": {"param_b": {"lt": 13}}}]}])],
        "field rules[0].when[1].any[1].where.param_b: rule 'r'"),
    "where-field-not": ([_rule("r", when=[{"fact": "choice", "as": "c"},
                                          {"not": {"fact": "workload", "where": {"param_b": {"lt": 13}}}}])],
                        "field rules[0].when[1].not.where.param_b: rule 'r'"),
    "rules-300": ([_rule(f"r-{i}") for i in range(300)], "too many entries (300): the engine's limit is 200"),
}


@pytest.mark.parametrize("name", list(CASES))
def test_validate_refuses_what_advise_would_fail_on(tmp_path, capsys, name):
    rules, message = CASES[name]
    (tmp_path / "rules").mkdir()
    pack = tmp_path / "rules" / "org.yaml"
    pack.write_text(yaml.safe_dump({"pack": "org", "description": "d", "rules": rules}))
    assert main(["validate", str(pack)]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.splitlines()) == 1, err
    (tmp_path / "w.yaml").write_text("model: llama-3.1-8b\nrequests_per_day: 100\n")
    assert main(["advise", str(tmp_path / "w.yaml"), "--rules-dir", str(tmp_path / "rules")]) == 2
    assert message in capsys.readouterr().err


def test_sound_pack_with_number_filter_is_accepted(tmp_path, capsys):
    (tmp_path / "rules").mkdir()
    pack = tmp_path / "rules" / "org.yaml"
    pack.write_text(yaml.safe_dump({"pack": "org", "description": "d", "rules": [
        _rule("r", explanation={"en": "{c.count|int} × {c.gpu}", "de": "x"})]}))
    assert main(["validate", str(pack)]) == 0, capsys.readouterr().err


def test_pattern_over_a_kind_nothing_asserts(tmp_path, capsys):
    """Before: accepted, and the rule could never fire (`choise` for `choice`)."""
    (tmp_path / "rules").mkdir()
    pack = tmp_path / "rules" / "org.yaml"
    pack.write_text(yaml.safe_dump({"pack": "org", "description": "d", "rules": [
        _rule("r", when=[{"fact": "choise", "as": "c"}], explanation={"en": "x", "de": "x"})]}))
    assert main(["validate", str(pack)]) == 2
    assert "matches 'choise' facts, which no input and no rule asserts" in capsys.readouterr().err
    (tmp_path / "w.yaml").write_text("model: llama-3.1-8b\nrequests_per_day: 100\n")
    assert main(["advise", str(tmp_path / "w.yaml"), "--rules-dir", str(tmp_path / "rules")]) == 2
    assert "field rules[0].when[0]: rule 'r' matches 'choise'" in capsys.readouterr().err


def test_kind_derived_by_the_same_pack_is_known(tmp_path, capsys):
    (tmp_path / "rules").mkdir()
    pack = tmp_path / "rules" / "org.yaml"
    pack.write_text(yaml.safe_dump({"pack": "org", "description": "d", "rules": [
        _rule("a", then={"derive": [{"fact": "org_flag", "set": {"name": "x"}}]}, category="classification"),
        _rule("b", when=[{"fact": "org_flag", "as": "f"}], explanation={"en": "x", "de": "x"})]}))
    assert main(["validate", str(pack)]) == 0, capsys.readouterr().err
