"""The configurator's fast closed forms equal the sizing core (memory, latency, cost)."""

from __future__ import annotations

import math

import itertools

import pytest

from expert.catalog.loader import load_catalog
from expert.configurator.candidates import all_sources, column_of
from expert.configurator.objective import gpu_cost
from expert.configurator.profile import build_profile
from expert.configurator.serving import wait_p95
from expert.configurator.enumeration import default_assumptions
from expert.sizing.tco import buy_cost, rent_cost
from expert.sizing.memory import inference_memory
from expert.sizing.speed import performance
from expert.sizing.engine_speed import request_overhead_s
from expert.inputs.slo import Targets

CAT = load_catalog()
A = default_assumptions(CAT)
SLO = Targets(ttft_s=5.0, tpot_ms=None, e2e_s=None, streaming=True, said={})
MODELS = ["llama-3.1-8b", "llama-2-13b", "mixtral-8x7b", "qwen2.5-7b", "gemma-2-9b", "llama-3.1-70b"]
GPUS = ["l40s", "a100-80gb-pcie", "a100-80gb-sxm", "h100-nvl", "h200", "mi300x", "rtx-pro-6000-server"]


@pytest.mark.parametrize("model_id,gpu_id", list(itertools.product(MODELS, GPUS)))
def test_profile_matches_core(model_id, gpu_id):
    model, gpu = CAT.model(model_id), CAT.gpu(gpu_id)
    for precision, tp, batch in itertools.product(("fp16", "fp8", "int8"), (1, 2, 4), (1, 7, 33)):
        if model.kv_heads % tp or model.heads % tp or (precision == "fp8" and not gpu.fp8_tflops):
            continue
        col = column_of(gpu)
        p = build_profile(model, gpu, precision, tp, col, 1200, 180, 1380, SLO, A)
        mem = inference_memory(model, gpu, tp, tp, precision, 1380, batch, assumptions=A)
        assert p.need_gb(batch) == pytest.approx(mem.per_gpu_gb, rel=1e-9)
        assert p.usable_gb == pytest.approx(mem.usable_per_gpu_gb, rel=1e-12)
        link = "nvlink" if col == "sxm" else "pcie"  # the profile's all-reduce link is its 004 column's
        # the profile's engine (vLLM by default): its time per request joins TTFT and end to end alike
        perf = performance(model, gpu, tp, tp, precision, batch, 1200, 180, interconnect=link, assumptions=A,
                           engine="vllm")
        assert p.e2e(batch) == pytest.approx(perf.e2e_latency_s, rel=1e-9)
        assert p.tpot(batch) == pytest.approx(perf.tpot_s, rel=1e-9)
        assert p.prefill_1 + request_overhead_s("vllm", A) == pytest.approx(perf.ttft_s, rel=1e-9)


def test_queueing_wait_and_operating_point():
    """M/D/1 p95 wait (docs/slo.md): s·ln(ρ/0.05)/(2(1−ρ)); at ρ = 0.7 and s = 0.1 s:
    0.1 × ln 14 / 0.6 = 0.1 × 2.6391 / 0.6 = 0.43984 s; none at ρ ≤ 0.05. The operating point is the
    continuous-batching steady state (expert/sizing/load.py): step = decode(b) / (1 − λ·prefill compute)
    with b = λ · output · step decoding, TTFT p95 = wait + chunked prefill, and the batch the memory
    holds from Little's law at D3's 70 %."""
    assert wait_p95(0.7, 0.1) == pytest.approx(0.43984, rel=1e-4)
    assert wait_p95(0.05, 0.1) == 0.0
    model, gpu = CAT.model("llama-3.1-8b"), CAT.gpu("l40s")
    p = build_profile(model, gpu, "fp16", 1, column_of(gpu), 1500, 250, 1750, SLO, A)
    op = p.point(1, 2.0, 0, 0.7, None)
    rho = 2.0 * p.prefill_compute                       # the prefill's share of every step
    assert op.prefill_share == pytest.approx(rho)
    assert op.decoding == pytest.approx(2.0 * 250 * op.tpot_s)                  # Little's law, decode phase
    assert op.tpot_s == pytest.approx(p.replica().decode(op.decoding) / (1 - rho), rel=1e-9)
    assert op.tpot_s > p.tpot(math.ceil(op.decoding))   # the prefills of arrivals slow every step
    st = p.steady(2.0)
    assert op.ttft_s == pytest.approx(st.ttft_p95_s) and op.ttft_s > p.prefill_1
    # memory holds the sequences in flight with D3's 30 % headroom, not one fewer
    assert op.batch == math.ceil(2.0 * (st.ttft_mean_s + 250 * st.step_s) / 0.7 - 1e-9)
    assert op.rho == pytest.approx(2.0 / p.rate_max())


def test_cost_matches_core():
    fx = CAT.to_chf
    for s in all_sources(CAT):
        for n in s.counts[:3]:
            mine = gpu_cost(s, n, 36, A)
            if s.kind == "cloud":
                offer = CAT.offers[s.key]
                gpu = s.gpu.model_copy(update={"tdp_w": s.energy_tdp_w})
                ref = rent_cost(gpu, offer, n, 36, fx=fx, assumptions=A).total_chf
            else:                                  # a complete system: its price and server power
                price, power, _ = s.system(n)
                ref = buy_cost(s.gpu, price / n, n, 36, assumptions=A, power_w=power).total_chf
            assert mine == pytest.approx(ref, rel=1e-9), s.key


@pytest.mark.parametrize("precision,kvp", [("fp8", "fp8"), ("fp16", "fp8"), ("bf16", "bf16")])
def test_profile_sizes_kv_at_the_workloads_precision(precision, kvp):
    """The profile's KV per sequence is the core's at the same KV precision (issue 11 point 3):
    Llama-3.1-8B holds 32 layers × 8 KV heads × 128 × 2 (K, V) = 65 536 values per token, so 1 380 tokens
    take 65 536 × 1 380 × 1 byte = 0.0904 GB in FP8 (half of 16 bit)."""
    model, gpu = CAT.model("llama-3.1-8b"), CAT.gpu("h100-nvl")
    p = build_profile(model, gpu, precision, 1, column_of(gpu), 1200, 180, 1380, SLO, A, kv_precision=kvp)
    per_byte = 65_536 * 1380 / 1e9
    assert p.kv_seq_gb == pytest.approx(per_byte * (1 if kvp == "fp8" else 2), rel=1e-9)
    for batch in (1, 9, 40):
        mem = inference_memory(model, gpu, 1, 1, precision, 1380, batch, kvp, assumptions=A)
        assert p.need_gb(batch) == pytest.approx(mem.per_gpu_gb, rel=1e-9)
        assert p.usable_gb == pytest.approx(mem.usable_per_gpu_gb, rel=1e-12)
