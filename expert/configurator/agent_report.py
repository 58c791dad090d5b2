"""An agent loop's figures at the configurator's chosen configuration, for the report and the rules:
per-step and per-task latency, sessions held, KV per session, cache hit rate and cost per task.

Step time = the chosen configuration's end-to-end latency of one step at its operating batch
(cached-prefix TTFT + output × TPOT); task latency = steps × (step time + tool time)
(`agent_loop.task_latency_s`); the p90 task uses the p90 step count with the mean step time.
Sessions: the mean by Little's law and its p95 (a Poisson count, `agent_loop.poisson_p95`). The cache
figures are those at the pick's replicas (`AgentDemand.shape_at(replicas)`, the function the search sizes
with): with affinity or one replica every step reaches its cache, R replicas without affinity 1/R of the
steps. The step latency stays the one the search sized, an upper bound where the pick hits more.
"""

from __future__ import annotations

import math
from dataclasses import replace

from expert.catalog.bom import m3_ram_gb
from expert.configurator.agent_demand import held_per_replica, replica_sequences, step_prefill, step_ttft, \
    tokens_allreduce_s
from expert.sizing import agent_loop as loop
from expert.sizing.engine_speed import request_overhead_s
from expert.sizing.memory import weights_gb


def offload_optimum(w, catalog, a, shared, ctx, run):
    """The search of the same workload with the tool-waiting sessions' KV offloaded to CPU memory
    (`kv_during_tools: cpu`) as `(context, optimum)`, or None when no session waits on the GPU. It tells
    whether KV residency, not compute, sets the configuration. Its context carries the peak step rate
    it was sized at: a closed loop's users settle at a lower one there, as the reloads lengthen their
    steps (QA 47 #8), an open workload's rate is the same."""
    if ctx.agent.kv_during_tools != "gpu" or ctx.agent.held_peak <= 0:
        return None
    spec = w.agent.model_copy(update={"kv_during_tools": "cpu"})
    found = run(w.model_copy(update={"agent": spec}), catalog, a, shared, optimum_only=True)
    return found[0], found[1].best


