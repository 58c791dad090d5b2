"""A server that takes in requests every R decode steps (SGLang `--scheduler-recv-interval`, issue 32): a
closed-loop arrival waits (R − 1)/2 steps more on average (expert/sizing/load.py, `receive_wait_s`); the
accuracy rows that state the flag (InferenceX's SGLang 0.5.12 on B200/B300) are estimated with it."""

from __future__ import annotations

import pytest

from expert.catalog import load_catalog
from expert.sizing import load
from expert.sizing.accuracy import compare, load_rows
from expert.sizing.steady import loaded_performance

CAT = load_catalog()


def _state(step_s: float) -> load.SteadyState:
    replica = load.Replica(decode=lambda b: step_s, pieces=[(step_s, 0.0)], c_prefill=1e-5, prefill_1=0.01,
                           prompt=1000, output=100, chunk=8192)
    return load.closed_loop(replica, 8)._replace(step_s=step_s)  # the step the wait counts, fixed by hand


def test_receive_wait_by_hand():
    state = _state(0.010)
    # R = 30 at a 10 ms step: 0.5 × 29 × 10 ms = 145 ms mean, 0.95 × 29 × 10 ms = 275.5 ms at p95
    assert load.receive_wait_s(state, 8, 30) == pytest.approx(0.145)
    assert load.receive_wait_s(state, 8, 30, 0.95) == pytest.approx(0.2755)
    # R = 10: 4.5 steps
    assert load.receive_wait_s(state, 8, 10) == pytest.approx(0.045)


def test_no_wait_alone_or_receiving_every_step():
    state = _state(0.010)
    assert load.receive_wait_s(state, 1, 30) == 0.0  # one request: the idle scheduler receives at once
    assert load.receive_wait_s(state, 8, 1) == 0.0  # the default: every step


def test_closed_loop_ttft_adds_the_wait_and_tpot_stays():
    model, gpu = CAT.model("deepseek-r1"), CAT.gpu("b300")
    args = (model, gpu, 8, 8, "fp8", 16, 1024, 1024, "fp8")
    every, thirty = (loaded_performance(*args, engine="sglang", recv_interval=r) for r in (1, 30))
    assert thirty.tpot_steady_s == every.tpot_steady_s
    # mean + 14.5 steps, p95 + 0.95 × 29 = 27.55 steps of the steady state's step
    assert thirty.ttft_steady_s - every.ttft_steady_s == pytest.approx(14.5 * every.tpot_steady_s)
    assert thirty.ttft_steady_p95_s - every.ttft_steady_p95_s == pytest.approx(27.55 * every.tpot_steady_s)


def test_inferencex_row_that_states_the_interval():
    # DeepSeek-R1 FP8 on SGLang 0.5.12, 8 × B300, 1 024-token prompts at 16 in flight, R = 30: measured 312.31 ms
    # mean TTFT; without the receive wait the closed loop gives 119 ms (−62 %), with it 277 ms (−11 %)
    row = next(r for r in load_rows() if r["id"] == "inferencex-sglang0512-deepseek-r1-fp8-8xb300-ttft-1024in-c16")
    assert row["scheduler_recv_interval"] == 30
    result = compare(row, CAT)
    assert result.measured == pytest.approx(312.31)
    assert -0.2 < result.error < 0.0
    without = compare({k: v for k, v in row.items() if k != "scheduler_recv_interval"}, CAT)
    assert without.error < -0.5


def test_estimate_states_the_interval_and_refuses_it_elsewhere(capsys):
    import json

    from expert.cli.main import main

    base = ["estimate", "--model", "deepseek-r1", "--gpu", "b300", "--count", "8", "--tp", "8", "--precision", "fp8",
            "--batch", "16", "--prompt-tokens", "1024", "--output-tokens", "1024", "--format", "json"]
    assert main(base + ["--engine", "sglang", "--recv-interval", "30"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["recv_interval"] == 30 and "receiving every 30 steps" in out["performance"]["regime"]
    # 14.5 steps of the steady step on top of the default's TTFT (test_closed_loop_ttft_adds_the_wait...)
    assert main(base + ["--engine", "sglang"]) == 0
    default = json.loads(capsys.readouterr().out)
    step = default["performance"]["tpot_steady_s"]
    assert out["performance"]["ttft_steady_s"] - default["performance"]["ttft_steady_s"] == pytest.approx(
        14.5 * step, rel=1e-6)
    assert main(base + ["--engine", "vllm", "--recv-interval", "30"]) == 2
    assert "--recv-interval" in capsys.readouterr().err
    assert main(base + ["--engine", "sglang", "--recv-interval", "30", "--rate", "2"]) == 2
    assert "closed loop" in capsys.readouterr().err
