"""Tensor-parallel scaling from document 004's table (C7), with C8's per-card figures as cross-check.

004 gives the throughput of a TP group relative to one GPU per degree and server type. The efficiency
used by the speed model is speedup / TP (a Band). Column choice: NVLink full mesh (SXM/HGX, AMD
Infinity Fabric, Gaudi's on-chip RoCE mesh) → the SXM column; PCIe, pairwise NVLink bridges and
no link → the PCIe column (004's "PCIe paarweise (Bridge)"). Degrees between table rows (3, 5-7)
are interpolated linearly; degrees above 8 are outside the table (multi-node) and rejected.
`tp_refusal` says which degrees serving engines start a model at (the input checks' and the configurator's
common rule).

X5: C8's flat "≈ 0.92 per card" for NVLink fits TP 2 (1.8/2 = 0.90) but not TP 4 (0.83-0.90) or
TP 8 (0.69-0.81); the table per degree is used and C8 is only reported (`c8_cross_check`).
"""

from __future__ import annotations

from expert.catalog.models import Band, Gpu, LlmModel
from expert.sizing.constants import Assumptions, resolve

TP_DEGREES = (1, 2, 4, 8)
FULL_MESH = {"nvlink", "infinity-fabric", "ethernet"}


VLLM_HEADS_RULE = ("vLLM ModelConfig.verify_with_parallel_config: total_num_attention_heads % "
                   "tensor_parallel_size == 0")
VLLM_KV_RULE = ("vLLM QKVParallelLinear: total_num_kv_heads % tp_size == 0, or tp_size % "
                "total_num_kv_heads == 0 when TP ≥ the KV heads, which it then replicates")


def _kv_split(model: LlmModel, tp: int) -> bool:
    """Whether vLLM splits (or replicates) `model`'s KV heads over TP `tp` (`VLLM_KV_RULE`); an MLA
    model's one latent is not split by heads."""
    kv = model.kv_heads
    return bool(model.kv_lora_rank) or (kv % tp == 0 if tp < kv else tp % kv == 0)


def engine_tp_degrees(model: LlmModel | None) -> tuple[int, ...]:
    """The TP degrees 1-8 that serving engines start `model` at: those dividing its attention heads (vLLM
    refuses others: "Total number of attention heads (32) must be divisible by tensor parallel size",
    `VLLM_HEADS_RULE`; llm-d planner, modelling-anchors.md §2.2) and dividing its KV heads or divided by
    them (`VLLM_KV_RULE`: phi-4's 10 KV heads refuse TP 4, qwen3-14b's 8 refuse TP 5). A generic model's
    heads are a template's, so every degree counts, as for no model (a setup without a catalog model). The
    planner also asks TP to divide the vocabulary, which vLLM pads instead (its vocab-parallel embedding
    rounds each rank's share up), so that is not checked here."""
    return tuple(t for t in range(1, TP_DEGREES[-1] + 1) if model is None or model.generic
                 or (model.heads % t == 0 and _kv_split(model, t)))


def tp_refusal(model: LlmModel | None, tp: int) -> tuple[str, str] | None:
    """(why, allowed) when engines cannot serve `model` at TP `tp` within one node, else None; the why
    names the rule and its source."""
    allowed = ", ".join(map(str, engine_tp_degrees(model)))
    if tp > TP_DEGREES[-1]:
        return (f"tensor parallelism {tp} spans more than one 8-GPU node, and serving across nodes (TP or "
                "pipeline parallelism over several nodes) is not modelled", f"{allowed} within one node")
    if tp in engine_tp_degrees(model):
        return None
    degrees = (f"{allowed}: the degrees up to 8 dividing {model.heads}"
               + ("" if model.kv_lora_rank else f" whose {model.kv_heads} KV heads split evenly"))
    if model.heads % tp:
        return (f"{model.id}'s {model.heads} attention heads are not divisible by tensor "
                f"parallelism {tp}; vLLM refuses to start ({VLLM_HEADS_RULE})", degrees)
    return (f"{model.id}'s {model.kv_heads} KV heads cannot be split evenly over tensor parallelism {tp} "
            f"({model.kv_heads} and {tp}: neither divides the other); vLLM refuses to start ({VLLM_KV_RULE})",
            degrees)


