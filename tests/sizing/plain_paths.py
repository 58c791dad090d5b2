"""The point scenario as one function (`speed._scenario` before `speed.Roofline`), kept only for
tests/configurator/test_fewest_replicas.py, which compares the replica profile's speed set-up with it.
The sizing core's own tests check properties instead (tests/sizing/test_load_properties.py); this file
goes when that test stops importing it."""

from __future__ import annotations

from expert.catalog.models import LlmModel
from expert.sizing.constants import Assumptions
from expert.sizing.engine_speed import prefill_tflops
from expert.sizing.memory import bytes_per_param, embedding_params_b, kv_cache_gb, kv_heads_per_gpu, weights_gb
from expert.sizing.speed import _attention_dim, allreduce_traffic_s, compute_tflops


def decode_weight_gb(model: LlmModel, precision: str = "fp16", batch: int = 1,
                     assumptions: Assumptions | None = None) -> float:
    """`speed.decode_weight_gb` as it was, every term looked up per call."""
    bpp = bytes_per_param(precision, assumptions).value
    lookup = embedding_params_b(model) / 2 * max(bpp, bytes_per_param("bf16", assumptions).value)
    if not model.is_moe or not model.active_params_b:
        return weights_gb(model, precision, assumptions) - lookup
    total, active = model.params_b, model.active_params_b
    if model.experts_active and model.experts > model.experts_active:
        e, k = model.experts, model.experts_active
        expert = (total - active) / (e - k)
        shared = active - k * expert
        read = shared + e * expert * (1 - (1 - k / e) ** batch)
    else:
        read = total * (1 - (1 - active / total) ** batch)
    return min(total, read) * bpp - lookup


def scenario(model, gpu, tp, precision, batch, prompt, output, kv_precision, mbu, mfu, eta, a, wo=1.0,
             floor=0.0, link=None, overhead=0.0) -> dict:
    """`speed._scenario` as it was (with issue 22's FP8 prefill rate and eager-launch overhead)."""
    mbu, mfu = mbu * wo, mfu * wo
    flops = compute_tflops(gpu, precision, a) * 1e12 * mfu
    pflops = (prefill_tflops(gpu, precision, a) or compute_tflops(gpu, precision, a)) * 1e12 * mfu
    bw = gpu.bandwidth_gbs * 1e9 * mbu
    active = model.decode_params_b * 1e9
    w_prefill = decode_weight_gb(model, precision, 1, a) * 1e9 / tp if not model.is_moe \
        else weights_gb(model, precision, a) * 1e9 / tp

    def prefill(tokens_each: int, sequences: int, compute_only: bool = False) -> float:
        work = sequences * (2 * active * tokens_each + model.layers * _attention_dim(model) * tokens_each**2)
        comm = allreduce_traffic_s(model, gpu, tp, sequences * tokens_each, link, a)
        if compute_only:
            return work / tp / pflops / eta + comm
        return max(max(work / tp / pflops, w_prefill / bw) / eta + comm, floor)

    mean_ctx = prompt + output / 2
    kv_step = batch * kv_cache_gb(model, int(round(mean_ctx)), 1, kv_precision, a) * 1e9 \
        * kv_heads_per_gpu(model, tp) / model.kv_heads
    w_step = decode_weight_gb(model, precision, batch, a) * 1e9 / tp
    mem = (w_step + kv_step) / bw
    comp = batch * (2 * active + 2 * model.layers * _attention_dim(model) * mean_ctx) / tp / flops
    tpot = max(max(mem, comp) / eta + allreduce_traffic_s(model, gpu, tp, batch, link, a), floor) + overhead
    ttft = prefill(prompt, 1)
    prefill_batch = prefill(prompt, batch)
    return {"ttft_s": ttft, "tpot_s": tpot, "e2e_latency_s": ttft + output * tpot, "prefill_s": prefill_batch,
            "decode_tokens_per_s_per_sequence": 1 / tpot, "mem": mem, "comp": comp,
            "prefill_compute_s": prefill(prompt, 1, compute_only=True),
            "replica_throughput": batch * output / (prefill_batch + output * tpot)}
