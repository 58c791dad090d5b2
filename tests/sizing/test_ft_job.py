"""A fine-tuning run as a job (issue 12, points 1 and 6): layouts, memory with sharding, hours from
FLOPs per token, multi-node, and the documents' ratios reproduced with the cluster the tool assumes."""

from __future__ import annotations

import pytest

from expert.catalog import load_catalog
from expert.sizing.ft_job import (FULL_MFU, GPUS_PER_NODE, LORA_MFU, TRAIN_MEMORY_SHARE, flops_per_param_token,
                                  layout_on, plan_job)

CAT = load_catalog()
M70, M13 = CAT.model("llama-3.1-70b"), CAT.model("llama-2-13b")
H100, A100, L40S, B200 = (CAT.gpu(g) for g in ("h100-sxm", "a100-80gb-sxm", "l40s", "b200"))


@pytest.mark.parametrize("method, k", [("full", 6), ("lora", 4), ("qlora", 4)])
def test_flops_per_token(method, k):
    # Kaplan et al. §2.1: forward 2P + backward 4P = 6P; LoRA skips weight gradients: ≈ 4P (anchors §3.2: NeMo 3.9P)
    assert flops_per_param_token(method) == k


@pytest.mark.parametrize("gpus, low, high", [
    # anchors §3.1 table, 16-20 B/param of 70.6 B params fully sharded, plus activations (~3.7 GB) and context
    (8, 141, 177), (16, 70.6, 88), (32, 35, 44)])
def test_70b_full_memory_per_gpu_matches_the_anchor_table(gpus, low, high):
    lay = layout_on(M70, H100, "full", gpus, 1e8) if gpus > 8 else plan_job(M70, H100, "full", 1e8).layouts[3]
    states = lay.memory_per_gpu_gb - 4.5           # activations + CUDA context ≈ 4.4 GB at seq 2048, batch 1
    assert low - 1 <= states <= high


def test_70b_full_needs_two_h100_nodes_or_offload():
    """anchors §3.1: NVIDIA sizes 70B full SFT at 16 (FP8) to 32 (BF16) H100; torchtune runs it on 8 with
    CPU offload. The job: 16 GPUs = 2 nodes with an inter-node fabric, or 8 with the optimizer offloaded."""
    job = plan_job(M70, H100, "full", 100e6)
    multi = next(lay for lay in job.layouts if lay.fits and lay.sharding == "fsdp-multinode")
    assert (multi.gpus, multi.nodes) == (16, 2) and "InfiniBand" in multi.interconnect
    off = next(lay for lay in job.layouts if lay.sharding == "fsdp-offload")
    assert off.gpus == 8 and off.fits and off.host_ram_gb == pytest.approx(12 * 70.6, rel=0.01)
    one_node = next(lay for lay in job.layouts if lay.gpus == 8 and lay.sharding == "fsdp-node")
    assert not one_node.fits                        # 141 GB of states per GPU > 76 GB usable


def test_b200_holds_70b_full_on_one_node():
    # 8 × 192 GB: 1 130 GB of states / 8 = 141 GB + 4.4 GB < 182 GB usable (0.95 × 192)
    lay = plan_job(M70, B200, "full", 100e6).layout
    assert (lay.gpus, lay.nodes) == (8, 1)


def test_training_memory_is_not_the_serving_share():
    # the run owns the GPU: 0.95 of 80 GB, not vLLM's 0.9 (the 70B full job on 16 H100 needs 75.0 GB)
    lay = layout_on(M70, H100, "full", 16, 1e8)
    assert lay.usable_per_gpu_gb == pytest.approx(80 * TRAIN_MEMORY_SHARE.value)
    assert 80 * 0.9 < lay.memory_per_gpu_gb <= lay.usable_per_gpu_gb


def test_hours_from_flops_per_token():
    # 13B LoRA, 100 M tokens, 1 A100 80 GB SXM (f = 1): 4 × 13e9 × 1e8 / (312e12 × 0.30) / 3600 = 15.43 h
    lay = layout_on(M13, A100, "lora", 1, 100e6)
    assert lay.hours == pytest.approx(4 * M13.params_b * 1e9 * 1e8 / (312e12 * LORA_MFU.value) / 3600, rel=0.01)
    full = layout_on(M13, A100, "full", 4, 100e6)   # 6P at MFU 0.40 on 4 GPUs (one node)
    assert full.hours == pytest.approx(6 * M13.params_b * 1e9 * 1e8 / (4 * 312e12 * FULL_MFU.value) / 3600, rel=0.01)


def test_mfu_bands_are_the_cited_ones():
    assert (LORA_MFU.low, LORA_MFU.high) == (0.15, 0.40)     # anchors §3.2 "use 15-40 % for LoRA planning"
    assert (FULL_MFU.low, FULL_MFU.high) == (0.35, 0.50)


def test_layouts_fill_whole_nodes_beyond_one():
    job = plan_job(M70, L40S, "full", 100e6)
    assert all(lay.gpus <= GPUS_PER_NODE or lay.gpus % GPUS_PER_NODE == 0 for lay in job.layouts)
    # 32 L40S on 4 nodes: 409 GPU-h (MFU × 0.8 across nodes) beat 8 with offload: 488 GPU-h (MFU × 0.67)
    fitting = [lay for lay in job.layouts if lay.fits]
    assert job.layout is min(fitting, key=lambda lay: lay.gpu_hours)
    assert (job.layout.gpus, job.layout.sharding) == (32, "fsdp-multinode")


# --- point 6: the documents' ratios with the cluster the tool assumes -------------------------------------

def _ratio(model, slow, fast, method, gpus):
    return layout_on(model, slow, method, gpus, 1e8).hours / layout_on(model, fast, method, gpus, 1e8).hours


def test_m2_13b_l40s_three_to_four_times_slower_than_a100():
    # 000 M2: "48 h on A100 → 6 days on L40S" (3×), "3-4× longer"; 13B LoRA on one GPU of each
    r = _ratio(M13, L40S, A100, "lora", 1)
    assert 3.0 <= r <= 4.0
    assert 6.0 <= 48 * r / 24 <= 8.0


def test_u3_70b_monthly_15_days_to_5_with_h100():
    # 000 U3: "15 → 5 days" and G4 "2.8×": the 70B full job on 16 GPUs (2 nodes) of each kind
    r = _ratio(M70, A100, H100, "full", 16)
    assert 2.8 <= r <= 3.0
    assert 5.0 <= 15 / r <= 5.4


def test_g4_h100_2_8x_for_70b_lora_too():
    r = _ratio(M70, A100, H100, "lora", 8)
    assert 2.8 <= r <= 3.0
