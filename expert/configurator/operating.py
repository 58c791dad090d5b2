"""The serving check of a given configuration (an audited setup, or the tool's own pick turned into one):
the same operating point as the search (`profile.ReplicaProfile.point`, docs/slo.md) for a fixed GPU,
count, tensor-parallel degree and precision.

- `operating_facts`: the peak load to serve, the most load the configuration serves within the latency
  targets at the target utilisation (bisection on the arrival rate), their ratio, and the estimated
  TTFT/TPOT and busy share at the peak. A 1× L40S serving 5 M requests/day shows a load ratio far above
  1 instead of passing silently (rule `d3-peak-load-exceeds-serving-capacity`). The configuration is
  checked as it stands: 000 M5's growth reserve, which the search demands of a pick, is not applied
  (`AS_IT_STANDS`; the m5-* rules judge the reserve), so a 14B fp16 model on one A100 40 GB is served at
  its measured-room capacity instead of reading "no capacity".
- `setup_from_choice`: the recommendation as a setup file (advise, then audit the same configuration);
  `setups_from_advice`: the same for a whole advice, one setup per serving group of a pool of agents
  (each with its agents' `placement`).
"""

from __future__ import annotations

from typing import Any

from expert.catalog.models import Gpu, LlmModel
from expert.configurator.profile import build_profile
from expert.sizing.constants import Assumptions, exact, resolve
from expert.sizing.parallel import column_for
from expert.inputs.slo import targets
from expert.inputs.workload import Workload

BISECTION_STEPS = 40
AS_IT_STANDS = exact(0.0, "share of VRAM", "a given configuration runs as it stands: 000 M5's 30-50 % reserve is a "
                     "planning rule for the pick (configurator), judged for a setup by rules/mistakes.yaml m5-*")


def capacity_rps(prof, replicas: int, concurrency: float, utilization: float, inference_time: float | None,
                 start: float = 1.0) -> float:
    """The most requests per second `replicas` replicas of `prof` serve within the latency targets at
    the target utilisation (bisection on the arrival rate; 0 when none)."""
    def serves(rate: float) -> bool:
        op = prof.point(replicas, rate, concurrency, utilization, inference_time)
        return op is not None and op.ok

    lo, hi = 0.0, max(1.0, start)
    while serves(hi) and hi < 1e6:
        lo, hi = hi, hi * 2
    for _ in range(BISECTION_STEPS):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if serves(mid) else (lo, mid)
    return lo


def operating_facts(w: Workload, model: LlmModel, gpu: Gpu, count: int, tp: int, precision: str,
                    interconnect: str | None = None, assumptions: Assumptions | None = None,
                    engine: str = "vllm", agent=None) -> dict[str, Any]:
    """Serving facts of `count` × `gpu` at TP `tp` for workload `w` (module docstring); {} when the
    model does not fit or the count is not a multiple of TP. `agent` (an `agent_demand.AgentDemand`,
    `w` then its per-step equivalent): steps prefill only their uncached tokens, as in the search."""
    a = resolve(assumptions).override(vram_reserve=AS_IT_STANDS)
    if tp < 1 or count % tp:
        return {}
    context = min(w.context, model.max_context)
    column = column_for(gpu, interconnect)
    shift, shared = 0.0, 0
    if agent is not None:
        from expert.configurator.agent_demand import shared_prefix_tokens, ttft_shift
        shift = ttft_shift(agent, model, gpu, tp, precision, column, w.prompt_tokens, a)
        shared = shared_prefix_tokens(agent)   # held once per replica, as in the search
    kvp = w.kv_precision_at(precision)   # as the configurator sized this candidate
    prof = build_profile(model, gpu, precision, tp, column, w.prompt_tokens, w.output_tokens, context,
                         targets(w), a, None, engine, shift, kvp, shared, w.prompt_cv)
    replicas = count // tp
    peak, util, conc, t_inf = w.peak_rps, w.target_utilization, float(w.concurrency or 0), w.inference_time_s
    if min(prof.seq_mem, prof.seq_lat) < 1:
        return {}

    lo = capacity_rps(prof, replicas, conc, util, t_inf, peak)
    facts: dict[str, Any] = {"serving_capacity_rps": lo, "serving_peak_rps": peak,
                             "serving_load_ratio": peak / lo if lo > 0 else None}
    op = prof.point(replicas, peak, conc, util, t_inf) if peak > 0 else None
    needed = prof.replicas_needed(peak, conc, util, t_inf) if peak > 0 else 0
    if needed:  # the GPUs of this kind at this TP the peak needs, as the search checks a count
        facts["serving_gpus_needed"] = needed * tp
    # 000 D3's concurrent inferences as the search counts them (`feasibility._serving`), over the complete
    # answer at the operating point; beyond capacity, at the point of the replicas the peak needs, else at
    # the most sequences a replica holds
    at = op if op is not None or not needed else prof.point(needed, peak, conc, util, t_inf)
    latency = at.e2e_s if at is not None else prof.e2e(min(prof.seq_mem, prof.seq_lat))
    facts["estimated_e2e_s"] = latency
    facts["concurrent_inferences"] = max(conc, peak * (t_inf if t_inf is not None else latency) / util)
    if op is not None:
        facts.update({"estimated_ttft_p95_s": op.ttft_s, "estimated_tpot_ms": op.tpot_s * 1000,
                      "estimated_busy_share": op.rho, "operating_batch": op.batch,
                      "operating_rate_rps": op.rate_rps, "operating_decoding": op.decoding})
    return facts


