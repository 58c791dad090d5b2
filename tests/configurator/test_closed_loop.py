"""A closed loop of users (issue 31, item 1): each user starts a task, waits for it and thinks, so the
loop runs at X = N / (R + Z) with R the task's time in the system (steps × (step + tool)) and Z the
think time — a fixed point, since the step latency depends on the configuration. Sessions in service,
X × R = N × R / (R + Z), never exceed the users. Before, the cycle left the model's own time out
(X = N / (steps × tool + Z)), an upper bound that counted more sessions than users."""

from __future__ import annotations

import pytest

from expert.api import Expert

CODING = {"model": "qwen2.5-32b", "precision": "fp8"}   # coding agent: 7.8 steps, 16.8 s of tools per step


def _advise(users: int):
    w = {**CODING, "agent": {"kind": "coding", "concurrent_users": users, "think_time_s": 5}}
    report = Expert().advise(w, sensitivity=False)
    return report.recommendation, report.agent.model_dump()


@pytest.mark.parametrize("users", [20, 100])
def test_the_loop_runs_at_its_fixed_point_and_never_has_more_sessions_than_users(users):
    rec, f = _advise(users)
    r = f["steps_mean"] * (f["step_latency_s"] + f["tool_time_s"])        # the task's time in the system
    assert (f["steps_mean"], f["tool_time_s"]) == (7.8, 16.8)
    assert f["peak_tasks_per_s"] == pytest.approx(users / (r + 5), rel=2e-3)   # X = N / (R + Z)
    assert f["sessions_peak"] == pytest.approx(users * r / (r + 5), rel=2e-3)
    assert f["sessions_peak"] < users


def test_100_users_by_hand():
    """100 users: the old bound X = 100 / (7.8 × 16.8 + 5) = 0.7351 tasks/s with a 4.43 s step holds
    0.7351 × 7.8 × (4.43 + 16.8) = 121.7 sessions — more than the users. The step is the pick's as the
    configurator computes it (2× B300, 4.43 s; not derived here); from it, by hand:
    X = 100 / (7.8 × (4.4324 + 16.8) + 5) = 100 / 170.61 = 0.5861 tasks/s and 0.5861 × 7.8 × 21.23 = 97.1
    sessions. Before QA 45 #11 the answer was 4× H200 (431 971 CHF) sized at the 0.609 tasks/s that 2× B200's
    step makes, while its own 7.47 s step makes 0.515: the pick's own fixed point is now solved, and 2× B300
    (371 269 CHF) carries its own 0.586 tasks/s; 2× B200 (319 508 CHF) serves no point at its own rate."""
    rec, f = _advise(100)
    assert (rec.gpu, rec.count) == ("b300", 2)
    assert f["step_latency_s"] == pytest.approx(4.43, abs=0.05)
    assert f["peak_tasks_per_s"] == pytest.approx(0.5861, abs=0.005)
    assert f["sessions_peak"] == pytest.approx(97.1, abs=1.0)
    assert f["peak_tasks_per_s"] < 100 / (7.8 * 16.8 + 5)


def test_a_pick_always_carries_the_load_its_own_step_makes():
    """500 users: the picks alternate (a fast 16× B200 at the rate of the slower one's step, a slower 32×
    H200 at the rate of the faster one's); the answer is one that carries the rate its own step makes."""
    rec, f = _advise(500)
    r = f["steps_mean"] * (f["step_latency_s"] + f["tool_time_s"])
    assert f["sessions_peak"] < 500
    assert f["peak_tasks_per_s"] == pytest.approx(500 / (r + 5), rel=2e-3)
    assert rec.fits


def test_the_sentence_states_users_and_cycle_not_a_daily_volume():
    """Issue 31 departure 1: the closed loop's sentence said "13,133 requests per day" (the fixed-point
    rate × 86 400 / the default peak factor 3), a volume nobody gave. It states the users and their cycle:
    examples/agent-closed-loop.yaml (100 users, 60 s think) settles at R = 155.9 s on 2× B200 (the task time
    the configurator computes, not derived here), so by hand the cycle is 155.9 + 60 = 215.9 s and
    X = 100 / 215.9 = 0.463 tasks per second."""
    import yaml
    with open("examples/agent-closed-loop.yaml") as f:
        report = Expert().advise(yaml.safe_load(f), sensitivity=False)
    text = report.clarification
    assert "requests per day" not in text
    assert ("serves 100 users who wait for their tasks (a cycle of 215.9 s: a task 155.9 s and 60 s of "
            "thought, 0.463 tasks per second)") in text
    assert report.agent.task_latency_s == pytest.approx(155.9, abs=0.05)


def test_the_chat_sentence_of_a_closed_loop_names_users_and_pause():
    """Before the advice knows the task time, the sentence says the users and their pause (German too)."""
    from expert.interview import render_sentence
    w = {"model": "qwen2.5-32b", "agent": {"kind": "coding", "concurrent_users": 40, "think_time_s": 120}}
    assert "serves 40 users who wait for their tasks (120 s of thought between tasks)" in render_sentence(w)
    assert "bedient 40 Personen, die auf ihre Aufgaben warten (120 s Bedenkzeit" in render_sentence(w, "de")
    assert "[Y]" not in render_sentence(w)


def test_the_kv_residency_finding_states_the_rate_the_offloaded_pick_serves():
    """QA 47 #8: agent-kv-residency-bound said "3 × h100-nvl would compute the same steps", but one h100-nvl
    replica serves 1.03 steps/s at D3's 70 %, and 3 × 1.03 = 3.09 < the pick's 3.61 steps/s. With the idle
    sessions' KV in CPU memory the reloads lengthen each task (155.9 → 203.4 s), so the 100 users settle at
    X = 100 / (203.4 + 60) = 0.380 tasks/s × 7.8 steps = 2.96 steps/s; at 2× B200 X = 0.463 × 7.8 = 3.61.
    The saving 8 875 − 3 × 2 085 = 2 621 CHF a month stays."""
    import yaml
    with open("examples/agent-closed-loop.yaml") as f:
        report = Expert().advise(yaml.safe_load(f), sensitivity=False)
    assert report.agent.offload_count == 3 and report.agent.offload_gpu == "h100-nvl"
    assert report.agent.peak_steps_per_s == pytest.approx(3.61, abs=0.005)
    assert report.agent.offload_peak_steps_per_s == pytest.approx(2.96, abs=0.005)
    text = next(f for f in report.findings if f.rule_id == "agent-kv-residency-bound").explanation
    assert "the same steps" not in text
    assert "2 621 CHF a month less and serve 2.96 LLM steps/s at the peak, against this pick's 3.61" in text
