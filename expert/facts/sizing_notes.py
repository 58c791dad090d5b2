"""Figures the advice adds to its `sizing` fact so rules can explain where the pick departs from a
document's shortcut: D3's rule of thumb of GPUs per concurrent inference, and the generic rule's
multi-head attention for a model known by its size only (rules/documents.yaml)."""

from __future__ import annotations

import math
from typing import Any

from expert.catalog.generic import GQA_KV_HEADS

D3_PER_GPU_LOW = 50 * 0.8 / 0.70 / 3   # 000 D3's example: 57.1 concurrent inferences on three GPUs = 19.0 each
D3_PER_GPU_HIGH = 50 * 0.8 / 0.70 / 2  # ... or on two GPUs = 28.6 each ("zwei bis drei GPUs")


def d3_thumb_fields(concurrent: float, peak_rps: float, choice: dict[str, Any] | None,
                    replica_capacity_rps: float | None = None) -> dict[str, Any]:
    """D3's GPUs for `concurrent` inferences at 19-29 per GPU, and beside them the replicas the work needs:
    the peak over what one replica of the pick serves within the latency targets at the target utilisation
    (`replica_capacity_rps`, the audit's serving capacity of one replica), at least one. A single-model
    pick only (a pool's replicas are its agents'); `replicas_above_d3_thumb` only where the capacity is
    known, so a replica added for high availability or the minimum of one is not read as work."""
    if not concurrent:
        return {}
    # at least one GPU: a workload with any load runs on one (1 request a day is 0.0 concurrent inferences)
    out: dict[str, Any] = {"d3_thumb_gpus_low": max(1, math.ceil(round(concurrent / D3_PER_GPU_HIGH, 3))),
                           "d3_thumb_gpus_high": max(1, math.ceil(round(concurrent / D3_PER_GPU_LOW, 3)))}
    if choice is not None and not choice.get("pool"):
        out["pick_replicas"] = replicas = max(1, choice.get("replicas", 1))
        out["peak_rps_per_replica"] = peak_rps / replicas  # kept for rules that read it: the operating rate
        if replica_capacity_rps:
            work = max(1, math.ceil(round(peak_rps / replica_capacity_rps, 6)))
            out.update({"replica_capacity_rps": replica_capacity_rps, "work_replicas": work,
                        "replicas_above_d3_thumb": work > out["d3_thumb_gpus_high"]})
    return out


def generic_fields(model, weights_gb: float, kv_cache_gb: float) -> dict[str, Any]:
    """For a model known by its size only, sized with multi-head attention: its KV heads, KV over
    weights, and what 8 KV heads (grouped-query attention) would save."""
    if not model.generic or model.kv_heads <= GQA_KV_HEADS or weights_gb <= 0:
        return {}
    return {"generic_kv_heads": model.kv_heads, "kv_over_weights": kv_cache_gb / weights_gb,
            "gqa_kv_reduction": model.kv_heads / GQA_KV_HEADS}
