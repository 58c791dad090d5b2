"""Auditing a pool of agents on shared GPUs (000 U4, R3, T3): the setup's GPUs serve several models.

Each served agent (`setup.placement`, default: every agent of `workload.agents`) runs at its placement —
precision, tensor parallelism, replicas — where the setup states them, else as the configurator would
place it on this GPU (`configurator.agents.PoolSearch.plan`, the fewest GPUs for its peak). The pool is
then checked as the search builds it:

- memory: each replica at its operating batch within the engine's budget of one GPU (000 M5's reserve
  on the weights of models under 20B), TP-1 replicas of different agents packed onto shared GPUs by
  memory and busy share, TP > 1 replicas on whole GPUs (`pool_gpus_needed` against `count`);
- serving: each agent's token-level check at its peak (`configurator.operating`), the worst agent's
  figures are the setup's (`serving_load_ratio`, TTFT, TPOT) and it is named (`serving_worst_agent`);
- the rules then read the pool as one setup: sums over the replicas for the memory figures, the
  largest tensor parallelism, the most demanding fine-tuned agent for the fine-tuning figures.
Measured facts win as in single-model audits: a setup that reports utilisation or latency runs.
"""

from __future__ import annotations

from typing import Any

from expert.catalog import Catalog
from expert.audit_figures import smallest_single_gpu_gb, tuning_extras
from expert.catalog.models import Gpu
from expert.configurator.agents import Plan, PoolSearch, _pack
from expert.configurator.candidates import QUALITY_ORDER, precisions, tp_degrees
from expert.configurator.operating import operating_facts
from expert.configurator.search import default_assumptions
from expert.facts import clean_fact, workload_fact
from expert.pools import pooled_view, primary_model
from expert.setup import Placement, Setup
from expert.sizing.parallel import column_for


def served(setup: Setup) -> list[int]:
    """Indices of the agents these GPUs serve: those named in `placement`, else all."""
    agents = setup.workload.agents
    if setup.placement is None:
        return list(range(len(agents)))
    return [i for i, a in enumerate(agents) if a.name in setup.placement]


def place(ps: PoolSearch, i: int, gpu: Gpu, column: str, spec: Placement, precision: str | None,
          small: bool = False) -> Plan | None:
    """Agent i's plan on this GPU: what `spec` states, the rest chosen as the pool search does (fewest
    GPUs, then better quality, then less memory; `small`: less memory before quality, the plan that
    packs better); None when no placement holds a sequence."""
    model = ps.ctxs[i].model
    wanted = spec.precision or precision
    options = [p for pr in ([wanted] if wanted else precisions(gpu, ps.ctxs[i].w))
               for tp in ([spec.tensor_parallel] if spec.tensor_parallel else tp_degrees(model, 8))
               if (p := ps.plan(i, gpu, column, pr, tp, spec.replicas)) is not None]
    quality = (lambda p: QUALITY_ORDER.get(p.precision, 9))
    key = (lambda p: (p.tp * p.replicas, p.memory_gb, quality(p))) if small else \
        (lambda p: (p.tp * p.replicas, quality(p), p.memory_gb))
    return min(options, key=key, default=None)


def placements(ps: PoolSearch, setup: Setup, gpu: Gpu, column: str) -> tuple[dict[int, Plan], list[str]]:
    """The served agents' plans (the better packing of the two policies, as `PoolSearch.bins`) and the
    names of the agents that cannot run here."""
    best = None
    for small in (False, True):
        chosen, missing = {}, []
        for i in served(setup):
            name = setup.workload.agents[i].name
            plan = place(ps, i, gpu, column, (setup.placement or {}).get(name) or Placement(), setup.precision, small)
            if plan is None:
                missing.append(name)
            else:
                chosen[i] = plan
        if best is None or (_pack(chosen) if chosen else 0) < (_pack(best[0]) if best[0] else 0):
            best = (chosen, missing)
    return best


