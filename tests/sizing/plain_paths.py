"""The plain paths the fast ones replaced (issue 21), kept verbatim for the tests that compare them bit for
bit: the steady state built as an object per rate and its bisections (`expert/sizing/load.py` before the
per-replica solver), the MoE step search with its test as a function, the point scenario as one function
(`speed._scenario` before `speed.Roofline`) with the weights a step reads looked up per batch, the
engines' budgets with their numbers inline, the fine-tuning factor calibrated per call, and a job layout
that takes its model's states from the whole fine-tuning memory result."""

from __future__ import annotations

import math

from expert.catalog.models import LlmModel
from expert.sizing import load
from expert.sizing.constants import GIB, Assumptions
from expert.sizing.engine_speed import prefill_tflops
from expert.sizing.engines import device_memory_gb, sglang_reserved_gb, transformers_activation_gb
from expert.sizing.load_solver import MAX_SEQUENCES
from expert.sizing.memory import bytes_per_param, embedding_params_b, kv_cache_gb, kv_heads_per_gpu, weights_gb
from expert.sizing.speed import _attention_dim, allreduce_traffic_s, compute_tflops


def step(r: load.Replica, lam: float, rho: float) -> float:
    """`load._step` as it was: the closed form over the pieces, else the whole-sequence bisection."""
    if rho >= 1:
        return float("inf")
    if r.pieces is not None:
        best = 0.0
        for a, c in r.pieces:
            denom = 1 - rho - c * lam * r.output
            if denom <= 0:
                return float("inf")
            best = max(best, a / denom)
        floor = r.decode(1.0) / (1 - rho)
        return max(best, floor)
    return moe_step(r, lam, rho)