def setup_from_choice(choice: dict[str, Any], workload: dict[str, Any] | Workload,
                      training: str | None = None) -> dict[str, Any]:
    """A setup file for the recommended configuration, carrying the workload: GPU, count, interconnect,
    tensor parallelism, rented (cloud, with its offer) or owned (package, purchase), its servers (a highly
    available pick's failure domains), and the hosting country where the offer names one; `training` is the fine-tuning plan's chosen source (rented-per-run and dedicated
    runs train on separate GPUs)."""
    w = workload.model_dump(exclude_unset=True) if isinstance(workload, Workload) else dict(workload)
    setup: dict[str, Any] = {"gpu": choice["gpu"], "count": choice["count"],
                             "interconnect": choice.get("interconnect") or "pcie",
                             "tensor_parallel": choice.get("tensor_parallel", 1),
                             "ownership": "rented" if choice.get("source") == "cloud" else "owned",
                             "workload": {**w, "precision": choice.get("precision", w.get("precision", "fp16"))}}
    # the KV precision the configurator sized the pick with, always stated, so an audit of the setup reads
    # the same KV cache as the advice (`kv_precision_at`: an open precision's candidate takes its own)
    from expert.sizing.memory import kv_precision_at
    setup["workload"]["kv_cache_precision"] = kv_precision_at(setup["workload"]["precision"].split(",")[0],
                                                              w.get("kv_cache_precision"))
    if choice.get("failure_domains"):  # high availability: the servers or instances its replicas are spread over
        from expert.configurator.availability import domain_gpus

        setup["servers"] = domain_gpus(choice["replicas"], choice.get("tensor_parallel", 1),
                                       len(choice["failure_domains"]))
    if choice.get("source") == "cloud" and choice.get("offer"):  # the audit prices the pick's own offer
        setup["offer"] = choice["offer"]
    if choice.get("country"):
        setup["hosting"] = {"country": choice["country"]}
    if training in ("rented-per-run", "dedicated"):
        setup["training_gpus"] = "separate"
    setup["workload"] = setup.pop("workload")  # the workload last, as the contract's setup file shows it
    return setup


def setups_from_advice(report, workload: dict[str, Any] | Workload, catalog=None) -> list[dict[str, Any]]:
    """The advice's recommended configuration as setup files ([] when nothing fits): one for a single
    model, one per serving group of a pool (a group that only trains serves nothing to audit), each
    with its agents' placement; `catalog` names the hosting country of a pool group's offer."""
    if report.recommendation is None:
        return []
    choice = report.recommendation.model_dump()
    training = report.training_plan.chosen if report.training_plan else None
    if not report.pool_groups:
        return [setup_from_choice(choice, workload, training)]
    w = workload.model_dump(exclude_unset=True) if isinstance(workload, Workload) else dict(workload)
    out = []
    for group in report.pool_groups:
        if not group.agents:
            continue
        offer = catalog.offers.get(group.offer) if catalog is not None else None
        country = offer.country if offer is not None else (choice.get("country") if group.offer == choice.get(
            "offer") else None)
        setup: dict[str, Any] = {"gpu": group.gpu, "count": group.count,
                                 "ownership": "rented" if choice.get("source") == "cloud" else "owned",
                                 "placement": {name: a.model_dump() for name, a in group.agents.items()},
                                 "training_gpus": "serving" if group.role == "serve+train" else "separate",
                                 "workload": w}
        if setup["ownership"] == "rented" and group.offer:  # the audit prices the group's own offer
            setup["offer"] = group.offer
        if group.gpu == choice["gpu"] and choice.get("interconnect"):
            setup["interconnect"] = choice["interconnect"]
        if country:
            setup["hosting"] = {"country": country}
        setup["workload"] = setup.pop("workload")
        out.append(setup)
    return out
