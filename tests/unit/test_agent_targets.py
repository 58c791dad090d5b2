"""An agent's latency targets as the search uses them, with the agent's field as their source (issue 31
leftovers): the report's "Latency targets" section, an audit's check, the step labels of a choice line,
and an agent line without a target."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

import expert
from expert.report.render import render

ROOT = Path(__file__).resolve().parents[2]


def _example(name: str) -> dict:
    return yaml.safe_load((ROOT / "examples" / name).read_text())


def test_handoff_targets_are_the_agents_final_and_step_targets():
    # examples/agent-handoff.yaml: final_latency_target_s 2 (streamed: the customer reads first words),
    # step_latency_target_s 15 (each specialist's internal step, complete). Before, the section showed
    # the default 2 s TTFT "for a streamed answer" and a 150 ms TPOT the search never checked.
    slo = expert.advise(_example("agent-handoff.yaml")).slo
    assert (slo.ttft_target_s, slo.e2e_target_s, slo.tpot_target_ms) == (2.0, 15.0, None)
    assert slo.sources["ttft"].startswith("agent: final_latency_target_s")
    assert slo.sources["e2e"].startswith("agent: step_latency_target_s")


def test_task_target_share_bounds_each_complete_step():
    # a task target of 600 s, 7.8 steps of the coding shape with 16.8 s of tools each:
    # (600 − 7.8 × 16.8) / 7.8 = 60.12 s for each complete step (the task waits for every last token)
    w = {"model": "qwen2.5-32b", "precision": "fp8",
         "agent": {"kind": "coding", "tasks_per_day": 2000, "task_latency_target_s": 600}}
    slo = expert.advise(w).slo
    assert slo.e2e_target_s == pytest.approx((600 - 7.8 * 16.8) / 7.8, abs=0.01)
    assert slo.ttft_target_s is None and slo.streaming is False
    assert "(600 s − 7.8 × 16.8 s of tools) / 7.8 steps = 60.12 s" in slo.sources["e2e"]


def test_audit_checks_an_agent_against_the_same_targets_as_the_advice():
    w = _example("agent-handoff.yaml")
    advice = expert.advise(w)
    report = expert.audit({"gpu": "l40s", "count": 1, "workload": w})
    assert report.slo == advice.slo
    # its capacity line names the agent's basis: tasks per day × steps, not a daily request volume
    assert report.capacity.peak_basis == "agent tasks × peak_to_average"


def test_agent_choice_line_states_step_figures_and_a_missing_target():
    # examples/agent-ci.yaml is a batch: no first words anyone reads; the figures are one LLM step's
    text = render(expert.advise(_example("agent-ci.yaml")), "text")
    assert "a step's first token" in text and "step complete" in text and "first words" not in text
    # the closed loop states only a final target: its internal step has none (was "(target –)")
    text = render(expert.advise(_example("agent-closed-loop.yaml")), "text")
    assert "complete (no target given), final answer" in text and "(target 5.00 s)" in text
