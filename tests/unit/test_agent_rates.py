"""An agent loop's rates are LLM steps per second, said so, never printed as "0.00 req/s" (issue 33 review,
item 3). The cause: an agent is sized as its per-step equivalent (configurator.agent_demand), whose rate
was labelled requests; a rate under 0.005 was written with two decimals; and an agent workload without a
volume was sized for no load, so its optimum's "saving" was invented."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

import expert
from expert.report.numbers import rate
from expert.report.render import render

ROOT = Path(__file__).resolve().parents[2]
CODING = {"model": "llama-3.1-8b", "agent": {"kind": "coding", "tasks_per_day": 2000}}


@pytest.mark.parametrize("value, en, de", [
    (0.0, "0.00", "0,00"), (0.0521, "0.05", "0,05"),
    (0.003255, "0.0033", "0,0033"),  # two significant digits below 0.005
    (0.00012, "0.00012", "0,00012"),
])
def test_a_positive_rate_is_never_written_as_zero(value, en, de):
    assert (rate(value, "en"), rate(value, "de")) == (en, de)


def test_an_agent_audit_states_its_capacity_in_llm_steps():
    # coding agent: 7.8 steps per task (TraceLab), fan-out 1; 2 000 tasks a day = 2 000 × 7.8 / 86 400
    # = 0.1806 steps/s on average, × the peak factor 3 = 0.5417 steps/s at the peak
    report = expert.audit({"gpu": "h100-sxm", "count": 2, "workload": CODING})
    c = report.capacity
    assert c.rate_unit == "steps/s"
    assert c.average_rps == pytest.approx(2000 * 7.8 / 86400, abs=1e-4)
    assert c.peak_rps == pytest.approx(3 * 2000 * 7.8 / 86400, abs=1e-4)
    text = render(report, "text")
    assert "- average 0.18 LLM steps/s, peak 0.54 LLM steps/s" in text and "req/s" not in text
    assert "at the peak of 0.54 LLM steps/s per replica" in text  # the optimum: one replica takes the peak
    assert report.audit.optimum.rate_unit == "steps/s"
    assert '"rate_unit": "steps/s"' in render(report, "json")
    assert "LLM-Schritte/s" in render(expert.audit({"gpu": "h100-sxm", "count": 2, "workload": CODING}, lang="de"),
                                      "text")


def test_an_agent_advice_writes_the_step_rate_of_many_replicas():
    # conversational agent, 500 tasks a day × 3 steps = 0.01736 steps/s, peak × 3 = 0.0521; spread over the
    # 16 replicas of the 16 × A100 alternative: 0.0521 / 16 = 0.00326 steps/s per replica, not "0.00"
    w = yaml.safe_load((ROOT / "tests" / "scenarios" /
                        "advise-agent-high-availability-onprem.scenario.yaml").read_text())["workload"]
    report = expert.advise(w)
    assert report.capacity.rate_unit == "steps/s"
    text = render(report, "text")
    assert "average 0.02 LLM steps/s, peak 0.05 LLM steps/s" in text
    assert "at the peak of 0.0033 LLM steps/s per replica" in text and "0.00 req/s" not in text


def test_a_plain_workload_keeps_requests():
    report = expert.advise({"model": "llama-3.1-8b", "requests_per_day": 20000})
    assert report.capacity.rate_unit is None and "rate_unit" not in render(report, "json")
    assert "req/s per replica" in render(report, "text")


def test_an_agent_audit_without_a_volume_states_no_saving():
    # the scenario's coding agent states no tasks_per_day, concurrent_users or requests: before, its optimum was
    # sized for no load (1 × L40S "at the peak of 0.00 req/s") and "saved 84 %"
    setup = yaml.safe_load((ROOT / "tests" / "scenarios" / "audit-agent-prefix-aware-healthy.scenario.yaml")
                           .read_text())["setup"]
    report = expert.audit(setup)
    a = report.audit
    assert a.optimum is None and a.saving_chf_month == 0 and a.reason is None
    assert a.summary.startswith("The workload states no load")
    text = render(report, "text")
    assert "0.00 req/s" not in text
    assert not {"m1-optimum-saves", "r4-optimum-cheaper"} & {f.rule_id for f in report.findings}
