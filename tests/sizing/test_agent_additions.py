"""Issue 31 items 4 and 7 and the additions (expert/sizing/agent_loop.py): reasoning kept or stripped by the
chat template, a step's reuse of its cache as a share (round-robin over R replicas, retention time),
the p95 of a Poisson session count, fan-out and the internal/final step targets. Figures by hand."""

from __future__ import annotations

import pytest

from expert.catalog import load_catalog
from expert.configurator.agent_demand import demand, equivalent
from expert.inputs.agent_block import AgentLoop
from expert.inputs.workload import Workload
from expert.sizing import agent_loop as loop

CATALOG = load_catalog()
SMALL = {"system_tokens": 1000, "task_tokens": 500, "appended_tokens": 200, "output_tokens": 100,
         "steps_mean": 3, "steps_p90": 3}


def _shape(reuse: bool | float = True, **fields):
    agent = AgentLoop.model_validate({**SMALL, **fields}).resolved()
    return loop.loop_shape(agent, 3, 1_000_000, reuse)


def test_reasoning_kept_grows_the_context_by_it():
    # kept (Qwen3, gpt-oss within a tool loop): I = 1 500, 1 500 + 300 + 100 + 200 = 2 100, 2 700 → Σ 6 300;
    # prefilled 500 + 200 + 200 = 900 → hit 1 − 900 / 6 300 = 0.857143; held Σ (I + 300 + 100) = 7 500
    s = _shape(reasoning_tokens=300)
    assert (s.total_input, s.total_uncached, s.total_held) == (6300, 900, 7500)
    assert s.hit_rate == pytest.approx(0.857143, abs=1e-6)
    assert s.max_context == 2700 + 400


def test_reasoning_stripped_prefills_the_previous_output_again():
    # stripped (DeepSeek-R1): I = 1 500, 1 800, 2 100 → Σ 5 400; the cache holds reasoning before the output,
    # so later steps prefill output + appended = 300: 500 + 300 + 300 = 1 100 → hit 1 − 1 100 / 5 400 = 0.796296
    s = _shape(reasoning_tokens=300, reasoning_in_context="stripped")
    assert (s.total_input, s.total_uncached, s.total_held) == (5400, 1100, 6600)
    assert s.hit_rate == pytest.approx(0.796296, abs=1e-6)
    # without reasoning tokens nothing is stripped: the output is a cached prefix (900 prefilled)
    assert _shape(reasoning_in_context="stripped").total_uncached == 900


def test_round_robin_hits_one_in_r():
    # no reuse: later steps prefill all but the system prompt: 500 + 800 + 1 100 = 2 400; reuse: 900
    # 4 replicas in turn: 0.25 × 900 + 0.75 × 2 400 = 2 025 → hit 1 − 2 025 / 5 400 = 0.625
    assert loop.routed_share(False, 4) == 0.25 and loop.routed_share(False, 1) == 1.0
    assert loop.routed_share(True, 8) == 1.0
    assert _shape(False).total_uncached == 2400
    s = _shape(loop.routed_share(False, 4))
    assert s.total_uncached == pytest.approx(2025) and s.hit_rate == pytest.approx(0.625)


def test_retention_shorter_than_the_tool_wait_loses_hits():
    # exponential waits of mean 16.8 s, retention 10 s: 1 − exp(−10 / 16.8) = 1 − 0.551431 = 0.448569
    assert loop.retained_share(16.8, 10) == pytest.approx(0.448569, abs=1e-6)
    assert loop.retained_share(16.8, None) == 1.0
    # 5-minute provider TTL (Anthropic's default) over 16.8 s waits: 1 − exp(−17.86) ≈ 1 − 1.8e-8
    assert loop.retained_share(16.8, 300) == pytest.approx(1.0, abs=1e-7)


def test_poisson_p95_of_sessions():
    # m + 1.6449 √m: 15 → 15 + 6.3707 = 21.371 (+42 %), 20 → 20 + 7.3562 = 27.356 (+37 %), the issue's +40 %
    assert loop.poisson_p95(15) == pytest.approx(21.3707, abs=1e-3)
    assert loop.poisson_p95(20) == pytest.approx(27.3562, abs=1e-3)
    assert loop.poisson_p95(0) == 0.0


def _coding(**agent):
    return Workload.model_validate({"model": "qwen2.5-32b", "precision": "fp8",
                                    "agent": {"kind": "coding", "tasks_per_day": 2000, **agent}})


def test_fan_out_multiplies_steps_and_held_sessions_not_tasks():
    model = CATALOG.model("qwen2.5-32b")
    w = _coding(fan_out=3)
    d = demand(w, model)
    # 3 sub-agents per task: steps/s = 2 000 / 86 400 × 3 × 7.8 = 0.541667; held = 0.069444 × 3 × 7.8 × 16.8
    # = 27.3 sessions; the task rate stays 2 000 / 86 400 = 0.0231481
    assert equivalent(w, d).requests_per_second == pytest.approx(0.5416667, abs=1e-7)
    assert d.held_peak == pytest.approx(27.3)
    assert d.average_task_rate == pytest.approx(0.0231481, abs=1e-7)


def test_internal_steps_complete_and_the_final_answer_first_words():
    model = CATALOG.model("qwen2.5-32b")
    # internal steps (tool calls no one reads) must be complete within 8 s; the final answer streams, so
    # its 3 s is the first words (TTFT); the step workload is no longer read as streamed
    w = _coding(step_latency_target_s=8, final_latency_target_s=3)
    eq = equivalent(w, demand(w, model))
    assert (eq.latency_target_s, eq.ttft_target_s, eq.streaming) == (8, 3, False)
    # a 300 s task leaves (300 − 7.8 × 16.8) / 7.8 = 21.66 s per step; the internal 8 s is tighter
    d = demand(_coding(step_latency_target_s=30, task_latency_target_s=300), model)
    assert d.internal_target_s == pytest.approx(21.661538, abs=1e-6) and d.final_target_s is None
    # answers consumed whole: the final answer's 3 s is a complete step, the tighter of the two
    unstreamed = Workload.model_validate({**w.model_dump(exclude_none=True), "streaming": False})
    eq = equivalent(unstreamed, demand(unstreamed, model))
    assert (eq.latency_target_s, eq.ttft_target_s) == (3, None)
    # without the new targets nothing changes: the task's share is the workload's per-step target
    w = _coding(task_latency_target_s=300)
    assert equivalent(w, demand(w, model)).latency_target_s == pytest.approx(21.661538, abs=1e-6)
