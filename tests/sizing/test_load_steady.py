"""The continuous-batching steady state (expert/sizing/load.py, steady.py) and where it is used (issue 22):
the estimate at batch 50 against batch 1, ITL growth against NIM's published table, monotonicity, the
closed form against a hand computation, the engines' chunk budgets, the estimate's layout against the
configurator's, and the regime named in reports."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from expert.api import run_estimate
from expert.catalog import load_catalog
from expert.configurator.candidates import column_of, tp_degrees
from expert.configurator.profile import build_profile
from expert.sizing import load
from expert.sizing.accuracy import POISSON, REGIMES, evaluate, regime_of
from expert.sizing.constants import DEFAULT
from expert.sizing.memory import max_sequences
from expert.sizing.steady import core_replica

CAT = load_catalog()
ISSUE = dict(model="llama-3.3-70b", params_b=None, gpu="h100-sxm", count=2, precision="fp8", engine="tensorrt-llm",
             prompt_tokens=5000, output_tokens=500)


def _toy(**kw) -> load.Replica:
    base = dict(decode=lambda b: 0.01 + 0.001 * b, pieces=[(0.01, 0.001)], c_prefill=1e-4, prefill_1=0.1,
                prompt=1000, output=100, chunk=8192, cap=None)
    return load.Replica(**{**base, **kw})


def test_steady_state_by_hand():
    # decode(b) = 10 ms + 1 ms × b, λ = 2 req/s, P = 1 000 tokens at 0.1 ms, O = 100: ρ = 2 × 1000 × 1e-4 = 0.2;
    # step = 0.01 / (1 − 0.2 − 0.001 × 2 × 100) = 0.01 / 0.6 = 16.667 ms; b = 2 × 100 × 0.016667 = 3.333
    s = load.steady(_toy(), 2.0)
    assert s.prefill_share == pytest.approx(0.2)
    assert s.step_s == pytest.approx(0.01 / 0.6)
    assert s.batch == pytest.approx(2 * 100 * 0.01 / 0.6)
    assert s.step_s == pytest.approx((0.01 + 0.001 * s.batch) / 0.8)   # the fixed point holds
    # prefill lane: one chunk (1 000 < 8 192 − 3.3), S = max(0.1, 1000 × 1e-4) + 1 × decode(b) = 0.1 + 0.013333;
    # u = 2 × S = 0.22667, mean wait = u·S / (2(1 − u)) = 0.016608 s
    service = 0.1 + 0.01 + 0.001 * s.batch
    assert s.ttft_mean_s == pytest.approx(service + 2 * service * service / (2 * (1 - 2 * service)))
    # unstable once the denominators reach 0: 1 − 1e-1·λ − 0.1·λ = 0 at λ = 5
    assert not load.steady(_toy(), 5.0).stable
    assert load.rate_max(_toy()) < 5.0


def test_moe_bisection_equals_the_closed_form():
    # the same affine decode without its pieces takes the whole-sequence bisection: equal up to rounding b up
    closed = load.steady(_toy(), 2.0)
    searched = load.steady(_toy(pieces=None), 2.0)
    assert searched.step_s == pytest.approx(closed.step_s, rel=0.07)   # b = 4 sequences instead of 3.33


@settings(max_examples=60, deadline=None)
@given(model=st.sampled_from(["llama-3.1-8b", "llama-3.3-70b", "mixtral-8x7b", "qwen2.5-32b"]),
       gpu=st.sampled_from(["h100-sxm", "a100-80gb-sxm", "l40s", "h200"]),
       prompt=st.sampled_from([200, 1500, 5000]), n1=st.integers(1, 300), n2=st.integers(1, 300),
       engine=st.sampled_from(["vllm", "tensorrt-llm"]), precision=st.sampled_from(["fp16", "fp8"]))
def test_tpot_never_falls_as_the_batch_or_the_rate_grows(model, gpu, prompt, n1, n2, engine, precision):
    # at a fixed prompt length, on an engine with CUDA graphs and on TensorRT-LLM (eager-launch overhead in
    # every step), FP8 prefill at its own rate (engine_speed)
    m, g = CAT.model(model), CAT.gpu(gpu)
    tp = 2 if m.params_b > 40 else 1
    cap = max_sequences(m, g, tp, tp, precision, prompt + 250, "fp16", DEFAULT, engine)
    r = core_replica(m, g, tp, precision, prompt, 250, "fp16", engine, cap or None)
    small, large = sorted((n1, n2))
    assert load.closed_loop(r, small).step_s <= load.closed_loop(r, large).step_s * (1 + 1e-9)
    top = load.rate_max(r)
    lo, hi = sorted((top * n1 / 301, top * n2 / 301))
    assert load.steady(r, lo).step_s <= load.steady(r, hi).step_s * (1 + 1e-9)


def test_issue_22_batch_50_is_slower_than_batch_1():
    # the issue's command: 26 ms at batch 50 against 29 ms at batch 1 before; now the layout (TP 1 × 2 at batch 1,
    # TP 2 at batch 50, said in the first line) and the steady state's TPOT both grow with the batch
    one, fifty = (run_estimate(CAT, batch=b, **ISSUE) for b in (1, 50))
    assert (one.tensor_parallel, fifty.tensor_parallel) == (1, 2)
    assert "smallest TP" in one.layout_reason and "configurator" in one.layout_reason
    assert fifty.performance.tpot_steady_s > one.performance.tpot_steady_s
    forced = [run_estimate(CAT, batch=b, tensor_parallel=2, **ISSUE).performance for b in (1, 50)]
    assert forced[1].tpot_steady_s > 2 * forced[0].tpot_steady_s
    assert forced[1].tpot_steady_s > forced[1].tpot_s   # the prefills of arrivals ride on every step


def test_itl_growth_roughly_as_nim_publishes():
    # NIM 1.8.0, Llama-3.3-70B FP8 TP2 on 2 × H100, 5 000 in / 500 out (tests/data/measurements.yaml rows
    # nim-llama33-70b-fp8-2xh100-itl-5000in*): ITL 18.58 ms at concurrency 1, 59.73 at 50, 93.2 at 250:
    # 3.2× and 5.0×. The model: 20.1, 70.1 and 109.6 ms, 3.5× and 5.5× (its 5 000-token prefill is within
    # 1.3 % of NIM's TTFT row since the FP8 prefill rate; the steps run 13-18 % long, docs/accuracy.md).
    m, g = CAT.model("llama-3.3-70b"), CAT.gpu("h100-sxm")
    cap = max_sequences(m, g, 2, 2, "fp8", 5500, "fp8", DEFAULT, "tensorrt-llm")
    r = core_replica(m, g, 2, "fp8", 5000, 500, "fp8", "tensorrt-llm", cap)
    c1, c50, c250 = (load.closed_loop(r, n).step_s for n in (1, 50, 250))
    assert 59.73 / 18.58 / 1.6 < c50 / c1 < 59.73 / 18.58 * 1.6
    assert 93.2 / 18.58 / 1.6 < c250 / c1 < 93.2 / 18.58 * 1.6
    # the plateau: beyond the KV pool (89 sequences of 5 500 tokens) more users only queue, as NIM's 92.9-93.2 ms
    assert load.closed_loop(r, 100).step_s == pytest.approx(c250)


def test_chunk_budgets_per_engine():
    h100, a100, l40s = CAT.gpu("h100-sxm"), CAT.gpu("a100-80gb-sxm"), CAT.gpu("l40s")
    # vLLM: 8 192 on >= 70 GiB GPUs except A100, else 2 048; SGLang 4 096 below 60 GiB; TensorRT-LLM 8 192
    assert [load.chunk_tokens("vllm", g, 1500)[0] for g in (h100, a100, l40s)] == [8192, 2048, 2048]
    assert load.chunk_tokens("sglang", l40s, 1500)[0] == 4096
    assert load.chunk_tokens("tensorrt-llm", l40s, 1500)[0] == 8192
    assert load.chunk_tokens("transformers", h100, 1500)[0] == 1500


@pytest.mark.parametrize("batch", [1, 10, 11, 50, 89])
def test_estimate_layout_is_the_configurators(batch):
    """The configurator's tie-break at equal GPU count prefers the smaller TP (objective.sort_key): the
    first TP of `candidates.tp_degrees` whose profile holds the batch, as the estimate picks."""
    m, g = CAT.model("llama-3.3-70b"), CAT.gpu("h100-sxm")
    est = run_estimate(CAT, batch=batch, **ISSUE)
    holds = [tp for tp in tp_degrees(m, 2) if build_profile(m, g, "fp8", tp, column_of(g), 5000, 500, 5500, None,
                                                                 DEFAULT, None, "tensorrt-llm",
                                                                 kv_precision="fp8").seq_mem >= batch]
    assert est.tensor_parallel == holds[0]


def test_accuracy_report_by_regime():
    report = evaluate()
    groups = report.tpot_by_regime()
    # the closed-loop regimes and the Poisson rows of vLLM's nightly serving suite (issue 32 item 2)
    assert {regime for engine, regime in groups if engine == "all"} == {*REGIMES, POISSON}
    assert (regime_of(1), regime_of(49), regime_of(50)) == REGIMES
    # NIM's loaded rows are compared with the closed-loop steady state at their concurrency
    c50 = next(c for c in report.used if c.id == "nim-llama33-70b-fp8-2xh100-itl-5000in-c50")
    assert c50.regime == "saturated" and "steady-state" in c50.quantity
    # every regime meets the 15 % target (docs/accuracy.md: batch 1 8.3 %, mid 8.1 %, saturated 11.9 %)
    import statistics
    assert all(statistics.median(c.abs_error for c in groups[("all", reg)]) <= 0.15 for reg in REGIMES)


def test_reports_name_the_regime_of_their_tpot():
    from expert.api import Expert
    from expert.report.render import choice_line
    rec = Expert().advise({"model": "llama-3.1-8b", "requests_per_day": 20000}, sensitivity=False).recommendation
    # the peak: 20 000 / 86 400 × 3 (peak factor) = 0.6944 req/s, spread over the replicas
    assert rec.tpot_rate_rps == pytest.approx(20000 / 86400 * 3 / rec.replicas, abs=1e-4)
    assert rec.tpot_batch > 0
    assert "req/s per replica" in choice_line(rec, "en") and "Anfragen/s pro Replikat" in choice_line(rec, "de")


def test_a_pool_names_the_regime_of_its_slowest_agent():
    """A pool's TPOT is its slowest agent's (the max over agents); the line says whose steady state it is."""
    from pathlib import Path

    import yaml

    from expert.api import Expert
    from expert.report.render import render

    root = Path(__file__).resolve().parents[2]
    workload = yaml.safe_load((root / "examples" / "agent-pool-t3.yaml").read_text(encoding="utf-8"))
    report = Expert().advise(workload, sensitivity=False)
    rec = report.recommendation
    assert report.pool and rec.tpot_rate_rps is not None and rec.tpot_batch >= 1
    # T3's slowest agent at the peak: one of the five agents' own rates, well below the pool's total
    total_peak = sum(a.get("requests_per_day", 0) for a in workload["agents"]) / 86400 * 3
    assert 0 < rec.tpot_rate_rps < total_peak
    assert "the slowest agent, at its peak of" in render(report, "text")