def figures(ctx, best, offload=None) -> dict:
    """The report's `agent` part for candidate `best` of an agent search (`ctx.agent` set); `offload`
    is the `(context, optimum)` with idle sessions' KV in CPU memory (`offload_optimum`)."""
    d, a = ctx.agent, ctx.agent.agent
    offload_ctx, offload = offload if offload is not None else (None, None)
    gpu, tp = best.source.gpu, best.tp
    prof = ctx.profile(gpu, best.precision, tp, best.source.column)
    step = best.latency
    # the hit rate at the pick's own replicas (agent_demand: one function): a pick with fewer replicas than
    # the search sized at hits more often (one replica: always), not the sized rate (issue 31 departure 7)
    shape = d.shape_at(best.replicas)
    routed = d.affinity or best.replicas == 1   # every step reaches the replica holding its cache
    at_pick = replace(d, shape=shape, affinity=routed)
    unlimited = replace(d, retained=1.0).shape_at(best.replicas)  # the same without a retention limit
    new = shape.mean_uncached
    request = request_overhead_s(ctx.sizing.engine, ctx.a)
    kv_session = prof.kv_seq_gb * tp / prof.kv_copies   # once, whatever the copies (MLA under TP: tp)
    kv_shared = prof.shared_kv_gb * tp      # the shared prefix per replica, all its copies (MLA: once per GPU)
    # copies of the shared prefix in a replica: one per GPU under DP attention (each rank's own cache), as a
    # session's KV under TP (an MLA latent on every GPU), else one split over the GPUs
    shared_copies = tp if prof.attention == "dp" else prof.kv_copies
    # the rate the search sized: a closed loop's at its pick's fixed point (`closed_loop.settle`), the one
    # rate every section states: N × R / (R + Z) sessions, never more than its users
    peak_tasks, average_tasks = d.peak_task_rate, d.average_task_rate
    live = a.fan_out * loop.sessions(peak_tasks, a.steps_mean, step, a.tool_time_s)
    generating = peak_tasks * a.fan_out * a.steps_mean * step
    # `cpu` offloads a share of the idle sessions (search.run: where it pays); `drop` keeps none
    share = 0.0 if d.kv_during_tools == "gpu" else (d.offload_share if d.kv_during_tools == "cpu" else 1.0)
    on_gpu = generating + (1.0 - share) * max(0.0, live - generating)
    task = loop.task_latency_s(a.steps_mean, step, a.tool_time_s)
    monthly = best.objective / ctx.months
    per_task = loop.cost_per_task(monthly, average_tasks)
    kv_bound = offload is not None and offload.objective < best.objective - 0.5
    return {
        "kind": d.kind,
        "steps_mean": a.steps_mean, "steps_p90": a.steps_p90,
        "tasks_per_day": average_tasks * 86_400, "peak_tasks_per_s": peak_tasks,
        "input_tokens_per_step": shape.mean_input, "prefill_tokens_per_step": new,
        "output_tokens_per_step": a.output_tokens + a.reasoning_tokens,
        "input_output_ratio": shape.mean_input / (a.output_tokens + a.reasoning_tokens),
        "max_context_tokens": shape.max_context, "context_limit_tokens": d.context_limit,
        "compactions_per_task": shape.compactions,
        "cache_hit_rate": shape.hit_rate, "session_affinity": routed, "kv_during_tools": d.kv_during_tools,
        "cache_hit_rate_lost_to_retention": unlimited.hit_rate - shape.hit_rate,
        "reasoning_tokens_per_step": a.reasoning_tokens, "reasoning_kept": a.reasoning_kept,
        "fan_out": a.fan_out,
        # + the server's time per request (engine_speed) and the all-reduces of the tokens prefilled, as in every
        # TTFT the search checks (issue 32; QA 44 D9)
        "ttft_step_s": step_ttft(at_pick, ctx.model, gpu, tp, best.precision, best.source.column, ctx.a) + request
        + tokens_allreduce_s(ctx.model, gpu, tp, best.source.column, step_prefill(at_pick).uncached, ctx.a),
        "ttft_step_uncached_s": loop.prefill_s(ctx.model, gpu, tp, best.precision, best.source.column,
                                               shape.mean_input, 0, ctx.a) + request
        + tokens_allreduce_s(ctx.model, gpu, tp, best.source.column, shape.mean_input, ctx.a),
        "step_latency_s": step, "tool_time_s": a.tool_time_s,
        # the final step has the mean step's shape; streamed, its user waits for the first words
        # a batch has no reader: no final answer (issue 31 departure 3)
        "final_step_latency_s": None if d.batch else (
            best.ttft if d.final_target_s is not None and d.streamed and best.ttft else step),
        "batch": d.batch,
        "step_latency_target_s": d.internal_target_s, "final_latency_target_s": d.final_target_s,
        "task_latency_s": task,
        "task_latency_p90_s": loop.task_latency_s(a.steps_p90, step, a.tool_time_s),
        "tool_share": a.steps_mean * a.tool_time_s / task if task > 0 else 0.0,
        "sessions_peak": live, "sessions_p95": loop.poisson_p95(live), "sessions_on_gpu_peak": on_gpu,
        "kv_per_session_gb": kv_session, "kv_shared_gb": kv_shared, "kv_shared_copies": shared_copies,
        "kv_session_copies": prof.kv_copies, "replicas": best.replicas,
        "kv_sessions_gb": on_gpu * kv_session * prof.kv_copies + best.replicas * kv_shared,
        # what memory must hold: each replica at the p95 of its sessions, as the memory section sizes it
        "kv_sessions_p95_gb": best.replicas * (kv_shared + kv_session * prof.kv_copies * replica_sequences(
            best.concurrency, best.replicas, best.batch, held_per_replica(d, best.replicas))),
        "attention": prof.attention if ctx.model.kv_lora_rank else None,
        "kv_bound": kv_bound,
        "offload_gpu": offload.source.gpu.id if kv_bound else None,
        "offload_count": offload.count if kv_bound else None,
        # the peak steps/s the offloaded optimum serves: its users' own rate (a closed loop's falls)
        "offload_peak_steps_per_s": offload_ctx.peak_rps if kv_bound else None,
        "offload_monthly_saving_chf": (best.objective - offload.objective) / ctx.months if kv_bound else None,
        # dropped KV waits nowhere: only `cpu` puts the idle sessions' KV in host DRAM
        **host_memory(ctx, best, at_pick, peak_tasks,
                      (share if d.kv_during_tools == "cpu" else 0.0) * max(0.0, live - generating) * kv_session),
        **compute_limit(ctx, prof, f"{tp}× {gpu.id}"),
        "cost_per_task_chf": per_task,
        "cost_per_1000_tasks_chf": None if per_task is None else per_task * 1000,
        "defaults": {k: v for k, v in a.sources.items() if v != "given"},
    }


