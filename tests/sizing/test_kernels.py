"""Quantised kernels as engines run them (issue 32, item 2): the kernel family per precision and GPU, and
a decode step that reads weights at the kernel's efficiency and the KV cache at the full MBU."""

from __future__ import annotations

import pytest
from sizing_fixtures import GPUS, MODELS

from expert.catalog import load_catalog
from expert.sizing import DEFAULT, generic_model, performance
from expert.sizing.kernels import kernel, quantised_kernel
from expert.sizing.speed import Roofline

CAT = load_catalog()


@pytest.mark.parametrize("gpu, precision, name, weight_only", [
    ("h100-sxm", "int8", "W8A8 INT8", False),          # vLLM table: INT8 W8A8 on Hopper
    ("a100-80gb-sxm", "int8", "W8A8 INT8", False),     # ... and Ampere
    ("l40s", "int8", "W8A8 INT8", False),              # ... and Ada
    ("mi300x", "int8", "W8A16 INT8", True),            # no AMD GPU in vLLM's INT8 W8A8 column
    ("b200", "int8", "W8A16 INT8", True),              # no Blackwell column for INT8 W8A8
    ("a100-80gb-sxm", "fp8", "W8A16 FP8 Marlin", True),  # FP8 on Ampere: Marlin weight-only
    ("l40s", "fp8", "W8A8 FP8", False),
    ("h100-sxm", "int4", "W4A16 INT4 Marlin", True),
    ("h100-sxm", "mxfp4", "W4A16 MXFP4 Marlin", True),  # gpt-oss off Blackwell
    ("b200", "mxfp4", "MXFP4 FP4 tensor-core", False),
])
def test_kernel_family_per_gpu(gpu, precision, name, weight_only):
    k = kernel(CAT.gpu(gpu), precision)
    assert (k.name, k.weight_only) == (name, weight_only)


def test_16_bit_has_no_kernel_line():
    assert quantised_kernel(CAT.gpu("h100-sxm"), "fp16") is None and quantised_kernel(CAT.gpu("h100-sxm"), "fp32") is None


def test_w8a8_reads_weights_at_full_mbu_and_weight_only_at_marlins():
    # Llama-3.1-8B on an H100 SXM at batch 1, prompt 100, output 100; memory time of one decode step =
    # weights read / (BW × MBU × read efficiency) + KV / (BW × MBU). The KV term is the same in both
    # precisions (fp16 cache); the weight term of int8 W8A8 is its bytes at the full MBU, of int4 W4A16
    # its bytes at × 0.75 (weight_only_efficiency); before issue 32 the KV term took the 0.75 too
    m, g, a = MODELS["llama-3.1-8b"], GPUS["h100-sxm"], DEFAULT
    bw = g.bandwidth_gbs * 1e9 * a.mbu.value

    def mem(precision, wo):
        return Roofline(m, g, 1, precision, 100, 100, "fp16", a.mbu.value, a.mfu.value, 1.0, a, wo).decode(1)[0]

    kv = mem("fp16", 1.0) - 14.949e9 / bw            # fp16 weights read per step: 14.949 GB
    assert mem("int8", 1.0) == pytest.approx(8.0e9 / bw + kv, rel=1e-3)          # 8.0 GB at 1 B
    assert mem("int4", 0.75) == pytest.approx(4.6339e9 / (bw * 0.75) + kv, rel=1e-3)


def test_quantised_is_not_slower_than_16_bit_where_engines_serve_it_faster():
    # the check: `estimate --params-b 13 --gpu h100-nvl --batch 32`: before, int8 25.2 ms and int4
    # 22.3 ms per token against fp16 23.4 ms (weight-only at 0.75 × MBU on the KV reads too); W8A8 INT8 and
    # W4A16 read fewer weight bytes and the fp16 KV cache at the same rate, so both are faster
    m, g = generic_model(13), CAT.gpu("h100-nvl")
    tpot = {p: performance(m, g, precision=p, batch=32, engine="vllm").tpot_s for p in ("fp16", "int8", "int4")}
    assert tpot["int8"] < tpot["fp16"] and tpot["int4"] < tpot["fp16"]
    assert performance(m, g, precision="int8").kernel == "W8A8 INT8"


def test_engines_without_w8a8_run_int8_weight_only():
    # gpt-fast, llama.cpp and transformers dequantise int8 weights (kernels.INT8_W8A8_ENGINES)
    h100 = CAT.gpu("h100-sxm")
    assert kernel(h100, "int8", "llama.cpp").weight_only and kernel(h100, "int8", "transformers").weight_only
    assert not kernel(h100, "int8", "sglang").weight_only and not kernel(h100, "int8", "tensorrt-llm").weight_only


def test_fp8_is_served_natively_or_with_fp8_marlin_and_nowhere_else():
    # vLLM v0.32.0 fp8 docs: W8A8 on compute capability >= 8.9, weight-only W8A16 FP8 Marlin from 7.5
    # (Turing, Ampere); a Volta card (7.0) gets neither
    from expert.sizing.kernels import fp8_served
    a100 = CAT.gpu("a100-80gb-sxm")
    assert fp8_served(CAT.gpu("h100-sxm")) and fp8_served(CAT.gpu("l40s")) and fp8_served(a100)
    assert not fp8_served(a100.model_copy(update={"architecture": "Volta (GV100)"}))


def test_a_stated_fp8_on_an_a100_decodes_faster_than_fp16_at_small_batches():
    # Llama-3.1-8B at batch 1 on an A100 SXM: FP8 Marlin reads its 8.0 GB of weights at × 0.75 (weight-only
    # efficiency), i.e. 10.7 GB-equivalent, against 14.9 GB of fp16 weights at the full MBU: faster per token,
    # as vllm-project/vllm#5975 measured (up to 2× in memory-bound scenarios); int8 W8A8 reads its bytes at
    # the full MBU, so it is faster again
    m, g = MODELS["llama-3.1-8b"], CAT.gpu("a100-80gb-sxm")
    tpot = {p: performance(m, g, precision=p, batch=1, engine="vllm").tpot_s for p in ("fp16", "fp8", "int8")}
    assert tpot["int8"] < tpot["fp8"] < tpot["fp16"]
    assert performance(m, g, precision="fp8", engine="vllm").kernel == "W8A16 FP8 Marlin"