def pool_extras(setup: Setup, gpu: Gpu, catalog: Catalog) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """(extra setup fields, extra facts) of a pool setup (module docstring)."""
    from expert.sizing.memory import inference_memory

    engine = setup.serving_engine
    w = setup.workload.model_copy(update={"engine": engine})
    a = default_assumptions(catalog)
    ps = PoolSearch(w, catalog, a)
    column = column_for(gpu, setup.interconnect)
    chosen, missing = placements(ps, setup, gpu, column)
    names = {i: w.agents[i].name for i in chosen}
    serving = {i: operating_facts(ps.ws[i], ps.ctxs[i].model, gpu, p.tp * p.replicas, p.tp, p.precision,
                                  setup.interconnect, a, engine) for i, p in chosen.items()}
    needed = _pack(chosen) if chosen else 0
    fits = bool(chosen)  # the agents that cannot run at all are named by their own rule (u4-pool-*)
    usable = min((ps.ctxs[i].profile(gpu, p.precision, p.tp, column).usable_gb for i, p in chosen.items()),
                 default=gpu.memory_gb)
    memory = sum(p.memory_gb * p.tp * p.replicas for p in chosen.values())
    weights = sum(ps.ctxs[i].profile(gpu, p.precision, p.tp, column).weights_gb * p.tp * p.replicas
                  for i, p in chosen.items())
    room = {i: ps.ctxs[i].profile(gpu, p.precision, p.tp, column).seq_mem * p.replicas for i, p in chosen.items()}
    peak = max(1, w.concurrency or 1)
    tightest = min(room, key=lambda i: room[i], default=None)
    extra: dict[str, Any] = {
        "fits": fits or setup.running, "fits_estimate": fits and not missing, "running": setup.running, "engine": engine,
        "serving_precision": ",".join(sorted({p.precision for p in chosen.values()})) or None,
        "tensor_parallel": max((p.tp for p in chosen.values()), default=setup.tensor_parallel),
        "tensor_parallel_used": max((p.tp for p in chosen.values()), default=1),
        "need_per_gpu_gb": max((p.memory_gb for p in chosen.values()), default=None),
        "usable_per_gpu_gb": usable, "usable_vram_gb": usable * setup.count,
        "estimated_max_sequences": room.get(tightest), "peak_sequences": peak,
        "room_below_peak": tightest is not None and room[tightest] < peak,
        "context_tokens_used": max((c.context for c in ps.ctxs), default=None),
        "weights_share": weights / (gpu.memory_gb * setup.count),
        "pool_agents": len(chosen) + len(missing), "pool_gpus_needed": needed,
        "pool_gpus_missing": needed - setup.count,
        "pool_memory_gb": memory, "pool_agents_not_placed": ", ".join(missing) or None}
    if fits and not missing and needed <= setup.count:
        extra["reserve_ratio"] = 1 - memory / (usable * setup.count)
    worst = max((i for i in serving if serving[i].get("serving_load_ratio") is not None),
                key=lambda i: serving[i]["serving_load_ratio"], default=None)
    if worst is not None:
        extra.update(serving[worst])
        extra["serving_worst_agent"] = names[worst]
    kv = sum((p.memory_gb - ps.ctxs[i].profile(gpu, p.precision, p.tp, column).base_gb) * p.tp * p.replicas
             for i, p in chosen.items())  # at each replica's operating batch
    sizing: dict[str, Any] = {"t": "sizing", "weights_gb": weights, "total_gb": memory, "kv_cache_gb": kv}
    widest = max(chosen, key=lambda i: (chosen[i].tp, ps.ctxs[i].model.params_b), default=None)
    if widest is not None:  # c9: could one GPU hold the replica that is split the most?
        p, ctx = chosen[widest], ps.ctxs[widest]
        one = inference_memory(ctx.model, gpu, p.tp, p.tp, p.precision, ctx.context, 1, w.kv_precision, engine=engine)
        sizing["min_gpu_memory_gb"] = smallest_single_gpu_gb(catalog, one, ctx.model)
        sizing["runtime_gb"] = one.activation_gb + one.overhead_gb
    tuned = [i for i in chosen if ps.ws[i].tuning.enabled]
    if tuned and setup.training_gpus == "serving":
        i = max(tuned, key=lambda j: ps.ctxs[j].model.params_b)
        p = chosen[i]
        tuning_extras(ps.ws[i], ps.ctxs[i].model, gpu, setup.count, catalog,
                      ps.ctxs[i].profile(gpu, p.precision, p.tp, column).weights_gb * p.tp, extra, sizing)
    view = w.model_copy(update={"agents": [w.agents[i] for i in served(setup)]})
    model = primary_model(view, catalog)
    return extra, [workload_fact(pooled_view(view, model), model), clean_fact(sizing)]
