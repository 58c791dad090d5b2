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

from dataclasses import dataclass
from typing import Any

from expert.catalog import Catalog
from expert.flows.audit_figures import smallest_single_gpu_gb, tuning_extras
from expert.catalog.models import Gpu
from expert.configurator.agents import Plan, PoolSearch, _pack, by_memory, by_quality
from expert.configurator.candidates import precisions, tp_degrees
from expert.configurator.operating import operating_facts
from expert.flows.audit_serving import setup_assumptions
from expert.configurator.enumeration import default_assumptions
from expert.facts.input_facts import clean_fact, workload_fact
from expert.inputs.pools import pooled_view, primary_model
from expert.inputs.setup_file import Placement, Setup
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
    return min(options, key=by_memory if small else by_quality, default=None)


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
        if best is None or _pack(chosen) < _pack(best[0]):
            best = (chosen, missing)
    return best


@dataclass
class PlacedPool:
    """The served agents of a pool setup, placed on its GPU (`chosen`: agent index → plan)."""

    ps: PoolSearch
    gpu: Gpu
    column: str
    chosen: dict[int, Plan]
    missing: list[str]

    def profile(self, i: int):
        """Agent i's replica profile at its plan."""
        p = self.chosen[i]
        return self.ps.ctxs[i].profile(self.gpu, p.precision, p.tp, self.column)

    def memory(self) -> dict[str, float]:
        """GB over all placed replicas at their operating batches: weights, KV cache, activations and
        runtime (`overhead_gb`), their total, and what the engine holds of one GPU (`usable_per_gpu_gb`)."""
        gpus = {i: p.tp * p.replicas for i, p in self.chosen.items()}
        weights = sum(self.profile(i).weights_gb * n for i, n in gpus.items())
        base = sum(self.profile(i).base_gb * n for i, n in gpus.items())
        total = sum(p.memory_gb * gpus[i] for i, p in self.chosen.items())
        usable = min((self.profile(i).usable_gb for i in gpus), default=self.gpu.memory_gb)
        return {"weights_gb": weights, "kv_cache_gb": total - base, "overhead_gb": base - weights, "total_gb": total,
                "usable_per_gpu_gb": usable}


def place_pool(setup: Setup, gpu: Gpu, catalog: Catalog) -> PlacedPool:
    """Place the setup's served agents on its GPU, sized for its serving engine."""
    w = setup.workload.model_copy(update={"engine": setup.serving_engine})
    ps = PoolSearch(w, catalog, default_assumptions(catalog))
    column = column_for(gpu, setup.interconnect)
    return PlacedPool(ps, gpu, column, *placements(ps, setup, gpu, column))


def pool_memory(workload, catalog: Catalog, groups: list[dict]) -> dict[str, float]:
    """Memory of a recommended pool (the report's `pool_groups`), summed over its serving groups, with the
    free share of what the engines hold of all its GPUs (`reserve_ratio`)."""
    sums: dict[str, float] = {}
    usable = 0.0
    for g in groups:
        if not g["agents"]:
            continue
        setup = Setup.model_validate({"gpu": g["gpu"], "count": g["count"], "placement": g["agents"],
                                      "workload": workload.model_dump(exclude_unset=True)}, strict=False)
        m = place_pool(setup, catalog.gpu(g["gpu"]), catalog).memory()
        usable += m.pop("usable_per_gpu_gb") * g["count"]
        for key, value in m.items():
            sums[key] = sums.get(key, 0.0) + value
    if usable > 0:
        sums["reserve_ratio"] = 1 - sums["total_gb"] / usable
    return sums


def _pool_load(serving: dict[int, dict[str, Any]], average: dict[int, float]) -> dict[str, float]:
    """The placed agents' load summed for the capacity section: their averages and peaks, 000 D3's concurrent
    inferences (each agent's, from `operating_facts`) and the peak-weighted complete answer, so that
    Σ concurrent = Σ peak × that time / U as for one model; {} when none has a peak."""
    served = [i for i, f in serving.items() if f.get("serving_peak_rps")]
    peak = sum(serving[i]["serving_peak_rps"] for i in served)
    if peak <= 0:
        return {}
    return {"pool_average_rps": sum(average[i] for i in served), "pool_peak_rps": peak,
            "pool_concurrent_inferences": sum(serving[i]["concurrent_inferences"] for i in served),
            "pool_inference_time_s": sum(serving[i]["serving_peak_rps"] * serving[i]["estimated_e2e_s"]
                                         for i in served) / peak}


