"""Inference memory formulas against hand values, and the inverse `max_sequences` as properties."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sizing_fixtures import GPUS, MODELS

from expert.sizing import generic_model, inference_memory, kv_bytes_per_token, kv_cache_gb, max_sequences, weights_gb
from expert.sizing.memory import kv_heads_per_gpu
from expert.sizing.speed import decode_weight_gb


@pytest.mark.parametrize("model,expected", [
    ("llama-3.1-8b", 131_072),   # 2 × 32 layers × 8 KV heads × 128 × 2 B (GQA)
    ("llama-3.1-70b", 327_680),  # 2 × 80 × 8 × 128 × 2
    ("llama-2-7b", 524_288),     # 2 × 32 × 32 × 128 × 2 (no GQA)
])
def test_kv_bytes_per_token(model, expected):
    assert kv_bytes_per_token(MODELS[model]) == expected


def test_kv_cache_scales_with_tokens_and_sequences():
    # Llama-3.1-8B, 8 192 tokens × 4 sequences × 131 072 B = 4.295 GB; FP8 KV halves it
    m = MODELS["llama-3.1-8b"]
    assert kv_cache_gb(m, 8192, 4) == pytest.approx(8192 * 4 * 131_072 / 1e9)
    assert kv_cache_gb(m, 8192, 4, "fp8") == pytest.approx(kv_cache_gb(m, 8192, 4) / 2)


def test_gemma2_sliding_window_halves_windowed_layers():
    # Gemma-2-9B: 42 layers, 8 KV heads × 256 × 2 B × 2 = 8 192 B per layer and token; half the layers
    # use a 4 096-token window. At 8 192 tokens: 21 × 8 192 + 21 × 4 096 layer-tokens = 0.75 × naive.
    m = MODELS["gemma-2-9b"]
    naive = 42 * 8192 * 8192 / 1e9
    assert kv_cache_gb(m, 8192) == pytest.approx(0.75 * naive)
    windowed_part = kv_cache_gb(m, 8192) - 21 * 8192 * 8192 / 1e9
    assert windowed_part == pytest.approx(21 * 8192 * 4096 / 1e9)  # halved: 4 096 of 8 192 tokens
    assert kv_cache_gb(m, 4096) == pytest.approx(42 * 8192 * 4096 / 1e9)  # within the window: no effect
    assert kv_bytes_per_token(m, context_tokens=8192) == pytest.approx(0.75 * kv_bytes_per_token(m))


def test_mixtral_memory_uses_all_experts_decode_reads_active():
    # weights: 46.7e9 × 2 B = 93.4 GB (all 8 experts); one decode step at batch 1 reads 12.9e9 × 2 = 25.8 GB
    m = MODELS["mixtral-8x7b"]
    assert weights_gb(m, "fp16") == pytest.approx(93.4)
    assert decode_weight_gb(m, "fp16", 1) == pytest.approx(25.8)
    # expert e = (46.7 − 12.9)/6 = 5.633B, shared 12.9 − 2e = 1.633B; batch 8 touches 1 − 0.75^8 = 90 %:
    # 1.633 + 8 × 5.633 × 0.8999 = 42.19B → 84.4 GB, still below all 93.4 GB
    assert decode_weight_gb(m, "fp16", 8) == pytest.approx(2 * (1.6333 + 45.0667 * (1 - 0.75**8)), rel=1e-3)
    # KV is that of a 32-layer, 8-KV-head model: experts do not matter
    assert kv_bytes_per_token(m) == 131_072


def test_kv_per_gpu_under_tp_with_fewer_kv_heads_than_tp():
    # Qwen2.5-7B has 4 KV heads: TP 2 → 2 heads per GPU (half the KV); TP 8 → 1 head per GPU, replicated 2×
    m = MODELS["qwen2.5-7b"]
    assert kv_heads_per_gpu(m, 2) == 2 and kv_heads_per_gpu(m, 8) == 1
    gpu = GPUS["h100-sxm"]
    tp2 = inference_memory(m, gpu, 2, 2, context_tokens=4096, sequences=8)
    tp8 = inference_memory(m, gpu, 8, 8, context_tokens=4096, sequences=8)
    assert tp2.kv_cache_per_gpu_gb == pytest.approx(tp2.kv_cache_gb / 2)
    assert tp8.kv_cache_per_gpu_gb == pytest.approx(tp8.kv_cache_gb / 4)  # not / 8
    assert tp8.kv_replication == pytest.approx(2.0) and tp2.kv_replication == 1.0
    assert tp8.weights_per_gpu_gb == pytest.approx(7.61 * 2 / 8)


def test_inference_memory_components_by_hand():
    # Llama-3.1-8B on L40S, 8 sequences × 8 192 tokens: weights 16 GB, KV 8.59 GB, activation 5.2 GiB =
    # 5.583 GB, non-torch 0.15 GiB = 0.161 GB → 30.33 GB per GPU ≤ 48 × 0.9 = 43.2 GB usable
    r = inference_memory(MODELS["llama-3.1-8b"], GPUS["l40s"], context_tokens=8192, sequences=8)
    assert (r.weights_gb, r.kv_cache_gb) == pytest.approx((16.0, 8.590), abs=1e-3)
    assert (r.activation_gb, r.overhead_gb) == pytest.approx((5.583, 0.161), abs=1e-3)
    assert r.per_gpu_gb == pytest.approx(30.334, abs=1e-3) and r.usable_per_gpu_gb == pytest.approx(43.2)
    assert r.fits and r.headroom_gb == pytest.approx(43.2 - 30.334, abs=1e-3)
    assert r.bands["per_gpu_gb"].low < r.per_gpu_gb < r.bands["per_gpu_gb"].high
    assert r.provenance["usable_per_gpu_gb"].sources


def test_count_must_be_a_multiple_of_tp():
    with pytest.raises(ValueError):
        inference_memory(MODELS["llama-3.1-8b"], GPUS["l40s"], count=3, tensor_parallel=2)


def test_generic_model_rule():
    # 13B: round(cbrt(13e9 / (12 × 128²))) = round(40.4) = 40 layers, hidden 5 120 — Llama-2-13B's shape
    m = generic_model(13)
    assert (m.layers, m.hidden, m.head_dim, m.kv_heads, m.params_b) == (40, 5120, 128, 8, 13)
    assert generic_model(8).layers == 34 and generic_model(70).layers == 71 and generic_model(405).layers == 127
    assert m.generic


def test_max_sequences_by_hand_and_inverse():
    # free = 43.2 − 16 − 5.583 − 0.161 = 21.456 GB; per sequence 8 192 × 131 072 B = 1.0737 GB → 19
    m, gpu = MODELS["llama-3.1-8b"], GPUS["l40s"]
    n = max_sequences(m, gpu, context_tokens=8192)
    assert n == 19
    assert inference_memory(m, gpu, context_tokens=8192, sequences=n).fits
    assert not inference_memory(m, gpu, context_tokens=8192, sequences=n + 1).fits
    assert max_sequences(MODELS["llama-3.1-70b"], GPUS["h100-sxm"], context_tokens=8192) == 0


models = st.sampled_from(sorted(MODELS))
gpus = st.sampled_from(sorted(GPUS))
contexts = st.integers(min_value=128, max_value=131_072)


@settings(max_examples=150, deadline=None)
@given(models, gpus, contexts, contexts, st.sampled_from([1, 2, 4, 8]), st.sampled_from(["fp16", "int8", "int4"]))
def test_longer_context_never_raises_max_sequences(model, gpu, c1, c2, tp, precision):
    short, long = sorted((c1, c2))
    args = dict(count=tp, tensor_parallel=tp, precision=precision)
    assert max_sequences(MODELS[model], GPUS[gpu], context_tokens=long, **args) \
        <= max_sequences(MODELS[model], GPUS[gpu], context_tokens=short, **args)


@settings(max_examples=150, deadline=None)
@given(models, gpus, st.integers(128, 32_768), st.sampled_from([1, 2, 4, 8]))
def test_max_sequences_is_the_inverse(model, gpu, context, tp):
    m, g = MODELS[model], GPUS[gpu]
    n = max_sequences(m, g, tp, tp, context_tokens=context)
    if n > 0:
        assert inference_memory(m, g, tp, tp, context_tokens=context, sequences=n).fits
    assert not inference_memory(m, g, tp, tp, context_tokens=context, sequences=n + 1).fits


@settings(max_examples=150, deadline=None)
@given(st.floats(0.5, 500), st.floats(0.5, 500), gpus, st.integers(128, 32_768), st.integers(1, 32))
def test_larger_model_never_needs_less_memory(p1, p2, gpu, context, sequences):
    small, large = sorted((p1, p2))
    need = [inference_memory(generic_model(p), GPUS[gpu], context_tokens=context, sequences=sequences).per_gpu_gb
            for p in (small, large)]
    assert need[0] <= need[1] + 1e-9
