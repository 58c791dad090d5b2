"""The figures of an audited setup as report parts (docs/contract.md "Audit"): its memory (used and
usable per GPU, the reserve), its capacity at the latency targets against the peak, and the comparison
with the configurator's optimum (`audit_cost`), with its one-sentence summary in the report's language.
"""

from __future__ import annotations

from typing import Any

from expert.catalog import Catalog
from expert.flows.audit_cost import optimum, residency, saving_fact, servers, setup_choice, underprovisioned
from expert.inputs.pools import is_pool
from expert.inputs.setup_file import Setup
from expert.inputs.slo import Targets
from expert.report.memory_line import addends


def memory_summary(extra: dict[str, Any], sizing: dict[str, Any], gpus: int = 1) -> dict[str, Any] | None:
    """The report's `memory` of a setup: the sizing fact's figures at the peak, and per GPU what is used
    and what the engine holds, whose ratio is the reserve (`reserve_ratio = 1 − used / usable`); `gpus`:
    the setup's, which a fine-tuning run's memory spans."""
    if "total_gb" not in sizing:
        return None
    used, usable = extra.get("used_per_gpu_gb"), extra.get("usable_per_gpu_gb")
    reserve = 1 - used / usable if used is not None and usable else extra.get("reserve_ratio")
    weights, kv, total = sizing["weights_gb"], sizing.get("kv_cache_gb", 0.0), sizing["total_gb"]
    # one model: one GPU's runtime, counted on each GPU of the TP group; a pool: all its placed GPUs' (the rest)
    one = sizing.get("runtime_gb") is not None and "pool_agents" not in extra
    runtime = sizing["runtime_gb"] if one else max(0.0, total - weights - kv)
    parts = addends(weights, kv, runtime, total, extra.get("tensor_parallel_used") or 1) if one \
        else {"overhead_gpus": None, "copies_gb": None}
    return {"weights_gb": weights, "kv_cache_gb": kv, "overhead_gb": runtime,
            "total_gb": total, "fine_tuning_gb": sizing.get("finetune_gb"),
            "fine_tuning_gpus": gpus if sizing.get("finetune_gb") else None,
            "reserve_ratio": reserve, "growth_total_gb": sizing.get("growth_total_gb"),
            "used_per_gpu_gb": used, "usable_per_gpu_gb": usable, **parts}


def capacity_summary(setup: Setup, extra: dict[str, Any]) -> dict[str, Any] | None:
    """The report's `capacity` of a single-model setup: its load, the most it serves within the latency
    targets (`serving_capacity_rps`) and their ratio; `gpus_needed` counts the
    GPUs of the setup's kind and TP that serve the peak (the setup's own count when none do)."""
    w = setup.workload
    if w is None or extra.get("serving_capacity_rps") is None:
        return None
    if is_pool(w):
        return _pool_capacity(setup, extra)
    from expert.configurator.agent_demand import rate_basis as agent_rate_basis
    from expert.inputs.slo import rate_basis

    inference = w.inference_time_s or extra["estimated_e2e_s"]  # as the search counts D3 (`operating_facts`)
    basis = rate_basis(w) if w.agent is None else agent_rate_basis(w)  # as the advice says it
    # an agent loop is served as its per-step equivalent (configurator.agent_demand): its peak and capacity
    # count LLM steps per second, so its average is that peak over the peak factor, not the task volume
    steps = w.agent is not None
    average = extra["serving_peak_rps"] / basis["peak_factor"] if steps and basis["peak_factor"] else w.average_rps
    return {**_measured(setup), "average_rps": average, "peak_rps": extra["serving_peak_rps"],
            "inference_time_s": inference,
            "concurrent_inferences": extra["concurrent_inferences"],
            "gpus_needed": extra.get("serving_gpus_needed", setup.count),
            "peak_basis": basis["basis"], "peak_factor": basis["peak_factor"],
            "serving_capacity_rps": extra["serving_capacity_rps"], "load_ratio": extra.get("serving_load_ratio"),
            "rate_unit": "steps/s" if steps else None}


def _pool_capacity(setup: Setup, extra: dict[str, Any]) -> dict[str, Any] | None:
    """A pool's `capacity`: its placed agents' load summed (`audit_pool._pool_load`), the GPUs their
    replicas need, and the busiest agent's capacity and load ratio, named (`worst_agent`)."""
    if "pool_peak_rps" not in extra:
        return None
    from expert.inputs.slo import rate_basis

    basis = rate_basis(setup.workload)   # its agents' own factors may differ: the factor is the pool's
    factor = extra["pool_peak_rps"] / extra["pool_average_rps"] if extra["pool_average_rps"] > 0 else None
    return {**_measured(setup), "average_rps": extra["pool_average_rps"], "peak_rps": extra["pool_peak_rps"],
            "inference_time_s": extra["pool_inference_time_s"],
            "concurrent_inferences": extra["pool_concurrent_inferences"],
            "gpus_needed": extra.get("pool_gpus_needed_at_peak", setup.count), "peak_basis": basis["basis"],
            "peak_factor": factor, "serving_capacity_rps": extra["serving_capacity_rps"],
            "load_ratio": extra.get("serving_load_ratio"), "worst_agent": extra.get("serving_worst_agent")}