def pool_extras(setup: Setup, gpu: Gpu, catalog: Catalog) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """(extra setup fields, extra facts) of a pool setup (module docstring)."""
    from expert.sizing.memory import inference_memory

    engine = setup.serving_engine
    pool = place_pool(setup, gpu, catalog)
    ps, chosen, missing, w, a = pool.ps, pool.chosen, pool.missing, pool.ps.w, pool.ps.a
    names = {i: w.agents[i].name for i in chosen}
    serving = {i: operating_facts(ps.ws[i], ps.ctxs[i].model, gpu, p.tp * p.replicas, p.tp, p.precision,
                                  setup.interconnect, setup_assumptions(setup, a), engine) for i, p in chosen.items()}
    needed = _pack(chosen)
    fits = bool(chosen)  # the agents that cannot run at all are named by their own rule (u4-pool-*)
    m = pool.memory()
    usable, memory, weights = m["usable_per_gpu_gb"], m["total_gb"], m["weights_gb"]
    room = {i: pool.profile(i).seq_mem * p.replicas for i, p in chosen.items()}
    peak = max(1, w.concurrency or 1)
    tightest = min(room, key=lambda i: room[i], default=None)
    extra: dict[str, Any] = {
        "fits": fits or setup.running, "fits_estimate": fits and not missing, "running": setup.running, "engine": engine,
        "serving_precision": ",".join(sorted({p.precision for p in chosen.values()})) or None,
        "tensor_parallel": max((p.tp for p in chosen.values()), default=setup.tensor_parallel),
        "tensor_parallel_used": max((p.tp for p in chosen.values()), default=1),
        "need_per_gpu_gb": max((p.memory_gb for p in chosen.values()), default=None),
        "usable_per_gpu_gb": usable, "usable_vram_gb": usable * setup.count,
        "used_per_gpu_gb": memory / setup.count,
        "estimated_max_sequences": room.get(tightest), "peak_sequences": peak,
        "room_below_peak": tightest is not None and room[tightest] < peak,
        "context_tokens_used": max((c.context for c in ps.ctxs), default=None),
        "weights_share": weights / (gpu.memory_gb * setup.count),
        "pool_agents": len(chosen) + len(missing), "pool_gpus_needed": needed,
        "pool_gpus_missing": needed - setup.count,
        "pool_memory_gb": memory, "pool_agents_not_placed": ", ".join(missing) or None}
    if fits and not missing and needed <= setup.count:
        extra["reserve_ratio"] = 1 - memory / (usable * setup.count)
    extra.update(_pool_load(serving, {i: ps.ws[i].average_rps for i in serving}))
    # GPUs the pool needs: its replicas packed, plus the ones each agent lacks to serve its own peak
    lacking = sum(max(0, serving[i].get("serving_gpus_needed", 0) - p.replicas * p.tp) for i, p in chosen.items())
    extra["pool_gpus_needed_at_peak"] = needed + lacking
    worst = max((i for i in serving if serving[i].get("serving_load_ratio") is not None),
                key=lambda i: serving[i]["serving_load_ratio"], default=None)
    if worst is not None:
        extra.update(serving[worst])
        extra["serving_worst_agent"] = names[worst]
    sizing: dict[str, Any] = {"t": "sizing", "weights_gb": weights, "total_gb": memory,
                              "kv_cache_gb": m["kv_cache_gb"]}  # at each replica's operating batch
    widest = max(chosen, key=lambda i: (chosen[i].tp, ps.ctxs[i].model.params_b), default=None)
    if widest is not None:  # c9: could one GPU hold the replica that is split the most?
        p, ctx = chosen[widest], ps.ctxs[widest]
        one = inference_memory(ctx.model, gpu, p.tp, p.tp, p.precision, ctx.context, 1, w.kv_precision_at(p.precision), engine=engine)
        sizing["min_gpu_memory_gb"] = smallest_single_gpu_gb(catalog, one, ctx.model)
        sizing["runtime_gb"] = one.activation_gb + one.overhead_gb
    tuned = [i for i in chosen if ps.ws[i].tuning.enabled]
    if tuned and setup.training_gpus == "serving":
        i = max(tuned, key=lambda j: ps.ctxs[j].model.params_b)
        p = chosen[i]
        tuning_extras(ps.ws[i], ps.ctxs[i].model, gpu, setup.count, catalog, pool.profile(i).weights_gb * p.tp,
                      extra, sizing, setup.ram_gb)
    view = w.model_copy(update={"agents": [w.agents[i] for i in served(setup)]})
    model = primary_model(view, catalog)
    return extra, [workload_fact(pooled_view(view, model), model), clean_fact(sizing)]
