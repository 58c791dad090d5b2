"""Capacity: load → concurrency (000 D3) → sequences per replica → replicas and GPUs → utilisation.

000 D3: GPU capacity = requests per second × inference time / target utilisation; the worked example
50 × 0.8 / 0.7 = 57.14 is reported by the document as "about 57" (rounded, not ceiled). This module
applies D3 to the *peak* request rate (a daily volume's average × peak_to_average; a rate per second
as given), so the 70 % target utilisation
holds at peak; `average_utilization` shows the mean load. Sequences per replica are the smaller of
the memory limit (`memory.max_sequences`) and the latency limit (the largest batch whose end-to-end
latency, TTFT + output × TPOT, stays within the target). Replicas = ceil(concurrency / sequences
per replica); GPUs = replicas × TP.
"""

from __future__ import annotations

import math

from expert.catalog.models import Gpu, LlmModel
from expert.sizing.constants import Assumptions, resolve
from expert.sizing.results import Capacity, Provenance
from expert.sizing.speed import performance


def request_rates(requests_per_day: float | None = None, requests_per_second: float | None = None,
                  peak_to_average: float | None = None,
                  assumptions: Assumptions | None = None) -> tuple[float, float]:
    """(average, peak) requests per second from a daily volume or a rate. A rate is the load to size
    for (peak = rate) unless `peak_to_average` is passed; a daily volume gets `peak_to_average`
    (default 3). `Workload.peak_factor` decides this for a workload (docs/slo.md)."""
    a = resolve(assumptions)
    if requests_per_day is not None and requests_per_second is not None:
        raise ValueError("give requests_per_day or requests_per_second, not both")
    if peak_to_average is None and requests_per_second is not None:
        peak_to_average = 1.0
    ratio = a.peak_to_average.value if peak_to_average is None else peak_to_average
    average = requests_per_second if requests_per_second is not None \
        else (requests_per_day or 0.0) / a.seconds_per_day.value
    return average, average * ratio


def concurrent_inferences(rps: float, inference_time_s: float, target_utilization: float | None = None,
                          assumptions: Assumptions | None = None) -> float:
    """000 D3: rps × inference time / target utilisation (a float; the document rounds it)."""
    util = resolve(assumptions).target_utilization.value if target_utilization is None else target_utilization
    if not 0 < util <= 1:
        raise ValueError("target_utilization must be in (0, 1]")
    return rps * inference_time_s / util


def latency_limited_batch(model: LlmModel, gpu: Gpu, tensor_parallel: int, precision: str, prompt_tokens: int,
                          output_tokens: int, latency_target_s: float, max_batch: int,
                          interconnect: str | None = None, assumptions: Assumptions | None = None) -> int:
    """Largest batch ≤ max_batch whose end-to-end latency meets the target (0 if not even batch 1)."""
    def ok(batch: int) -> bool:
        return performance(model, gpu, tensor_parallel, tensor_parallel, precision, batch, prompt_tokens,
                           output_tokens, interconnect=interconnect,
                           assumptions=assumptions).e2e_latency_s <= latency_target_s

    if max_batch < 1 or not ok(1):
        return 0
    lo, hi = 1, max_batch
    while lo < hi:  # latency grows with batch: binary search for the last batch that meets it
        mid = (lo + hi + 1) // 2
        lo, hi = (mid, hi) if ok(mid) else (lo, mid - 1)
    return lo


def meets_targets(perf, slo) -> bool:
    """Whether a `Performance` meets latency targets (`expert.inputs.slo.Targets`) without queueing, within
    the tolerance: TTFT = prefill + one decode step, TPOT, end to end (docs/slo.md)."""
    from expert.inputs.slo import SLO_TOLERANCE

    limit = 1 + SLO_TOLERANCE
    ttft, tpot = perf.ttft_s + perf.tpot_s, perf.tpot_s
    return ((slo.ttft_s is None or ttft <= slo.ttft_s * limit) and (slo.tpot_s is None or tpot <= slo.tpot_s * limit)
            and (slo.e2e_s is None or perf.e2e_latency_s <= slo.e2e_s * limit))


def slo_limited_batch(model: LlmModel, gpu: Gpu, tensor_parallel: int, precision: str, prompt_tokens: int,
                      output_tokens: int, slo, max_batch: int, interconnect: str | None = None,
                      assumptions: Assumptions | None = None, engine: str | None = None) -> int:
    """Largest batch ≤ max_batch meeting the latency targets `slo` (0 if not even batch 1) on `engine`."""
    def ok(batch: int) -> bool:
        return meets_targets(performance(model, gpu, tensor_parallel, tensor_parallel, precision, batch,
                                         prompt_tokens, output_tokens, interconnect=interconnect,
                                         assumptions=assumptions, engine=engine), slo)

    if max_batch < 1 or not ok(1):
        return 0
    lo, hi = 1, max_batch
    while lo < hi:
        mid = (lo + hi + 1) // 2
        lo, hi = (mid, hi) if ok(mid) else (lo, mid - 1)
    return lo


def capacity(average_rps: float, peak_rps: float, inference_time_s: float, sequences_per_replica: int,
             tensor_parallel: int = 1, target_utilization: float | None = None, count: int | None = None,
             sequences_memory: int | None = None, sequences_latency: int | None = None,
             assumptions: Assumptions | None = None, latency_met: bool | None = None) -> Capacity:
    """Replicas and GPUs for the peak load, and the utilisation at `count` GPUs (module docstring)."""
    a = resolve(assumptions)
    util = a.target_utilization.value if target_utilization is None else target_utilization
    needed = concurrent_inferences(peak_rps, inference_time_s, util, a)
    busy_peak, busy_avg = peak_rps * inference_time_s, average_rps * inference_time_s
    replicas = max(1, math.ceil(needed / sequences_per_replica - 1e-9)) if sequences_per_replica > 0 else None
    utilization = average_utilization = None
    if count is not None and sequences_per_replica > 0 and count >= tensor_parallel:
        slots = (count // tensor_parallel) * sequences_per_replica
        utilization, average_utilization = busy_peak / slots, busy_avg / slots
    prov = {
        "concurrent_inferences": Provenance(formula="peak rps × inference time / target utilisation (000 D3)",
                                            sources=[a.target_utilization.cite()]),
        "replicas_needed": Provenance(formula="ceil(concurrent inferences / sequences per replica)"),
        "gpus_needed": Provenance(formula="replicas × tensor parallel"),
        "utilization": Provenance(formula="peak rps × inference time / (replicas × sequences per replica)"),
    }
    return Capacity(
        average_rps=average_rps, peak_rps=peak_rps, inference_time_s=inference_time_s,
        concurrent_inferences=needed, concurrent_inferences_rounded=round(needed), target_utilization=util,
        sequences_per_replica=sequences_per_replica, sequences_per_replica_memory=sequences_memory,
        sequences_per_replica_latency=sequences_latency, tensor_parallel=tensor_parallel,
        replicas_needed=replicas, gpus_needed=None if replicas is None else replicas * tensor_parallel,
        count=count, utilization=utilization, average_utilization=average_utilization, latency_met=latency_met,
        provenance=prov,
    )