def compute_limit(ctx, prof, replica: str) -> dict:
    """What compute allows (QA 44 D9: the report names the limit that sets the replicas): the steps/s one
    replica computes at most (`serving.rate_max`), 000 D3's utilisation and the replicas the peak needs
    for compute alone (`serving.capacity_floor`, rounded up)."""
    top = prof.rate_max()
    if top <= 0 or ctx.peak_rps <= 0:
        return {}
    return {"replica_steps_max": top, "replica_gpus": replica, "peak_steps_per_s": ctx.peak_rps,
            "utilization": ctx.util, "replicas_for_compute": max(1, math.ceil(prof.capacity_floor(ctx.peak_rps, ctx.util) - 1e-9))}


def host_memory(ctx, best, d, peak_tasks: float, host_kv_gb: float) -> dict:
    """Where the KV waits and what the host side carries (issue 31 item 6): `host_kv_gb` of offloaded
    sessions' KV in host DRAM against the host RAM of the pick — 000 M3's rule (system RAM 4 × total
    VRAM, as the bill of materials builds owned servers and packages); a cloud offer states none, so its
    RAM is left unknown. The link check shares one PCIe link per GPU (`agent_loop.host_link_gbs`): the
    reloads' GB/s per GPU at the peak against the link (offload writes move the same bytes the other
    way, a separate direction), and the time to load the weights over the same link at start. `d` is the
    agent's demand at the pick's replicas (its steps reload as often as they find their prefix there)."""
    gpu, tp = best.source.gpu, best.tp
    p = step_prefill(d)
    link = loop.host_link_gbs(gpu)
    reload_gb = loop.offload_gb(ctx.model, tp, p.reload_tokens, ctx.a, ctx.w.kv_precision_at(best.precision)) \
        if p.reloaded else 0.0
    reload_rate = peak_tasks * d.agent.steps_mean * p.reloaded * reload_gb / max(1, best.replicas)
    owned = best.source.kind in ("package", "purchase")
    ram = m3_ram_gb(gpu, best.count) if owned else None
    return {
        "kv_waits": "host" if host_kv_gb > 0 else ("dropped" if d.kv_during_tools == "drop" else "gpu"),
        "host_kv_gb": host_kv_gb,
        "host_ram_gb": ram, "host_ram_exceeded": ram is not None and host_kv_gb > ram,
        "host_ram_basis": "000-m3-rule" if owned else "not-stated",
        "host_link_gbs": link, "pcie_generation": loop.pcie_generation(gpu),
        "host_link_reload_gbs": reload_rate, "host_link_load": reload_rate / link,
        "weights_load_s": weights_gb(ctx.model, best.precision, ctx.a) / tp / link,
    }