def _measured(setup: Setup) -> dict[str, Any]:
    """The setup's measurements the capacity section shows beside the estimate."""
    return {"measured_utilization": setup.utilization.mean if setup.utilization is not None else None,
            "measured_latency_p95_s": setup.latency_p95_s}


def setup_targets(setup: Setup, catalog: Catalog):
    """The latency targets a setup's workload is checked against (`agent_targets.workload_targets`: an
    agent's per-step ones, as the advice sizes it); None without a workload."""
    w = setup.workload
    if w is None:
        return None
    from expert.configurator.agent_targets import workload_targets

    agent_loop = w.agent is not None and not is_pool(w)  # the only case that reads the model
    return workload_targets(w, catalog.resolve_model(w.model, w.params_b, path="workload.model") if agent_loop
                            else None)


def _meets(setup: Setup, slo: Targets | None, extra: dict[str, Any]) -> tuple[bool | None, str | None]:
    """(whether the setup meets its targets, what it misses): the model fits (a pool: its replicas fit
    its GPUs; else "memory"), the setup serves the peak (else "peak"), a highly available workload keeps it
    when one server fails (`highly_available`, else "availability") and the estimated TTFT/TPOT at the
    peak meet the targets within their tolerance (else "latency"); (None, None) when the model fits but the
    serving check gave no estimate. A measured p95 latency above the target it measures (`measured_late`)
    misses "latency" whatever the estimate says: measurements win (QA 46 #4).
    `slo`: the setup's targets (`setup_targets`)."""
    ttft, tpot, ratio = (extra.get(k) for k in ("estimated_ttft_p95_s", "estimated_tpot_ms", "serving_load_ratio"))
    if setup.workload is None:
        return None, None
    # before the serving check: a model that does not fit has no serving estimate, yet misses (QA 45 #4)
    if not extra.get("fits", True) or (extra.get("pool_gpus_missing") or 0) > 0:
        return False, "memory"
    if ratio is not None and ratio > 1:
        return False, "peak"
    if not highly_available(setup, extra):
        return False, "availability"
    if measured_late(setup, slo):
        return False, "latency"
    if ratio is None or ttft is None:
        return None, None
    s = slo.as_dict()
    slack = 1 + s["tolerance"]
    ok = ((s.get("ttft_target_s") is None or ttft <= s["ttft_target_s"] * slack)
          and (s.get("tpot_target_ms") is None or tpot is None or tpot <= s["tpot_target_ms"] * slack))
    return ok, None if ok else "latency"


