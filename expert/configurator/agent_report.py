"""An agent loop's figures at the configurator's chosen configuration, for the report and the rules:
per-step and per-task latency, sessions held, KV per session, cache hit rate and cost per task.

Step time = the chosen configuration's end-to-end latency of one step at its operating batch
(cached-prefix TTFT + output × TPOT); task latency = steps × (step time + tool time)
(`agent_loop.task_latency_s`); the p90 task uses the p90 step count with the mean step time.
"""

from __future__ import annotations

from expert.configurator.agent_demand import held_per_replica, with_held
from expert.sizing import agent_loop as loop


def _replicas_needed(ctx, prof, held: bool) -> int:
    """Fewest replicas serving the peak steps, with (or without) the tool-waiting sessions' KV."""
    for r in range(1, 4097):
        p = with_held(prof, held_per_replica(ctx.agent, r)) if held else prof
        need = p.replicas_needed(ctx.peak_rps, ctx.concurrency, ctx.util, ctx.t_inf)
        if 0 < need <= r:
            return r
    return 4097


def figures(ctx, best) -> dict:
    """The report's `agent` part for candidate `best` of an agent search (`ctx.agent` set)."""
    d, a = ctx.agent, ctx.agent.agent
    gpu, tp = best.source.gpu, best.tp
    prof = ctx.profile(gpu, best.precision, tp, best.source.column)
    step = best.latency
    shape = d.shape
    new, cached = shape.mean_uncached, max(0.0, shape.mean_input - shape.mean_uncached)
    kv_session = prof.kv_seq_gb * tp
    live = loop.sessions(d.peak_task_rate, a.steps_mean, step, a.tool_time_s)
    generating = ctx.peak_rps * step
    on_gpu = live if d.kv_during_tools == "gpu" else generating
    task = loop.task_latency_s(a.steps_mean, step, a.tool_time_s)
    monthly = best.objective / ctx.months
    per_task = loop.cost_per_task(monthly, d.average_task_rate)
    kv_bound = _replicas_needed(ctx, prof, True) > _replicas_needed(ctx, prof, False)
    return {
        "kind": d.kind,
        "steps_mean": a.steps_mean, "steps_p90": a.steps_p90,
        "tasks_per_day": d.average_task_rate * 86_400, "peak_tasks_per_s": d.peak_task_rate,
        "input_tokens_per_step": shape.mean_input, "prefill_tokens_per_step": new,
        "output_tokens_per_step": a.output_tokens + a.reasoning_tokens,
        "input_output_ratio": shape.mean_input / (a.output_tokens + a.reasoning_tokens),
        "max_context_tokens": shape.max_context, "context_limit_tokens": d.context_limit,
        "compactions_per_task": shape.compactions,
        "cache_hit_rate": shape.hit_rate, "session_affinity": d.affinity, "kv_during_tools": d.kv_during_tools,
        "ttft_step_s": loop.prefill_s(ctx.model, gpu, tp, best.precision, best.source.column, new, cached, ctx.a),
        "ttft_step_uncached_s": loop.prefill_s(ctx.model, gpu, tp, best.precision, best.source.column,
                                               shape.mean_input, 0, ctx.a),
        "step_latency_s": step, "tool_time_s": a.tool_time_s,
        "task_latency_s": task,
        "task_latency_p90_s": loop.task_latency_s(a.steps_p90, step, a.tool_time_s),
        "tool_share": a.steps_mean * a.tool_time_s / task if task > 0 else 0.0,
        "sessions_peak": live, "sessions_on_gpu_peak": on_gpu,
        "kv_per_session_gb": kv_session, "kv_sessions_gb": on_gpu * kv_session,
        "kv_bound": kv_bound,
        "cost_per_task_chf": per_task,
        "cost_per_1000_tasks_chf": None if per_task is None else per_task * 1000,
        "defaults": {k: v for k, v in a.sources.items() if v != "given"},
    }
