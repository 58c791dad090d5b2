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
    # less the input embedding it only looks up (32 000 × 4 096 × 2 B = 0.262 GB)
    m = MODELS["mixtral-8x7b"]
    emb = 32_000 * 4096 * 2 / 1e9
    assert weights_gb(m, "fp16") == pytest.approx(93.4)
    assert decode_weight_gb(m, "fp16", 1) == pytest.approx(25.8 - emb)
    # expert e = (46.7 − 12.9)/6 = 5.633B, shared 12.9 − 2e = 1.633B; batch 8 touches 1 − 0.75^8 = 90 %:
    # 1.633 + 8 × 5.633 × 0.8999 = 42.19B → 84.4 GB, still below all 93.4 GB
    assert decode_weight_gb(m, "fp16", 8) == pytest.approx(2 * (1.6333 + 45.0667 * (1 - 0.75**8)) - emb, rel=1e-3)
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
    # Llama-3.1-8B on L40S under vLLM, 8 sequences × 8 192 tokens: weights 16 GB, KV 8.59 GB, activation
    # 2 GiB = 2.147 GB, non-torch 0.25 GiB + CUDA graphs 0.9 GiB = 1.235 GB → 27.972 GB per GPU ≤ usable
    # 0.92 × 48 GiB × 15/16 (ECC) = 0.92 × 48.318 = 44.453 GB
    r = inference_memory(MODELS["llama-3.1-8b"], GPUS["l40s"], context_tokens=8192, sequences=8)
    assert (r.weights_gb, r.kv_cache_gb) == pytest.approx((16.0, 8.590), abs=1e-3)
    assert (r.activation_gb, r.overhead_gb) == pytest.approx((2.147, 1.235), abs=1e-3)
    assert r.per_gpu_gb == pytest.approx(27.972, abs=1e-3) and r.usable_per_gpu_gb == pytest.approx(44.453, abs=1e-3)
    assert r.fits and r.headroom_gb == pytest.approx(44.453 - 27.972, abs=1e-3)
    assert r.bands["per_gpu_gb"].low < r.per_gpu_gb < r.bands["per_gpu_gb"].high
    assert r.provenance["usable_per_gpu_gb"].sources


def test_count_must_be_a_multiple_of_tp():
    with pytest.raises(ValueError):
        inference_memory(MODELS["llama-3.1-8b"], GPUS["l40s"], count=3, tensor_parallel=2)


def test_generic_model_rule():
    # knowledge/models.yaml generic-dense: hidden = 1024·round(2078·P^0.335/1024), layers = round(P·1e9/(13·hidden²))
    # 7B: 2078 × 7^0.335 = 3 988 → 4 096; 7e9 / (13 × 4 096²) = 32.1 → 32 (Llama-2-7B's shape, MHA)
    # 13B: 4 905 → 5 120; 38.1 → 38 layers, 40 KV heads; 70B: 8 628 → 8 192; 80.2 → 80 layers, 8 KV heads
    shape = lambda m: (m.layers, m.hidden, m.heads, m.kv_heads, m.head_dim, m.intermediate)  # noqa: E731
    assert shape(generic_model(7)) == (32, 4096, 32, 32, 128, 11008)
    assert shape(generic_model(13)) == (38, 5120, 40, 40, 128, 13824)
    assert shape(generic_model(70)) == (80, 8192, 64, 8, 128, 22016)
    assert generic_model(13).generic and weights_gb(generic_model(13)) == 26


def test_generic_rule_kv_is_not_monotone():
    # Properties of the catalog rule (reported to its owner): the KV per token drops where hidden steps up
    # (10.7B: 49 × 4 096 → 10.9B: 32 × 5 120, −18 %) and at 30B where MHA becomes 8-head GQA (−83 %).
    assert kv_bytes_per_token(generic_model(10.9)) < kv_bytes_per_token(generic_model(10.7))
    assert kv_bytes_per_token(generic_model(30)) == kv_bytes_per_token(generic_model(29.9)) * 8 / 48


def test_mla_caches_the_latent_replicated_under_tp():
    # DeepSeek-V3: 61 layers × (512 + 64) × 2 B = 70 272 B per token (the naive 2·128·192 formula: 5 996 544)
    m = MODELS["deepseek-v3"]
    assert kv_bytes_per_token(m) == 70_272
    r = inference_memory(m, GPUS["mi300x"], 8, 8, precision="fp8", context_tokens=8192, sequences=4)
    assert r.kv_cache_per_gpu_gb == pytest.approx(r.kv_cache_gb) and r.kv_replication == 8


def test_max_sequences_by_hand_and_inverse():
    # free = 44.453 − 16 − 2.147 − 1.235 = 25.071 GB; per sequence 8 192 × 131 072 B = 1.0737 GB → 23
    m, gpu = MODELS["llama-3.1-8b"], GPUS["l40s"]
    n = max_sequences(m, gpu, context_tokens=8192)
    assert n == 23
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
@given(models, st.floats(1.0, 3.0), st.integers(0, 40), gpus, st.integers(128, 32_768), st.integers(0, 32),
       st.sampled_from([1, 2, 4, 8]))
def test_larger_model_never_needs_less_memory(model, scale, extra_layers, gpu, context, sequences, tp):
    # same architecture with more parameters and more layers: never less memory, per GPU or in total
    m = MODELS[model]
    big = m.model_copy(update={"params_b": m.params_b * scale, "layers": m.layers + extra_layers})
    args = dict(count=tp, tensor_parallel=tp, context_tokens=context, sequences=sequences)
    small_need, big_need = (inference_memory(x, GPUS[gpu], **args) for x in (m, big))
    assert small_need.per_gpu_gb <= big_need.per_gpu_gb + 1e-9
    assert small_need.total_gb <= big_need.total_gb + 1e-9


@settings(max_examples=150, deadline=None)
@given(st.floats(0.5, 500), st.floats(0.5, 500), gpus)
def test_larger_generic_model_never_needs_less_without_kv(p1, p2, gpu):
    # weights and runtime grow with params_b for the generic rule too (its KV does not: see above)
    small, large = sorted((p1, p2))
    need = [inference_memory(generic_model(p), GPUS[gpu], context_tokens=1, sequences=0).per_gpu_gb
            for p in (small, large)]
    assert need[0] <= need[1] + 1e-9