def highly_available(setup: Setup, extra: dict[str, Any]) -> bool:
    """Whether the setup keeps the replicas its peak needs when its largest server or instance fails, over
    at least two (`configurator/availability.py`, as the search checks a pick); True where the workload
    does not ask for high availability or the serving check gave no count."""
    w = setup.workload
    if w is None or not w.high_availability or "serving_gpus_needed" not in extra:
        return True
    from expert.configurator.availability import keeps_serving

    tp = max(1, extra.get("tensor_parallel_used", setup.tensor_parallel))
    return keeps_serving(servers(setup), tp, max(1, extra["serving_gpus_needed"] // tp))


def measured_late(setup: Setup, slo: Targets | None) -> bool:
    """Whether the setup's measured p95 latency exceeds the target it measures (`Targets.p95_target_s`:
    the complete answer's where set, else the first words'), as r2-p95-latency-over-target reads it. A
    measurement has no estimate's tolerance: above the target is above it."""
    target = slo.p95_target_s if slo is not None else None
    return setup.latency_p95_s is not None and target is not None and setup.latency_p95_s > target


def comparison(setup: Setup, catalog: Catalog, extra: dict[str, Any], lang: str,
               slo: Targets | None) -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
    """(the report's `audit` part, the `optimum` fact for the rules); (None, None) without a workload.
    A setup the catalog does not price is compared too: its optimum is named, no saving is stated (no
    fact). `slo`: the setup's targets (`setup_targets`)."""
    if setup.workload is None:
        return None, None
    mine = setup_choice(setup, catalog, setup.workload.horizon_months, extra)
    from expert.flows.advice import _choice_fields

    searched, zone = residency(setup)
    raw = _plain(optimum(setup, catalog)) if states_volume(setup.workload) else None
    best = _choice_fields(raw)
    fact = saving_fact(mine, best, underprovisioned(extra, setup) or measured_late(setup, slo))
    meets, missed = _meets(setup, slo, extra)
    part = {"setup": mine, "meets_targets": meets, "missed": missed, "optimum": best,
            "is_optimum": bool(fact and fact["is_optimum"]),
            "saving_chf_month": fact["saving_chf_month"] if fact else 0.0,
            "saving_chf_horizon": fact["saving_chf_horizon"] if fact else 0.0,
            "saving_share": fact["saving_share"] if fact else 0.0, "residency": zone, "reason": None,
            "no_volume": not states_volume(setup.workload)}
    if best is not None and fact is not None and not part["is_optimum"] and part["saving_chf_month"] < HALF_CHF \
            and not (best.get("failure_domains") and not mine.get("failure_domains")):
        from expert.flows.audit_reason import reason

        part["reason"], part["why"] = reason(setup, searched, catalog, extra, part["meets_targets"],
                                             raw.get("objective_chf"), lang)
    part["summary"] = summary(part, lang)
    part.pop("why", None)
    part.pop("no_volume")
    return part, fact


def states_volume(w) -> bool:
    """Whether the workload states a load: requests, a concurrency, an agent's tasks or users (a pool: each
    agent states its own). Without one the optimum would be sized for no load, and its "saving" invented."""
    if w.agents or (w.requests_per_day or 0) > 0 or (w.requests_per_second or 0) > 0 or w.concurrency:
        return True
    return w.agent is not None and ((w.agent.tasks_per_day or 0) > 0 or w.agent.concurrent_users is not None)


def _plain(value: Any) -> dict[str, Any] | None:
    if value is None:
        return None
    return value if isinstance(value, dict) else value.model_dump()


HALF_CHF = 0.5  # a monthly difference that rounds to 0 CHF is no saving: the reports print whole francs


def summary(part: dict[str, Any], lang: str) -> str:
    """The comparison in one sentence: the optimum and its saving, or that the setup is the optimum."""
    from expert.messages import t
    from expert.report.numbers import chf, number

    best, mine = part["optimum"], part["setup"]
    if part.get("no_volume"):
        return t("report.optimum.no_volume", lang)
    if best is None and part.get("residency"):
        return t("report.optimum.none_located", lang, where=t(f"report.residency.{part['residency']}", lang))
    if best is None:
        return t("report.optimum.none", lang)
    if mine["monthly_cost_chf"] is None:  # nothing to save against: the optimum is named, no saving stated
        return t("report.optimum.unpriced", lang, setup=f"{mine['count']}× {mine['gpu']}",
                 gpu=f"{best['count']}× {best['gpu']}", precision=best["precision"], chf=chf(best["monthly_cost_chf"]))
    share = number(part["saving_share"] * 100, 1, lang, group=False, trim=True) + " %"
    if part["is_optimum"] and part["saving_chf_month"] >= 0.5:  # the same configuration, another offer
        return t("report.optimum.same_offer", lang, where=best.get("provider") or best.get("offer") or best["source"],
                 month=chf(part["saving_chf_month"]), share=share)
    if part["is_optimum"]:  # a measured miss (`measured_late`) contradicts the estimate's "optimum" (QA 46 #4)
        key = "report.optimum.same_missed" if part.get("meets_targets") is False else "report.optimum.same"
        return t(key, lang, months=mine["horizon_months"])
    if part["saving_chf_month"] < HALF_CHF and best.get("failure_domains") and not mine.get("failure_domains"):
        return t("report.optimum.dearer.available", lang, gpu=f"{best['count']}× {best['gpu']}",
                 chf=chf(best["monthly_cost_chf"]), domains=len(best["failure_domains"]))
    why = part.get("why") or t("report.optimum.why.targets", lang)
    if part["saving_chf_month"] < HALF_CHF and abs(mine["monthly_cost_chf"] - best["monthly_cost_chf"]) < HALF_CHF:
        return t("report.optimum.same_cost", lang, gpu=f"{best['count']}× {best['gpu']}", precision=best["precision"],
                 chf=chf(best["monthly_cost_chf"]), why=why)
    if part["saving_chf_month"] < HALF_CHF:  # `why`: the reason the setup is not the optimum (audit_reason.py)
        return t("report.optimum.dearer", lang, gpu=f"{best['count']}× {best['gpu']}",
                 chf=chf(best["monthly_cost_chf"]), why=why)
    return t("report.optimum.saves", lang, gpu=f"{best['count']}× {best['gpu']}", precision=best["precision"],
             chf=chf(best["monthly_cost_chf"]), month=chf(part["saving_chf_month"]),
             share=share, horizon=chf(part["saving_chf_horizon"]),
             months=best["horizon_months"])
