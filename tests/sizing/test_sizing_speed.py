"""Speed model against hand values, and the physical bandwidth limit as a property (hypothesis)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sizing_fixtures import GPUS, MODELS

from expert.sizing import DEFAULT, bandwidth_limit_tokens_per_s, generic_model, performance, weights_gb
from expert.sizing.memory import bytes_per_param, embedding_params_b
from expert.sizing.speed import compute_tflops, decode_weight_gb, weight_only

A100, H100, L40S = GPUS["a100-80gb-sxm"], GPUS["h100-sxm"], GPUS["l40s"]


def test_ttft_by_hand():
    # Llama-3.1-8B on A100, 1 500-token prompt: 2 × 8e9 × 1 500 + 32 × 4 096 × 1 500² = 2.4295e13 FLOP
    # / (312e12 × MFU 0.6) = 0.1298 s
    p = performance(MODELS["llama-3.1-8b"], A100, prompt_tokens=1500, output_tokens=250)
    assert p.ttft_s == pytest.approx((2 * 8e9 * 1500 + 32 * 4096 * 1500**2) / (312e12 * 0.6))


def test_tpot_by_hand_memory_bound():
    # batch 1, mean context 1 500 + 125 = 1 625 tokens: KV read 1 625 × 131 072 B = 0.213 GB; weights read
    # 16 GB less the input embedding looked up, not read (128 256 × 4 096 × 2 B = 1.0507 GB) = 14.949 GB;
    # 14.949 GB / (2 039 GB/s × MBU 0.725) + 0.213 GB / (2 039 GB/s × kv_read_efficiency 0.89) = 10.23 ms
    p = performance(MODELS["llama-3.1-8b"], A100, prompt_tokens=1500, output_tokens=250)
    assert p.tpot_s == pytest.approx((16e9 - 128_256 * 4096 * 2) / (2039e9 * 0.725)
                                     + 1625 * 131_072 / (2039e9 * 0.89))
    assert p.bound == "memory"
    assert p.e2e_latency_s == pytest.approx(p.ttft_s + 250 * p.tpot_s)


def test_compute_bound_at_large_batch_short_context():
    # L40S, batch 512, 16 + 16 tokens: compute 512 × 2 × 8e9 / (362.05e12 × 0.6) = 37.7 ms
    # > memory (16 GB + 1.6 GB KV) / (864 GB/s × 0.725) = 28.1 ms
    p = performance(MODELS["llama-3.1-8b"], L40S, batch=512, prompt_tokens=16, output_tokens=16)
    assert p.bound == "compute"
    assert p.compute_time_s == pytest.approx(512 * (2 * 8e9 + 2 * 32 * 4096 * 24) / (362.05e12 * 0.6))


def test_fp8_native_only():
    # H100 has FP8 tensor cores: FP16 989.4 TF × (1 + 000 G3's observed +35 %) = 1 335.7 TF, below the
    # FP8 peak 1 978.9; the A100 has none → FP16 312 TF and weight-only FP8
    assert compute_tflops(H100, "fp8") == pytest.approx(989.4 * 1.35) and compute_tflops(H100, "fp8") < 1978.9
    assert compute_tflops(A100, "fp8") == 312
    assert not weight_only(H100, "fp8") and weight_only(A100, "fp8")
    # int8 runs W8A8 on INT8 tensor cores on Ampere and Hopper (expert/sizing/kernels.py): the same observed
    # gain, capped by the INT8 peak: A100 312 × 1.35 = 421.2 TF (< 624 TOPS), H100 1 335.7 (< 1 978.9)
    assert not weight_only(H100, "int8") and not weight_only(A100, "int8")
    assert compute_tflops(A100, "int8") == pytest.approx(312 * 1.35)
    assert compute_tflops(H100, "int8") == pytest.approx(989.4 * 1.35)
    assert weight_only(A100, "int4") and compute_tflops(A100, "int4") == 312  # W4A16 computes in FP16
    assert compute_tflops(A100, "fp32") == 156  # TF32 = half of FP16


def test_int8_int4_read_fewer_bytes():
    # embedding + LM head stay 16-bit: 2 × 128 256 × 4 096 = 1.0507e9 params; the other 6.9493e9 at 1 B
    # = 9.0507 GB in memory and at 0.5156 B = 5.6846 GB; a decode step reads all but the input embedding
    # (1.0507 GB, looked up): 8.0 GB and 4.6339 GB (vs 14.949 GB in fp16)
    m = MODELS["llama-3.1-8b"]
    assert decode_weight_gb(m, "int8") == pytest.approx(8.0, abs=1e-4)
    assert decode_weight_gb(m, "int4") == pytest.approx(4.6339, abs=1e-4)
    fp16, int8 = performance(m, A100), performance(m, A100, precision="int8")
    assert int8.decode_tokens_per_s_per_sequence > fp16.decode_tokens_per_s_per_sequence
    assert int8.bandwidth_limit_tokens_per_s == pytest.approx(2039 / 8.0, rel=1e-4)


def test_mixtral_decodes_like_its_active_parameters():
    # batch 1 reads 25.8 − 0.262 (input embedding 32 000 × 4 096 × 2 B) = 25.538 GB, not 93.4 GB:
    # per-GPU limit at TP 2 = 3 350 / 12.769 = 262.4 tok/s
    m = MODELS["mixtral-8x7b"]
    assert bandwidth_limit_tokens_per_s(m, H100, 2) == pytest.approx(3350 / 12.769, rel=1e-4)
    dense_equivalent = performance(m, H100, 2, 2).tpot_s
    assert dense_equivalent < performance(MODELS["llama-3.1-70b"], H100, 2, 2).tpot_s / 3


def test_tp_and_replicas():
    # 8 H100 as 2 replicas of TP 4: throughput = 2 × one replica's; η = 0.8625 (004 SXM TP 4)
    m = MODELS["llama-3.1-70b"]
    one = performance(m, H100, 4, 4, batch=16)
    two = performance(m, H100, 8, 4, batch=16)
    assert two.replicas == 2 and two.throughput_tokens_per_s == pytest.approx(2 * one.throughput_tokens_per_s)
    assert one.tensor_parallel_efficiency == pytest.approx(0.8625)


def test_bands_bracket_the_point():
    p = performance(MODELS["llama-3.1-70b"], A100, 4, 4, batch=8)
    for name in ("ttft_s", "tpot_s", "e2e_latency_s", "decode_tokens_per_s_per_sequence",
                 "throughput_tokens_per_s", "tensor_parallel_efficiency"):
        band, value = p.bands[name], getattr(p, name)
        assert band.low <= value <= band.high, name


def test_overrides_change_the_answer():
    # MBU and the KV reads' efficiency both 0.85 against both 0.725: the whole step reads at 0.85 instead of
    # 0.725, a ratio of exactly 0.85/0.725 = 1.17× (memory-bound); against the defaults (KV already at 0.89,
    # faster than 0.85) the gain is less than that
    m = MODELS["llama-3.1-8b"]
    fast = performance(m, A100, assumptions=DEFAULT.override(mbu=0.85, kv_read_efficiency=0.85))
    slow = performance(m, A100, assumptions=DEFAULT.override(mbu=0.725, kv_read_efficiency=0.725))
    assert fast.decode_tokens_per_s_per_sequence / slow.decode_tokens_per_s_per_sequence == pytest.approx(0.85 / 0.725)
    assert fast.decode_tokens_per_s_per_sequence / performance(m, A100).decode_tokens_per_s_per_sequence \
        < 0.85 / 0.725
    with pytest.raises(ValueError):
        performance(m, A100, assumptions=DEFAULT.override(mbu=1.2))


def test_bad_arguments():
    with pytest.raises(ValueError):
        performance(MODELS["llama-3.1-8b"], A100, count=3, tensor_parallel=2)
    with pytest.raises(ValueError):
        performance(MODELS["llama-3.1-8b"], A100, batch=0)


@settings(max_examples=300, deadline=None)
@given(params=st.floats(0.5, 700), gpu=st.sampled_from(sorted(GPUS)), tp=st.sampled_from([1, 2, 3, 4, 8]),
       precision=st.sampled_from(["fp32", "fp16", "bf16", "fp8", "int8", "int4"]), batch=st.integers(1, 512),
       prompt=st.integers(1, 32_768), output=st.integers(1, 4096), model=st.sampled_from([None, *sorted(MODELS)]))
def test_decode_never_above_bandwidth_over_weights(params, gpu, tp, precision, batch, prompt, output, model):
    # the physical ceiling: tokens/s per sequence ≤ bandwidth / (weight bytes per GPU), also at the fast band end
    m = MODELS[model] if model else generic_model(params)
    g = GPUS[gpu]
    p = performance(m, g, tp, tp, precision, batch, prompt, output)
    limit = g.bandwidth_gbs / (decode_weight_gb(m, precision, batch) / tp)
    assert p.decode_tokens_per_s_per_sequence <= limit * (1 + 1e-9)
    assert p.bands["decode_tokens_per_s_per_sequence"].high <= limit * (1 + 1e-9)
    if not m.is_moe:
        assert p.decode_tokens_per_s_per_sequence <= g.bandwidth_gbs / (weights_gb(m, precision) / tp) * (1 + 1e-9)


@settings(max_examples=100, deadline=None)
@given(model=st.sampled_from(sorted(MODELS)), gpu=st.sampled_from(sorted(GPUS)), b1=st.integers(1, 256),
       b2=st.integers(1, 256))
def test_tpot_never_falls_with_batch(model, gpu, b1, b2):
    small, large = sorted((b1, b2))
    m, g = MODELS[model], GPUS[gpu]
    assert performance(m, g, batch=small).tpot_s <= performance(m, g, batch=large).tpot_s + 1e-12



@pytest.mark.parametrize("model", sorted(MODELS))
@pytest.mark.parametrize("precision", ["fp32", "bf16", "fp8", "int8", "int4"])
def test_weights_a_step_reads_by_batch(model, precision):
    # every weight but the input embedding a step looks up (vocab × hidden at ≥ 16 bit); an MoE step reads
    # the experts its batch touches: the active parameters at batch 1, rising with the batch to all of them
    m = MODELS[model]
    lookup = embedding_params_b(m) / 2 * max(bytes_per_param(precision).value, 2)
    reads = [decode_weight_gb(m, precision, b) for b in (1, 2, 3, 7, 33, 257, 4096)]
    if not m.is_moe:
        assert reads == [weights_gb(m, precision) - lookup] * len(reads)
        return
    assert reads == sorted(reads) and reads[-1] <= weights_gb(m, precision) - lookup + 1e-9
    if m.experts_active:
        assert reads[0] == pytest.approx(m.active_params_b * bytes_per_param(precision).value - lookup)
    if precision in ("fp32", "bf16"):            # 4 096 sequences touch every expert
        assert reads[-1] == pytest.approx(weights_gb(m, precision) - lookup)
