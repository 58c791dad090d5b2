"""Engine-aware memory (expert/sizing/engines.py): each engine's budget rule by hand, and issue 11's cases.

Device memory: an H100 80 GB reports 80 GiB × 0.99 = 85.040 GB; Llama-3.1-70B in FP8 weighs
(70 − 2.101) × 1 B + 2.101 × 2 B = 72.101 GB (embedding and LM head 2 × 128 256 × 8 192 stay 16-bit).
"""

from __future__ import annotations

import pytest

from expert.catalog import load_catalog
from expert.sizing.engines import ENGINES, budget, check_engine, device_memory_gb, sglang_reserved_gb
from expert.sizing.combined import estimate
from expert.sizing.memory import inference_memory, max_sequences, weights_gb

CATALOG = load_catalog()
H100, A100, L40S, RTX4090 = (CATALOG.gpu(g) for g in ("h100-sxm", "a100-80gb-sxm", "l40s", "rtx-4090"))
L70, MISTRAL = CATALOG.model("llama-3.1-70b"), CATALOG.model("mistral-7b")
GIB = 2**30 / 1e9


def test_device_memory_as_the_driver_reports_it():
    assert device_memory_gb(H100) == pytest.approx(80 * GIB * 0.99)          # 79.2 GiB (llm-d: 79.19)
    assert device_memory_gb(L40S) == pytest.approx(48 * GIB * 15 / 16)       # 46 080 MiB with ECC
    assert weights_gb(L70, "fp8") == pytest.approx(72.101, abs=1e-3)


def test_each_engine_budget_by_hand():
    w, dev = 72.101346304, 85.0403524608
    vllm = budget("vllm", L70, H100, 1, w, 8192)
    # 0.92 × 85.040 − 72.101 − 2 GiB (2.147) − 0.25 GiB (0.268) − 0.9 GiB (0.966) = 2.754
    assert vllm.kv_pool_gb == pytest.approx(0.92 * dev - w - 2.147 - 0.268 - 0.966, abs=2e-3)
    trt = budget("tensorrt-llm", L70, H100, 1, w, 8192)
    # 0.9 × (85.040 − 72.101 − 2.147 − 0.268) = 9.471 (notes §2.3: "≈ 8-10 GiB")
    assert trt.kv_pool_gb == pytest.approx(0.9 * (dev - w - 2.147 - 0.268), abs=2e-3)
    sgl = budget("sglang", L70, H100, 1, w, 8192)
    # reserve 512 + 1.5 × 8192 + 2 × 256 + 1/8 × 1024 = 13 440 MiB = 13.125 GiB (notes: 13.1 GiB)
    assert sglang_reserved_gb(dev, 1) / GIB == pytest.approx(13.125)
    assert sgl.kv_pool_gb == pytest.approx(dev - 13.125 * GIB - w, abs=2e-3) and sgl.kv_pool_gb < 0
    cpp = budget("llama.cpp", L70, H100, 1, w, 8192)
    # 85.040 − 72.101 − compute 0.4 GiB − context 0.25 GiB − margin 1 GiB = 11.168
    assert cpp.kv_pool_gb == pytest.approx(dev - w - 1.65 * GIB, abs=2e-3)
    hf = budget("transformers", L70, H100, 1, w, 8192)
    # prefill tensors 8192 × (2 × 28 672 + 4 × 8 192) × 2 B = 1.476 GB, CUDA context 0.65 GB
    assert hf.activation_gb == pytest.approx(8192 * (2 * 28672 + 4 * 8192) * 2 / 1e9)
    assert hf.kv_pool_gb == pytest.approx(dev - w - hf.activation_gb - 0.65, abs=2e-3)
    assert all(b.usable_gb <= dev + 1e-9 for b in (vllm, trt, sgl, cpp, hf))


def test_unknown_engine_is_refused():
    assert check_engine(None) == "vllm" and set(ENGINES) >= {"vllm", "tensorrt-llm", "sglang"}
    with pytest.raises(ValueError, match="allowed: vllm"):
        check_engine("tgi")


def test_issue11_70b_fp8_on_one_h100():
    # vLLM 0.11 at 16 000 tokens did not start (llm-d); TensorRT-LLM holds one 16 000-token sequence with
    # a 16-bit KV (9.47 GB pool / 5.24 GB) and three with FP8 KV; vLLM >= 0.21 starts only at shorter
    # contexts (2.75 GB pool: two 4 096-token sequences of 16-bit KV), as notes §2.3 derive.
    assert max_sequences(L70, H100, 1, 1, "fp8", 16000, "bf16", engine="tensorrt-llm") == 1
    assert max_sequences(L70, H100, 1, 1, "fp8", 16000, "fp8", engine="tensorrt-llm") == 3
    assert max_sequences(L70, H100, 1, 1, "fp8", 16000, "bf16", engine="vllm") == 0
    assert max_sequences(L70, H100, 1, 1, "fp8", 4096, "bf16", engine="vllm") == 2
    assert not inference_memory(L70, H100, precision="fp8", context_tokens=8192, engine="sglang").fits


def test_issue11_70b_fp16_on_two_a100():
    # 70 GB of weights per GPU at TP 2: vLLM keeps 0.92 × 85.04 − 70 − 2.147 − 2.255 (2.1 GiB non-torch) −
    # 0.966 = 2.87 GB of KV per GPU, TensorRT-LLM 0.9 × (85.04 − 70 − 2.147 − 2.255) = 9.57 GB: both start
    for engine in ("vllm", "tensorrt-llm"):
        e = estimate(L70, A100, 2, "fp16", context_tokens=8192, engine=engine)
        assert e.tensor_parallel == 2 and e.memory.fits and e.max_concurrent_sequences >= 1
    assert estimate(L70, A100, 2, "fp16", context_tokens=8192, engine="tensorrt-llm").max_concurrent_sequences \
        > estimate(L70, A100, 2, "fp16", context_tokens=8192).max_concurrent_sequences


def test_issue11_mistral_awq_on_rtx_4090():
    # int4 weights: (7.3 − 0.262) × 0.5156 + 0.262 × 2 = 4.153 GB, not 9.5; AutoAWQ measured 4.35 GiB
    # (4.67 GB) at 64 + 64 tokens; the transformers peak adds KV, prefill tensors, CUDA context
    assert weights_gb(MISTRAL, "int4") == pytest.approx(4.153, abs=1e-3)
    peak = inference_memory(MISTRAL, RTX4090, precision="int4", context_tokens=128, engine="transformers")
    assert peak.per_gpu_gb == pytest.approx(4.67, rel=0.10) and peak.fits
    assert estimate(MISTRAL, RTX4090, precision="int4").memory.per_gpu_gb < 9


def test_count_is_replicas_times_tp():
    e = estimate(CATALOG.model("llama-3.1-8b"), H100, 4, "bf16", tensor_parallel=2)
    assert (e.tensor_parallel, e.replicas, e.count) == (2, 2, 4)
    assert e.kv_precision == "bf16" and estimate(L70, H100, 2, "fp8").kv_precision == "fp8"
    assert estimate(MISTRAL, RTX4090, precision="int4").kv_precision == "fp16"
