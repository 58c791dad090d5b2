"""`gpu-expert estimate` reproduces document 000's weight figures (D1) and Q2's quantised sizes."""

import pytest


@pytest.mark.parametrize("params_b, precision, low, high", [
    (7, "fp16", 14, 16),    # 000 D1: 7B ~14-16 GB in FP16; 7e9 × 2 B = 14.0 GB
    (7, "int8", 7, 8),      # 000 D1: 7-8 GB in INT8; 7e9 × 1 B (+ scales) ≈ 7.0-7.3 GB
    (13, "fp16", 26, 28),   # 000 D1: 13B 26-28 GB in FP16; 13e9 × 2 B = 26.0 GB
])
def test_000_D1_weights_in_document_band(cli, params_b, precision, low, high):
    result = cli("estimate", "--params-b", str(params_b), "--precision", precision, "--gpu", "l40s",
                 "--format", "json")
    assert result.code == 0, result.err
    weights = result.json()["memory"]["weights_gb"]
    assert low <= weights <= high


def test_000_D1_34b_needs_80gb_class(cli):
    # 34e9 × 2 B = 68 GB: "übersteigt 68 GB" → an 80 GB GPU is mandatory; a 48 GB L40S cannot hold it
    memory = cli("estimate", "--params-b", "34", "--gpu", "l40s", "--format", "json").json()["memory"]
    assert memory["weights_gb"] >= 68
    assert memory["fits"] is False


def test_000_D1_70b_exceeds_one_80gb_gpu(cli):
    # 70e9 × 2 B = 140 GB > 80 GB: multi-GPU is needed (D1)
    memory = cli("estimate", "--params-b", "70", "--gpu", "h100-sxm", "--format", "json").json()["memory"]
    assert memory["weights_gb"] >= 140
    assert memory["fits"] is False


def test_000_D1_70b_fits_two_80gb_gpus_at_int8(cli):
    # 70 GB of int8 weights (+0.26 GB of 16-bit embeddings) over TP2 ≈ 35 GB per GPU, below vLLM's
    # 0.92 × 85.04 = 78.2 GB
    memory = cli("estimate", "--params-b", "70", "--precision", "int8", "--gpu", "h100-sxm", "--count", "2",
                 "--format", "json").json()["memory"]
    assert memory["fits"] is True


def test_000_Q2_13b_int8_fits_24gb(cli):
    # Q2: quantisation allows 13B on 24 GB GPUs; 13.3 GB of int8 weights + runtime 3.4 GB < vLLM's
    # 0.92 × 24 GiB × 0.99 = 23.5 GB
    memory = cli("estimate", "--params-b", "13", "--precision", "int8", "--gpu", "rtx-4090",
                 "--format", "json").json()["memory"]
    assert memory["fits"] is True


def test_estimate_contract_fields(cli):
    data = cli("estimate", "--model", "llama-3.1-8b", "--gpu", "l40s", "--batch", "8", "--format", "json").json()
    for key in ("weights_gb", "kv_cache_gb", "activation_gb", "overhead_gb", "optimizer_gb", "gradients_gb",
                "total_gb", "per_gpu_gb", "usable_per_gpu_gb", "fits"):
        assert key in data["memory"]
    for key in ("ttft_s", "tpot_s", "decode_tokens_per_s_per_sequence", "throughput_tokens_per_s", "bound",
                "tensor_parallel_efficiency"):
        assert key in data["performance"]


def test_estimate_text_output(cli):
    result = cli("estimate", "--model", "llama-3.1-8b", "--gpu", "l40s")
    assert result.code == 0
    assert "weights 16.0 GB" in result.out  # Llama-3.1-8B: 8.0e9 × 2 B = 16.0 GB


def test_estimate_lora_reports_run_time(cli):
    data = cli("estimate", "--model", "llama-3.1-8b", "--gpu", "a100-80gb-sxm", "--mode", "lora",
               "--format", "json").json()
    assert data["fine_tuning"]["hours"] > 0
    assert data["memory"]["total_gb"] > 16  # frozen 16 GB weights + adapters + activations


def test_estimate_engine_tp_and_capacity(cli):
    # Llama-3.1-70B FP8 on one H100 at 16 000 tokens of 16-bit KV: TensorRT-LLM's 0.9-of-free pool holds
    # one sequence, vLLM's 0.92-of-total budget none (tests/sizing/test_engines.py has the arithmetic)
    args = ("estimate", "--model", "llama-3.1-70b", "--gpu", "h100-sxm", "--precision", "fp8",
            "--context-tokens", "16000", "--kv-cache-precision", "bf16", "--format", "json")
    trt = cli(*args, "--engine", "tensorrt-llm").json()
    vllm = cli(*args).json()
    assert (trt["engine"], trt["max_concurrent_sequences"], trt["memory"]["fits"]) == ("tensorrt-llm", 1, True)
    assert (vllm["engine"], vllm["max_concurrent_sequences"], vllm["memory"]["fits"]) == ("vllm", 0, False)
    # --count stays the GPU count; --tp splits it into count / TP replicas
    two = cli("estimate", "--model", "llama-3.1-8b", "--gpu", "h100-sxm", "--count", "4", "--tp", "2",
              "--format", "json").json()
    assert (two["count"], two["tensor_parallel"], two["replicas"]) == (4, 2, 2)
    text = cli("estimate", "--model", "llama-3.1-8b", "--gpu", "h100-sxm", "--count", "2", "--tp", "2").out
    assert "TP 2 × 1 replica, engine vllm" in text and "room for" in text
