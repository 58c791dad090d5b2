"""QA 45 #11: a closed loop states one peak rate, its pick's fixed point, in every section.

Before, the search stopped its rounds where the rate moved by less than 0.2 % or after 8 rounds, and the
capacity section read the rate the pick's own step makes while the agent section, the recommendation and
the alternatives read the rate the last search was sized at: qwen3-30b-a3b for 50 coding users (30 s of
thought) said "peak 1.51 LLM steps/s" and "the peak of 1.55" in one report (2× L40S, its step 12.4 →
11.4 → 12.9 s between rounds). The audit of a recommended setup took the highest rate (a step of 0 s):
examples/agent-closed-loop.yaml sized 118.8 GB of KV in the advice and 133.0 GB in the audit.
`closed_loop.fixed_point` now solves the rate once (bisection on X), and every section reads it.
"""

from __future__ import annotations

import json
import math

import pytest

from expert.configurator.closed_loop import fixed_point

W6 = {"model": "qwen3-30b-a3b", "precision": "fp8", "engine": "sglang",
      "agent": {"kind": "coding", "concurrent_users": 50, "think_time_s": 30, "session_affinity": True}}


class _Loop:
    """A closed loop of 10 users, one step per task, no tools, 9 s of thought: X = 10 / (step + 9)."""

    peak_task_rate = 0.0

    @staticmethod
    def closed_rate(step: float) -> float:
        return 10 / (step + 9)


def test_the_fixed_point_by_hand():
    """A step of 1 + 10 X s: X = 10 / (10 + 10 X), so X² + X − 1 = 0 and X = (√5 − 1) / 2 = 0.61803.
    The bisection returns the bracket's upper end, within 0.01 % of the root and never below it."""
    x = fixed_point(_Loop, lambda rate: 1 + 10 * rate)
    root = (math.sqrt(5) - 1) / 2
    assert x == pytest.approx(root, rel=1e-4)
    assert x >= root


def test_a_rate_the_configuration_does_not_serve_counts_as_no_tasks():
    """No operating point above X = 0.5 (the step there is None): the residual X − 0 > 0 there, so the
    root stays below it; below, a step of 2 s makes 10 / 11 = 0.909 > X: the fixed point is the edge 0.5."""
    x = fixed_point(_Loop, lambda rate: 2.0 if rate <= 0.5 else None)
    assert x == pytest.approx(0.5, rel=1e-4)


def test_a_configuration_that_serves_no_rate_keeps_the_highest():
    """No step at any rate: no fixed point; the highest rate, 10 / (0 + 9) = 1.111, stays."""
    assert fixed_point(_Loop, lambda rate: None) == pytest.approx(10 / 9)


def _cli(*argv: str) -> tuple[int, str]:
    import contextlib
    import io

    from expert.cli.main import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        code = main(list(argv))
    return code, out.getvalue()


def test_w6_states_one_peak_rate_everywhere(tmp_path):
    """2× L40S settles at a 11.93 s step: R = 7.8 × (11.93 + 16.8) = 224.1 s, X = 50 / (224.1 + 30) =
    0.1968 tasks/s and 0.1968 × 7.8 = 1.535 LLM steps/s, in the capacity section, the agent section, the
    recommendation and every alternative (each line per replica: 1.53 / 2 = 0.77 on two replicas)."""
    import yaml

    path = tmp_path / "w6.yaml"
    path.write_text(yaml.safe_dump(W6))
    code, text = _cli("advise", str(path), "--format", "json")
    assert code == 0
    r = json.loads(text)
    g, rec = r["agent"], r["recommendation"]
    peak = r["capacity"]["peak_rps"]
    assert (rec["gpu"], rec["count"]) == ("l40s", 2)
    assert g["peak_steps_per_s"] == peak
    assert g["peak_tasks_per_s"] * g["steps_mean"] == pytest.approx(peak, rel=1e-3)
    assert rec["tpot_rate_rps"] * rec["replicas"] == pytest.approx(peak, rel=1e-3)
    for alt in r["alternatives"]:
        if alt["tpot_rate_rps"] is not None:
            assert alt["tpot_rate_rps"] * alt["replicas"] == pytest.approx(peak, rel=1e-3)
    # the fixed point: X = N / (R + Z) with R from the same report, within 1 %
    r_task = g["steps_mean"] * (g["step_latency_s"] + g["tool_time_s"])
    assert r_task == pytest.approx(g["task_latency_s"], rel=1e-3)
    assert peak == pytest.approx(50 / (r_task + 30) * g["steps_mean"], rel=0.01)
    assert peak == pytest.approx(1.535, abs=0.005)
    code, text = _cli("advise", str(path))
    rates = {line.split("peak of ")[1].split(" ")[0] for line in text.splitlines() if "peak of " in line}
    assert rates <= {"1.53", "0.77"}
    assert "peak 1.53 LLM steps/s" in text


def test_advise_and_audit_of_the_closed_loop_example_agree(tmp_path):
    """examples/agent-closed-loop.yaml: the advice sizes 2× B200 at its fixed point; the audit of that
    setup solves the setup's own fixed point with the same function and so sizes the same KV (116.4 GB,
    reserve 13 %: the operating batch 8 + the held sessions, QA 47 #1; 118.8 GB with one sequence more
    before); before, it took the highest rate: 133.0 GB, reserve 3 %."""
    setup = tmp_path / "setup.yaml"
    code, text = _cli("advise", "examples/agent-closed-loop.yaml", "--format", "json", "--setup-out", str(setup))
    assert code == 0
    advice = json.loads(text)
    code, text = _cli("audit", str(setup), "--format", "json")
    audit = json.loads(text)
    assert advice["memory"]["kv_cache_gb"] == pytest.approx(116.4, abs=0.05)
    for key in ("kv_cache_gb", "total_gb", "reserve_ratio"):
        assert audit["memory"][key] == pytest.approx(advice["memory"][key], rel=0.01)
    assert audit["capacity"]["peak_rps"] == pytest.approx(advice["capacity"]["peak_rps"], rel=0.01)