def moe_step(r, lam: float, rho: float) -> float:
    """`load_solver.moe_step` as it was: the step's fixed point without affine pieces (MoE), by
    doubling, then bisection on whole sequences, with the test as a function."""
    if rho >= 1:
        return float("inf")
    limit = r.cap if r.cap is not None else MAX_SEQUENCES

    def over(b: int) -> bool:
        s = r.decode(b) / (1 - rho)
        return not math.isfinite(s) or lam * r.output * s > b + 1e-9

    hi = 1
    while over(hi):
        if hi >= limit:
            return float("inf")
        hi = min(2 * hi, int(limit) if math.isfinite(limit) else 2 * hi)
    lo = max(1, hi // 2)
    while lo < hi:
        mid = (lo + hi) // 2
        lo, hi = (mid + 1, hi) if over(mid) else (lo, mid)
    return r.decode(hi) / (1 - rho)


def steady(r: load.Replica, lam: float) -> tuple:
    """`load.steady` as it was, as the tuple of `SteadyState`'s fields."""
    rho = lam * r.prompt * r.c_prefill
    s = step(r, lam, rho)
    if not math.isfinite(s):
        inf = float("inf")
        return (lam, inf, inf, inf, rho, inf, inf, inf, inf, False)
    b = max(1.0, lam * r.output * s)
    d = s * (1 - rho)
    free = max(1.0, r.chunk - b)
    service = max(r.prefill_1, r.prompt * r.c_prefill) + math.ceil(r.prompt / free) * d
    u = lam * service
    mean = service + load.wait_mean(u, service)
    p95 = service + load.wait_p95(u, service)
    flight = lam * (mean + r.output * s) if lam > 0 else 1.0
    ok = u < 1 and math.isfinite(mean) and (r.cap is None or flight <= r.cap + 1e-9)
    return (lam, s, b, flight, rho, u, mean, p95, d, ok)


def rate_max(r: load.Replica, tol: float = 1e-6) -> float:
    """`load.rate_max` as it was: bisection on the steady state built per rate."""
    hi = 1 / (r.prompt * r.c_prefill) if r.c_prefill > 0 else 1 / max(r.prefill_1, 1e-9)
    hi = min(hi, 1 / max(r.prefill_1, 1e-12))
    lo = 0.0
    while hi - lo > tol * hi:
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if steady(r, mid)[9] else (lo, mid)
    return lo


def closed_loop(r: load.Replica, concurrency: float, top: float | None = None) -> tuple:
    """`load.closed_loop` as it was, as a tuple."""
    top = rate_max(r) if top is None else top
    if concurrency <= 1:
        alone = steady(r, 0.0)
        return (1 / (alone[6] + r.output * alone[1]),) + alone[1:]
    at_top = steady(r, top)
    if at_top[3] <= concurrency:
        return at_top
    lo, hi = 0.0, top
    for _ in range(60):
        mid = (lo + hi) / 2
        st = steady(r, mid)
        lo, hi = (mid, hi) if st[9] and st[3] <= concurrency else (lo, mid)
    return steady(r, lo)


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


def budget_sizes(engine, model, gpu, tp, w, context, a) -> tuple:
    """(device, activation, overhead, pool) as `engines.budget` computed them inline."""
    dev = device_memory_gb(gpu, a)
    if engine in ("vllm", "tensorrt-llm"):
        act = (a.activation_moe_gib if model.is_moe else a.activation_dense_gib).value * GIB
        over = (a.non_torch_tp1_gib if tp == 1 else a.non_torch_tpn_gib).value * GIB
        if engine == "vllm":
            graphs = a.cuda_graph_gib.value * GIB
            return dev, act, over + graphs, dev * a.vllm_memory_utilization.value - w - act - over - graphs
        return dev, act, over, a.trt_free_fraction.value * (dev - w - act - over)
    if engine == "sglang":
        reserved = sglang_reserved_gb(dev, tp)
        return dev, reserved, 0.0, dev - reserved - w
    if engine == "llama.cpp":
        over = a.non_torch_tp1_gib.value * GIB
        act = a.llamacpp_compute_gib.value * GIB
        margin = a.llamacpp_margin_gib
        return dev, act, over + margin.value * GIB, dev - w - act - over - margin.value * GIB
    act = transformers_activation_gb(model, context)
    over = a.cuda_context_gb.value
    return dev, act, over, dev - w - act - over


def prefill_s(model, gpu, tp, precision, column, new, cached, a) -> float:
    """`agent_loop.prefill_s` as written before its rates were split out (`prefill_rates`), with the
    TP efficiency's band built."""
    from expert.sizing.constants import resolve
    from expert.sizing.memory import weights_gb
    from expert.sizing.parallel import tp_efficiency
    from expert.sizing.speed import prefill_compute_tflops, weight_only
    a = resolve(a)
    eta = tp_efficiency(tp, column, a)[0]
    wo = a.weight_only_efficiency.value if weight_only(gpu, precision) else 1.0
    flops = prefill_compute_tflops(gpu, precision, a) * 1e12 * a.mfu.value * wo
    bw = gpu.bandwidth_gbs * 1e9 * a.mbu.value * wo
    work = 2 * model.decode_params_b * 1e9 * new + model.layers * model.heads * model.head_dim * (
        new * new + 2 * cached * new)
    return max(work / tp / flops, weights_gb(model, precision, a) * 1e9 / tp / bw) / eta


def relative_efficiency(gpu, a) -> tuple:
    """`training.relative_efficiency` as it was: the calibration and the three factors per call."""
    from expert.catalog.models import Band
    from expert.sizing.training import SCENARIOS, _factor, calibration
    cal = calibration(a)
    vals = {k: _factor(gpu, *cal[k], a) for k in SCENARIOS}
    return vals["point"], Band(low=min(vals.values()), high=max(vals.values()))


def ft_layout(model, gpu, method, n, offload, work, a):
    """`ft_job._layout` as it was: the model's states from `finetune_memory` per layout, the hours as a
    closure."""
    from expert.catalog.models import Band
    from expert.sizing.finetune import finetune_memory
    from expert.sizing.ft_job import FABRIC, GPUS_PER_NODE, HOST_RAM_GB, TRAIN_MEMORY_SHARE, JobLayout, mfu_for
    m = finetune_memory(model, gpu, 1, method, "bf16", assumptions=a)
    wg, optim, per_gpu_fixed = m.weights_gb + m.gradients_gb, m.optimizer_gb, m.activation_gb + m.overhead_gb
    if offload:
        per_gpu = wg / n + per_gpu_fixed
        host = optim
    else:
        per_gpu = (wg + optim) / n + per_gpu_fixed
        host = 0.0
    usable = gpu.memory_gb * TRAIN_MEMORY_SHARE.value
    nodes = max(1, math.ceil(n / GPUS_PER_NODE))
    fits = per_gpu <= usable and host <= HOST_RAM_GB.high
    mfu, band = mfu_for(method, gpu, nodes, offload, a)
    speed = n * gpu.fp16_tflops * 1e12

    def hours(eff: float) -> float:
        return work / (speed * eff) / 3600

    h = hours(mfu)
    if n == 1:
        sharding = "single-gpu"
    elif offload:
        sharding = "fsdp-offload"
    else:
        sharding = "fsdp-node" if nodes == 1 else "fsdp-multinode"
    return JobLayout(gpu.id, n, nodes, sharding, per_gpu, usable, host, fits, mfu, h,
                     Band(low=hours(band.high), high=hours(band.low)), h * n,
                     FABRIC["en"] if nodes > 1 else None)
