"""Issue 31's departures found at review, each read as an expert would check it: a batch without an
interactive peak factor or final answer, the shared prefix under DP attention, the memory section and the
agent section as one figure, the hit rate at the pick's replicas, the reload of offloaded KV on a hit."""

from __future__ import annotations

import pytest
import yaml

from expert.api import Expert
from expert.catalog import load_catalog
from expert.configurator.agent_demand import demand
from expert.report.render import render
from expert.inputs.workload import Workload

CATALOG = load_catalog()


def _example(name: str) -> dict:
    with open(f"examples/{name}.yaml") as f:
        return yaml.safe_load(f)


def test_a_batch_has_no_peak_factor_unless_stated():
    """3 000 CI tasks a day of 7.8 steps: 3 000 × 7.8 / 86 400 = 0.2708 steps/s on average; a batch nobody
    waits for is sized at that rate (factor 1), not at 3 × 0.2708 = 0.8125; stated, peak_to_average holds."""
    w = _example("agent-ci")
    model = CATALOG.resolve_model("qwen2.5-32b", None)
    d = demand(Workload.model_validate(w), model)
    assert d.peak_task_rate == pytest.approx(3000 / 86_400) == pytest.approx(d.average_task_rate)
    d2 = demand(Workload.model_validate({**w, "peak_to_average": 2.0}), model)
    assert d2.peak_task_rate == pytest.approx(2 * 3000 / 86_400)
    interactive = {**w, "agent": {**w["agent"], "batch": False}}
    assert demand(Workload.model_validate(interactive), model).peak_task_rate == pytest.approx(3 * 3000 / 86_400)


def test_the_ci_example_reads_as_a_batch():
    report = Expert().advise(_example("agent-ci"), sensitivity=False)
    c = report.capacity
    assert c.peak_rps == pytest.approx(3000 * 7.8 / 86_400, rel=1e-3) == pytest.approx(c.average_rps, rel=1e-3)
    assert c.peak_basis == "agent batch" and c.peak_factor == 1.0
    assert report.agent.batch and report.agent.final_step_latency_s is None
    text = render(report, "text")
    assert ", final answer " not in text and "no final answer anyone waits for" in text
    assert "first words (TTFT" not in text.split("Agent loop")[0]   # no streamed target nobody reads
    assert "complete answer within 60.00 s" in text                 # the internal step's target


def test_a_batch_with_a_final_answer_target_is_refused():
    with pytest.raises(ValueError, match="batch: true.*no final answer"):
        Workload.model_validate({"model": "qwen2.5-32b", "agent": {"batch": True, "final_latency_target_s": 5}})
