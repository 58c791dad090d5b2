"""The scenario `expect:` block (expert.testing.expectations): parsing, each check both ways, and
that every built-in scenario carries one."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from expert.errors import InputError
from expert.testing.expectations import check, parse_expectation

ROOT = Path(__file__).resolve().parents[2]
RULES = {"u1-conversational-inference-l40s", "m2-l40s-frequent-finetuning", "q4-have-sizing-validated"}
CATS = {"cost", "overprovisioning", "model-growth"}
OUTCOME = {  # the shape of expert.testing.snapshot.outcome_view
    "recommendation": {"gpu": "l40s", "count": 1},
    "findings": [{"rule_id": "q4-have-sizing-validated", "category": "cost", "severity": "info"},
                 {"rule_id": "m2-l40s-frequent-finetuning", "category": "model-growth", "severity": "warning"}],
    "fired_rules": [{"rule_id": "u1-conversational-inference-l40s"}, {"rule_id": "q4-have-sizing-validated"},
                    {"rule_id": "m2-l40s-frequent-finetuning"}],
}


def expect(kind: str = "workload", **data):
    return parse_expectation(data, "x.scenario.yaml", kind, RULES, CATS)


def test_expectations_that_hold_report_nothing():
    e = expect(fires=["u1-conversational-inference-l40s"], not_fires=[], gpu_family=["l40s"],
               count={"min": 1, "max": 1}, categories=["cost"], no_categories=["overprovisioning"],
               severity_at_most="warning")
    assert check(e, OUTCOME, "l40s") == []


def test_each_violated_line_is_named():
    e = expect(fires=["m2-l40s-frequent-finetuning"], not_fires=["q4-have-sizing-validated"], gpu_family=["h100"],
               count={"min": 2}, categories=["overprovisioning"], no_categories=["model-growth"],
               severity_at_most="info")
    problems = check(e, OUTCOME, "l40s")
    assert problems == [
        "expect.not_fires: 'q4-have-sizing-validated' fired",
        "expect.categories: no finding of category 'overprovisioning' (found: cost, model-growth)",
        "expect.no_categories: a finding of category 'model-growth' appeared (m2-l40s-frequent-finetuning)",
        "expect.severity_at_most: info, but m2-l40s-frequent-finetuning (warning)",
        "expect.gpu_family: recommended 1× l40s (family l40s), expected one of h100",
        "expect.count: recommended 1× l40s, expected a count in 2..∞",
    ]


def test_nothing_recommended_fails_count_and_family():
    e = expect(gpu_family=["a100"], count={"max": 4})
    problems = check(e, {**OUTCOME, "recommendation": None}, None)
    assert [p.split(":")[0] for p in problems] == ["expect.gpu_family", "expect.count"]


@pytest.mark.parametrize("data,path", [
    ({"fires": ["no-such-rule"]}, "expect.fires"),
    ({"categories": ["speed"]}, "expect.categories"),
    ({"gpu_family": ["h900"]}, "expect.gpu_family.0"),
    ({"count": {"least": 1}}, "expect.count.least"),
    ({"severity": "info"}, "expect.severity"),
    ({"fires": ["q4-have-sizing-validated"], "not_fires": ["q4-have-sizing-validated"]}, "expect"),
])
def test_bad_blocks_name_the_field(data, path):
    with pytest.raises(InputError) as error:
        expect(**data)
    assert error.value.path == path and error.value.file == "x.scenario.yaml"


def test_advice_only_keys_are_refused_for_audits():
    with pytest.raises(InputError, match="advice"):
        expect("setup", gpu_family=["l40s"])


def test_every_built_in_scenario_states_its_expectations():
    files = [*(ROOT / "tests" / "scenarios").glob("*.scenario.yaml"),
             *(ROOT / "examples" / "team-repo" / "scenarios").glob("*.scenario.yaml")]
    assert len(files) >= 80
    missing = [f.name for f in files if not yaml.safe_load(f.read_text(encoding="utf-8")).get("expect")]
    assert not missing, f"scenarios without an expect: block: {missing}"