def link_word(column: str) -> str:
    """The setup-file interconnect word of a 004 column: 'nvlink' for 'sxm', else 'pcie' (`column_for`'s inverse,
    the link a replica of that column's all-reduces cross)."""
    return "nvlink" if column == "sxm" else "pcie"


def column_for(gpu: Gpu | None = None, interconnect: str | None = None) -> str:
    """'sxm' or 'pcie': the 004 column for an explicit interconnect or the GPU's own link kind.

    `interconnect` takes the setup-file words: nvlink → sxm; pcie, pcie-bridge, none → pcie.
    """
    if interconnect is not None:
        if interconnect in ("nvlink", "sxm"):
            return "sxm"
        if interconnect in ("pcie", "pcie-bridge", "none", "nvlink-bridge"):
            return "pcie"
        raise ValueError(f"unknown interconnect '{interconnect}' (allowed: nvlink, pcie, pcie-bridge)")
    if gpu is not None and gpu.interconnect.kind in FULL_MESH:
        return "sxm"
    return "pcie"


def _entry(table, column: str, tp: int):
    return table[(column, tp)]


def tp_speedup(tp: int, column: str, assumptions: Assumptions | None = None) -> tuple[float, Band]:
    """Throughput of a TP group relative to one GPU: (point, band), from 004's table (C7)."""
    a = resolve(assumptions)
    if tp < 1 or tp > TP_DEGREES[-1]:
        raise ValueError(f"tensor_parallel {tp} is outside document 004's table (1-8); "
                         "multi-node parallelism is not modelled")
    if tp in TP_DEGREES:
        c = _entry(a.tp_scaling, column, tp)
        return c.value, c.band
    lower = max(d for d in TP_DEGREES if d < tp)
    upper = min(d for d in TP_DEGREES if d > tp)
    w = (tp - lower) / (upper - lower)
    lo, hi = _entry(a.tp_scaling, column, lower), _entry(a.tp_scaling, column, upper)
    mix = lambda x, y: x + w * (y - x)  # noqa: E731 - linear interpolation between table rows
    return mix(lo.value, hi.value), Band(low=mix(lo.low, hi.low), high=mix(lo.high, hi.high))


def tp_efficiency(tp: int, column: str, assumptions: Assumptions | None = None) -> tuple[float, Band]:
    """Per-card efficiency speedup / TP: (point, band); 1.0 at TP 1."""
    point, band = tp_speedup(tp, column, assumptions)
    return point / tp, Band(low=band.low / tp, high=band.high / tp)


def tp_efficiency_point(tp: int, column: str, assumptions: Assumptions | None = None) -> float:
    """`tp_efficiency(tp, column, assumptions)[0]`: the point alone."""
    return tp_efficiency(tp, column, assumptions)[0]


def tp_source(tp: int, column: str, assumptions: Assumptions | None = None) -> str:
    """The citation of the table row used (or of its neighbours when interpolated)."""
    a = resolve(assumptions)
    if tp in TP_DEGREES:
        return _entry(a.tp_scaling, column, tp).cite()
    return f"interpolated between 004 table rows around TP {tp} ({column} column)"


def c8_cross_check(tp: int, column: str, assumptions: Assumptions | None = None) -> dict:
    """C8's per-card figure beside C7's per-degree efficiency, and whether they agree (X5)."""
    a = resolve(assumptions)
    _, table = tp_efficiency(tp, column, a)
    c8 = a.c8_sxm_per_card.band if column == "sxm" else a.c8_pcie_per_card.band
    overlap = not (c8.high < table.low or c8.low > table.high)
    return {"tp": tp, "column": column, "c7_efficiency": table, "c8_per_card": c8, "consistent": overlap}
