"""Prompts of varying length (issue 32, Poisson TTFT): the prefill lane queues M/G/1, its waits × (1 + CV_S²)
with CV_S = the prompts' CV × the prompt's compute share of the lane's service (expert/sizing/load.py,
load_solver.variability); fixed lengths (CV 0) keep M/D/1; `estimate --prompt-cv` states it."""

from __future__ import annotations

import json

import pytest

from expert.cli.main import main
from expert.sizing import load
from expert.catalog import load_catalog
from expert.sizing.accuracy import POISSON, compare, evaluate, load_rows
from expert.sizing.load_solver import variability

CAT = load_catalog()


def _toy(**kw) -> load.Replica:
    base = dict(decode=lambda b: 0.01 + 0.001 * b, pieces=[(0.01, 0.001)], c_prefill=1e-4, prefill_1=0.1,
                prompt=1000, output=100, chunk=8192, cap=None)
    return load.Replica(**{**base, **kw})


def test_variability_by_hand():
    # P·c = 1 000 × 0.1 ms = 0.1 s of a 0.125 s service; CV 1.1: CV_S = 1.1 × 0.1 / 0.125 = 0.88, 1 + 0.7744
    assert variability(1.1, 0.1, 0.125) == pytest.approx(1.7744)
    assert variability(0.0, 0.1, 0.125) == 1.0


def test_the_lane_waits_m_g_1():
    # As test_load_steady's hand computation at λ = 2: S = 0.1 + 0.013333 = 0.113333 s, u = 0.226667, the M/D/1
    # wait u·S / (2(1 − u)) = 0.016608 s; CV 1: CV_S = 0.1 / 0.113333 = 0.88235, × (1 + 0.77855) = 0.029538 s
    fixed, varied = load.steady(_toy(), 2.0), load.steady(_toy(prompt_cv=1.0), 2.0)
    service = 0.1 + 0.01 + 0.001 * fixed.batch
    md1 = 2 * service * service / (2 * (1 - 2 * service))
    g = 1 + (0.1 / service) ** 2
    assert varied.variability == pytest.approx(g)
    assert varied.ttft_mean_s - fixed.ttft_mean_s == pytest.approx((g - 1) * md1)
    assert varied.ttft_p95_s - fixed.ttft_p95_s == pytest.approx((g - 1) * load.wait_p95(2 * service, service))
    # TPOT, the decoding batch and stability do not depend on how the prompts vary (linear in P)
    assert (varied.step_s, varied.batch, varied.stable) == (fixed.step_s, fixed.batch, fixed.stable)


def test_the_closed_loop_lane_is_the_same_wait():
    r = _toy(prompt_cv=1.0)
    state = load.closed_loop(r, 8)
    lane = state.variability * load.wait_mean(state.lane_share, state.service_s)
    assert load.closed_loop_ttft_s(state, 8) == pytest.approx(state.ttft_mean_s - lane + max(lane, 0.0))


def test_poisson_ttft_rows_within_the_issue_target():
    # The held-out Poisson rows (vLLM 0.7.3 and 0.8.3 on A100s, ShareGPT with its CV 1.10 from the run's own
    # result JSON): median |error| ≤ 20 % and |bias| ≤ 10 % (issue 32's "done when")
    report = evaluate()
    rows = report.by_regime("ttft")[("all", POISSON)]
    assert len(rows) >= 6
    median, _, bias = report.latency_stats(rows)
    assert median <= 0.20 and abs(bias) <= 0.10
    # the 70B at TP 4 and 4 req/s: 246.3 ms measured; 215.1 ms estimated at fixed lengths (-12.7 %), 249.6 ms
    # at the stated CV 1.10 (+1.3 %)
    row = {r["id"]: r for r in load_rows()}["vllm-nightly-azure-llama33-70b-a100pcie-tp4-sharegpt-qps4-ttft"]
    assert row["input_cv"] == 1.10
    assert compare({**row, "input_cv": 0}, CAT).estimated == pytest.approx(215.1, abs=0.2)
    assert compare(row, CAT).estimated == pytest.approx(249.6, abs=0.2)


def test_estimate_states_the_cv(capsys):
    args = ["estimate", "--model", "llama-3.1-70b", "--gpu", "a100-80gb-pcie", "--count", "4", "--tp", "4",
            "--precision", "bf16", "--prompt-tokens", "213", "--output-tokens", "214", "--rate", "4"]
    assert main(args + ["--format", "json"]) == 0
    fixed = json.loads(capsys.readouterr().out)
    assert main(args + ["--prompt-cv", "1.1", "--format", "json"]) == 0
    varied = json.loads(capsys.readouterr().out)
    assert (fixed["prompt_cv"], varied["prompt_cv"]) == (0.0, 1.1)
    # 189.5 ms at fixed lengths, 221.2 ms at CV 1.1 (the held-out row's 246.3 ms measured)
    assert varied["performance"]["ttft_steady_s"] == pytest.approx(0.2212, abs=0.001)
    assert fixed["performance"]["ttft_steady_s"] == pytest.approx(0.1895, abs=0.001)
    assert varied["performance"]["tpot_steady_s"] == fixed["performance"]["tpot_steady_s"]


def test_a_negative_cv_is_refused(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["estimate", "--model", "llama-3.1-8b", "--gpu", "h100-sxm", "--prompt-cv", "-0.5"])
    assert exit_.value.code == 2
    assert "--prompt-cv: -0.5 is out of range [0, 10]" in capsys.readouterr().err
