"""A mixture-of-experts prefill as the two kinds of kernels it runs, each on its own roofline.

The dense roofline (`speed.Roofline.prefill`) takes max(all FLOPs / FLOPS, all weight bytes /
bandwidth) for the whole prompt, as if the step's reads and its arithmetic overlapped perfectly. In an
MoE layer they sit in different kernels that run one after the other:

- the **dense part** (attention and its projections, shared experts, dense layers, the LM head) does
  2 × (active − routed) × tokens FLOPs plus attention's L·d_attn·tokens², on few weights: compute-bound;
- the **routed experts** run as a grouped GEMM in which each touched expert sees on average
  tokens × k / E rows (1 024 tokens of DeepSeek-V3: 32 rows per expert; of Qwen3-30B-A3B: 64). A GEMM
  of m rows does 2m FLOPs per weight, m per byte of a 16-bit weight, below the GPU's ridge point (A100:
  312 TFLOPS / 2.04 TB/s = 153; H100 SXM: 989 / 3.35 = 295) until m reaches a few hundred rows:
  memory-bound. Every touched expert's weights are read once:
  E × e × (1 − (1 − k/E)^tokens) (uniform routing, the same touched-expert count as decode,
  `speed.read_terms`).

Each layer waits for its attention before its experts, so the two times add per layer, hence over the
model: prefill = max(dense FLOPs / FLOPS, dense bytes / BW) + max(routed FLOPs / FLOPS, touched
expert bytes / BW). Nothing is fitted: the efficiencies (MFU, MBU, the weight-only factor) are the
roofline's own. For a dense model the routed part is zero and the result is the dense roofline's; a
model without expert counts keeps the dense roofline (no split known).

Not added, for want of a term the data support (docs/accuracy.md, "MoE prefill"): MLA's up-projection
in prefill (no absorbed weights) is a GEMM on kv_b_proj, a weight already counted in the active
parameters (2 × active × tokens). Without expert parallelism, the default of TensorRT-LLM ('Tensor
Parallel (default pattern)', nvidia.github.io/TensorRT-LLM/advanced/expert-parallelism.html), SGLang
(--moe-a2a-backend 'none (default) ... Uses All-Reduce or All-Gather',
docs.sglang.io/advanced_features/expert_parallelism.html) and vLLM (EP only with
--enable-expert-parallel, docs.vllm.ai/en/latest/serving/expert_parallel_deployment/; all read
2026-12-05), each GPU holds a slice of every expert, so an MoE layer ends in the same all-reduce as a
dense one (`comm`) and no all-to-all runs. Against published runs at concurrency 1 the split raises the estimate where the
prompt is short enough that the expert reads outweigh their arithmetic (≈ 1 000 tokens) and leaves
long prompts unchanged.
"""

from __future__ import annotations

from expert.catalog.models import LlmModel


def routed_params(model: LlmModel) -> float:
    """Routed-expert parameters one token runs, in parameters: k × (total − active) / (E − k); 0 for a
    dense model or an MoE without expert counts (DeepSeek-V3: 8 × 634e9 / 248 = 20.45e9)."""
    if not model.is_moe or not model.active_params_b or not model.experts_active \
            or model.experts <= model.experts_active:
        return 0.0
    k = model.experts_active
    return k * (model.params_b - model.active_params_b) / (model.experts - k) * 1e9


def split_s(dense_work: float, routed_work: float, dense_bytes: float, routed_bytes: float, flops: float,
            bandwidth: float) -> float:
    """max(dense_work / flops, dense_bytes / bandwidth) + max(routed_work / flops, routed_bytes /
    bandwidth), s: work in FLOPs, bytes and rates per GPU (module docstring)."""
    return max(dense_work / flops, dense_bytes / bandwidth) + max(routed_work / flops, routed_bytes / bandwidth)


__all__ = ["routed_params", "split_s"]
