"""MoE prefill as dense part + routed experts, each on its own roofline (issue 32 item 1,
`expert/sizing/moe_prefill.py`): the routed parameters per token, the split, and the prefill that
`speed.Roofline` (estimate, configurator and audit alike) computes with it. Expected values by hand."""

from __future__ import annotations

import pytest

from expert.catalog import load_catalog
from expert.sizing.constants import DEFAULT
from expert.sizing.moe_prefill import routed_params, split_s
from expert.sizing.speed import Roofline

CAT = load_catalog()


def _roof(model, gpu, tp, precision, prompt):
    # point MBU 0.725 and MFU 0.6, TP efficiency 1 (eta), NVLink at TP >= 2, no floor, no host times
    return Roofline(CAT.model(model), CAT.gpu(gpu), tp, precision, prompt, 2, precision, DEFAULT.mbu.value,
                    DEFAULT.mfu.value, 1.0, DEFAULT, link="nvlink" if tp > 1 else None)


def test_routed_params_deepseek_v3():
    # k (total - active) / (E - k) = 8 x (671 - 37)e9 / (256 - 8) = 8 x 634e9 / 248 = 20.4516e9
    # (one expert over the 58 MoE layers: 2.556e9 = 58 x 3 x 7 168 x 2 048 = 2.554e9, config.json)
    assert routed_params(CAT.model("deepseek-v3")) == pytest.approx(20.4516e9, rel=1e-5)


def test_routed_params_qwen3_30b_a3b():
    # 8 x (30.5 - 3.3)e9 / (128 - 8) = 8 x 27.2e9 / 120 = 1.81333e9
    assert routed_params(CAT.model("qwen3-30b-a3b")) == pytest.approx(1.81333e9, rel=1e-5)


def test_routed_params_dense_model_is_zero():
    assert routed_params(CAT.model("llama-3.1-8b")) == 0.0


def test_split_adds_the_two_rooflines():
    # dense part compute-bound: max(4e12 / 1e15, 1e9 / 2e12) = max(4, 0.5) ms = 4 ms;
    # routed part memory-bound: max(5e12 / 1e15, 40e9 / 2e12) = max(5, 20) ms = 20 ms; sum 24 ms
    # (one roofline over both would take max(9 ms, 20.5 ms) = 20.5 ms)
    assert split_s(4e12, 5e12, 1e9, 40e9, 1e15, 2e12) == pytest.approx(0.024)


def test_deepseek_v3_1024_tokens_on_8x_h200_term_by_term():
    # DeepSeek-V3 FP8 (1 byte/param) at TP 8 on H200s: prefill rate 989.4 x fp8_prefill_speedup 1.75 =
    # 1 731.45 TFLOPS x MFU 0.6 = 1.03887e15 FLOP/s per GPU; weights at 4 800 GB/s x MBU 0.725 = 3 480 GB/s.
    # Routed: 2 x 20.4516e9 x 1 024 = 4.18849e13 FLOPs / 8 / 1.03887e15 = 5.0397 ms; touched experts
    #   256 x 2.55645 GB x (1 - (1 - 8/256)^1024 = 1 - 7.6e-15) = 654.452 GB / 8 / 3 480 = 23.5076 ms
    #   -> 23.5076 ms (32 rows per expert: memory-bound).
    # Dense: 2 x 37e9 x 1 024 + 61 x 128 x 192 x 1 024^2 = 7.5776e13 + 1.57195e12 = 7.73480e13, less the
    #   routed 4.18849e13 = 3.54631e13 / 8 / 1.03887e15 = 4.2670 ms; its weights (shared 37 - 8 x 2.55645 =
    #   16.5484 GB less the input embedding 1.8534 GB) / 8 / 3 480 = 0.5278 ms -> 4.2670 ms.
    # All-reduce: 2 x 61 layers x 1 024 x 7 168 x 2 B x 2 x 7/8 / 450 GB/s = 6.9649 ms.
    # 4.2670 + 23.5076 + 6.9649 = 34.7395 ms. The dense roofline gave max(7.73480e13 / 8 / 1.03887e15 =
    # 9.3068 ms, all weights 84.1067 GB per GPU / 3 480 = 24.1686 ms) + 6.9649 = 31.1335 ms.
    assert _roof("deepseek-v3", "h200", 8, "fp8", 1024).prefill(1024, 1) == pytest.approx(34.7395e-3, rel=1e-4)


def test_qwen3_30b_a3b_1024_tokens_on_a100():
    # bf16 on one A100 SXM 80 GB: 312 TFLOPS x 0.6 = 1.872e14 FLOP/s; 2 039 GB/s x 0.725 = 1 478.275 GB/s.
    # Routed: 2 x 1.81333e9 x 1 024 = 3.71371e12 / 1.872e14 = 19.838 ms; touched experts 128 x 0.226667e9
    #   x 2 B = 58.0267 GB (all: 1 - (1 - 8/128)^1024 = 1 - 2e-29) / 1 478.275 = 39.253 ms -> 39.253 ms.
    # Dense: 2 x 3.3e9 x 1 024 + 48 x 32 x 128 x 1 024^2 = 6.96456e12, less 3.71371e12 = 3.25085e12 /
    #   1.872e14 = 17.366 ms; weights (2.97333 - 0.62233) GB / 1 478.275 = 1.590 ms -> 17.366 ms.
    # 17.366 + 39.253 = 56.619 ms; the dense roofline gave max(37.20, 61 GB / 1 478.275 = 41.265) = 41.265 ms
    # (measured TTFT 70.3 ms = this + vLLM's 6.5 ms per request - 10 %: tests/data/measurements.yaml tt340).
    assert _roof("qwen3-30b-a3b", "a100-80gb-sxm", 1, "bf16", 1024).prefill(1024, 1) \
        == pytest.approx(56.619e-3, rel=1e-4)


def test_dense_model_keeps_the_dense_roofline():
    # Llama-3.1-8B fp16 on one H100 SXM, 1 024 tokens: 2 x 8e9 x 1 024 + 32 x 32 x 128 x 1 024^2 =
    # 1.65207e13 FLOPs / (989.4 TFLOPS x 0.6 = 5.9364e14) = 27.830 ms > weights 14.949 GB / 2 428.75 GB/s
    # = 6.155 ms: compute-bound, as before the split.
    assert _roof("llama-3.1-8b", "h100-sxm", 1, "fp16", 1024).prefill(1024, 1) == pytest.approx(27.830e-3, rel=1e-4)


def test_long_prompt_is_compute_bound_in_both_parts():
    # DeepSeek-V3 at 8 192 tokens on 8 x H200: routed 2 x 20.4516e9 x 8 192 / 8 / 1.03887e15 = 40.318 ms
    # exceeds its 23.508 ms of expert reads, so both parts are compute-bound and the split is the whole
    # prompt's work over the rate, as the dense roofline: (2 x 37e9 x 8 192 + 1 499 136 x 8 192^2) / 8 /
    # 1.03887e15 = (6.06208e14 + 1.00605e14) / 8.31096e15 = 85.046 ms, + the all-reduce 8 x 6.9649 = 55.719 ms.
    assert _roof("deepseek-v3", "h200", 8, "fp8", 8192).prefill(8192, 1) \
        == pytest.approx((85.046 + 55.719) * 1e-3, rel=1e-4)
