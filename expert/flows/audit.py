"""Auditing an existing setup: measured facts + sizing of its workload → rules → findings.

The sizing core adds what the rules compare: the memory reserve of today's model, whether the
expected model fits, the serving capacity at the workload's peak (token-level, at the latency
targets: `serving_facts`), and — for fine-tuned workloads — the run time here and on an A100 80 GB with
the team-time cost of the difference (000 M2: total = compute hours × team rate + GPU cost).
"""

from __future__ import annotations

from typing import Any, Iterable

from expert.catalog import Catalog
from expert.catalog.models import Gpu
from expert.facts.input_facts import clean_fact, setup_fact, workload_fact
from expert.flows.audit_figures import smallest_single_gpu_gb, tuning_extras
from expert.flows.audit_serving import choose_tp, current_release_facts, serving_facts, serving_tp
from expert.inputs.pools import is_pool, pool_sentence
from expert.report.build import make_report, trace_parts
from expert.inputs.setup_file import Setup

def sizing_extras(setup: Setup, gpu: Gpu, catalog: Catalog) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """(extra setup fields, extra facts) computed by the sizing core for the setup's workload.

    "Fits" means the engine starts and holds one sequence of the workload's context (docs/engines.md).
    Measured facts win: a setup that reports utilisation or latency runs, so `fits` is true whatever
    the estimate says; `fits_estimate`, `estimated_max_sequences` (room of all replicas at the
    workload's context) and `peak_sequences` (the workload's concurrency) let a rule compare the
    estimate with the peak.
    """
    w = setup.workload
    if w is None:
        return {}, []
    if is_pool(w):
        from expert.flows.audit_pool import pool_extras
        return pool_extras(setup, gpu, catalog)
    from expert.sizing.architecture import generic_model
    from expert.sizing.memory import inference_memory, max_sequences

    model = catalog.resolve_model(w.model, w.params_b, path="workload.model")
    precision = setup.precision or w.at_native(model.native_precision).precision  # gpt-oss: mxfp4 unless stated
    engine = setup.serving_engine
    kvp = w.kv_precision_at(precision)
    context = min(w.context, model.max_context)
    peak = max(1, w.concurrency or 1)
    step = d = None
    shared = 0
    if w.agent is not None:  # an agent loop: its live sessions' context, held through tool waits
        from expert.configurator.agent_demand import demand, equivalent, held_per_replica, shared_prefix_tokens

        d = demand(w, model)
        step = equivalent(w, d)
        shared = shared_prefix_tokens(d)    # held once per replica by the prefix cache
        context = min(step.context_tokens, model.max_context)
        # the p95 of the tool-waiting sessions, as the advice sizes them (`held_per_replica`: a Poisson
        # count), over the whole setup: its room (`estimated_max_sequences`) is all replicas'
        peak = max(peak, held_per_replica(d, 1))
    tp = choose_tp(setup, model, gpu, precision, context, kvp, engine, peak)
    served = None  # an agent loop's serving check reads its demand at the chosen TP's replicas (below)
    if d is None:
        tp, served = serving_tp(setup, w, model, gpu, tp)
    if d is not None:  # round-robin over the setup's replicas hits 1/R, as the advice sizes; a closed loop
        d = settled_demand(setup, w, model, gpu, tp, d)  # at the setup's own fixed point
        step = equivalent(w, d)
        peak = max(max(1, w.concurrency or 1), held_per_replica(d, 1))
    if served is None:
        served = serving_facts(setup, w if step is None else step, model, gpu, tp, d)
    sequences = operating_sequences(served, setup.count // tp, peak, d)  # one replica's, as advise sizes it
    memory = inference_memory(model, gpu, setup.count, tp, precision, context, sequences, kvp, engine=engine,
                              shared_prefix_tokens=shared)
    one = inference_memory(model, gpu, setup.count, tp, precision, context, 1, kvp, engine=engine,
                           shared_prefix_tokens=shared)
    int8 = inference_memory(model, gpu, setup.count, tp, "int8", context, 1, engine=engine)
    # all replicas' room and need at the peak, an agent's sessions beside its prefix held once per replica
    room = max_sequences(model, gpu, tp, tp, precision, context, kvp, engine=engine,
                         shared_prefix_tokens=shared) * (setup.count // tp)
    if d is not None and "concurrent_inferences" in served:  # the sessions the memory section sizes
        peak = sequences * (setup.count // tp)
    running = setup.running
    extra: dict[str, Any] = {
        "fits": one.fits or running, "fits_estimate": one.fits, "fits_int8": int8.fits or running,
        "running": running, "engine": engine, "serving_precision": precision, "tensor_parallel_used": tp,
        "need_per_gpu_gb": one.per_gpu_gb, "usable_per_gpu_gb": one.usable_per_gpu_gb,
        "used_per_gpu_gb": memory.per_gpu_gb,
        "usable_vram_gb": one.usable_per_gpu_gb * setup.count, "estimated_max_sequences": room,
        "peak_sequences": peak, "room_below_peak": room < peak, "context_tokens_used": context,
        "weights_share": memory.weights_gb / (gpu.memory_gb * tp)}
    if memory.fits:
        extra["reserve_ratio"] = memory.headroom_ratio
    extra.update(served)
    extra.update(current_release_facts(setup, w if step is None else step, model, gpu, tp, served, d))
    sizing = {"t": "sizing", "weights_gb": memory.weights_gb, "kv_cache_gb": memory.kv_cache_gb,
              "total_gb": memory.total_gb, "runtime_gb": memory.activation_gb + memory.overhead_gb,
              "min_gpu_memory_gb": smallest_single_gpu_gb(catalog, memory, model)}
    if w.growth_params_b:
        grown = inference_memory(generic_model(w.growth_params_b), gpu, setup.count, tp, precision,
                                 min(w.context, 8192), peak, engine=engine)
        extra["growth_fits"] = grown.fits
        sizing["growth_total_gb"] = grown.total_gb
    if w.tuning.enabled:
        tuning_extras(w, model, gpu, setup.count, catalog, memory.weights_gb, extra, sizing, setup.ram_gb)
    return extra, [workload_fact(w, model), clean_fact(sizing)]


def settled_demand(setup: Setup, w, model, gpu: Gpu, tp: int, d):
    """The agent demand the audit's serving check reads: without affinity at the hit rate of the setup's
    replicas in turn (`routed_replicas`); a closed loop at the setup's own fixed point
    (`closed_loop.fixed_point`, the function the search settles its pick with), its step the serving
    check's complete step at each rate. Before QA 45 #11 the audit took the highest rate (a step of 0 s)."""
    from expert.configurator.agent_demand import demand, equivalent
    from expert.configurator.closed_loop import fixed_point

    routed = None if d.affinity else setup.count // tp
    if not d.users:
        return d if routed is None else demand(w, model, routed_replicas=routed)

    def step_at(rate: float) -> float | None:
        at = demand(w, model, routed_replicas=routed, task_rate=rate)
        served = serving_facts(setup, equivalent(w, at), model, gpu, tp, at)
        # no operating point: the setup does not serve the rate (beyond it the check states a shorter step)
        return served["estimated_e2e_s"] if "operating_batch" in served else None

    if not serving_facts(setup, equivalent(w, d), model, gpu, tp, d):  # the model does not fit: the top rate stays
        return demand(w, model, routed_replicas=routed)
    return demand(w, model, routed_replicas=routed, task_rate=fixed_point(d, step_at))


def operating_sequences(served: dict[str, Any], replicas: int, peak: int, agent=None) -> int:
    """Sequences one replica's memory holds at the peak, as the advice sizes its pick
    (`agent_demand.replica_sequences`): its share of the concurrent inferences of the serving check
    (`serving_facts`, 000 D3), at least its operating batch, plus an agent's tool-waiting sessions (their
    per-replica p95); `peak` (the workload's concurrency, or the agent's held sessions) where the serving
    check found no point (the model does not fit, or no load is stated). Before QA 45 #5 the audit sized
    one sequence and called it the peak."""
    from expert.configurator.agent_demand import held_per_replica, replica_sequences

    if "concurrent_inferences" not in served:
        return peak
    return replica_sequences(served["concurrent_inferences"], replicas, served.get("operating_batch"),
                             held_per_replica(agent, replicas))


SPREADING = ("round-robin", "least-loaded", "random")  # may send a session's next step elsewhere


def agent_audit_fact(setup: Setup, catalog: Catalog) -> dict[str, Any] | None:
    """The `agent` fact of an audit: measured cache hit rate and routing beside what the agent's loop
    allows with session affinity (`expert.sizing.agent_loop`); None when nothing is about agents."""
    w = setup.workload
    spec = w.agent if w is not None else None
    if spec is None and setup.prefix_cache_hit_rate is None and setup.routing is None:
        return None
    from expert.facts.input_facts import clean_fact

    replicas = max(1, setup.count // setup.tensor_parallel)
    spreads = setup.routing in SPREADING and replicas > 1
    fact: dict[str, Any] = {"t": "agent", "origin": "audit", "measured_cache_hit_rate": setup.prefix_cache_hit_rate,
                            "routing": setup.routing, "spreads_sessions": spreads, "replicas": replicas}
    if setup.routing is not None:
        fact["session_affinity"] = not spreads
    if spec is not None:
        from expert.sizing.agent_loop import loop_shape

        model = catalog.resolve_model(w.model, w.params_b, path="workload.model")
        agent = spec.resolved()
        limit = min(spec.context_limit_tokens or model.max_context, model.max_context)
        fact.update({"kind": spec.kind, "steps_mean": agent.steps_mean, "kv_during_tools": spec.kv_during_tools,
                     "expected_cache_hit_rate": loop_shape(agent, agent.steps_mean, limit).hit_rate})
        fact.setdefault("session_affinity", spec.session_affinity)
    return clean_fact(fact)


def describe_setup(setup: Setup, lang: str) -> str:
    """One line naming the audited setup, in the report's language."""
    from expert.messages import t

    held = setup.ownership if lang != "de" else t(f"value.ownership.{setup.ownership}", lang)
    return t("report.audit_of", lang, gpu=f"{setup.count}× {setup.gpu}", held=held)


def audit(setup: Setup, catalog: Catalog, rules_dirs: Iterable[str] = (), lang: str = "en"):
    """The audit report of a setup."""
    from expert.engine import evaluate
    from expert.interview import render_sentence
    from expert.engine.rule_base import rule_base

    from expert.flows.audit_summary import capacity_summary, comparison, memory_summary, setup_targets
    from expert.flows.audit_tuning import tuning_plan, tuning_plans

    gpu = catalog.gpu(setup.gpu)
    extra, facts = sizing_extras(setup, gpu, catalog)
    agent = agent_audit_fact(setup, catalog)
    if agent is not None:
        facts.append(agent)
    sizing = next((f for f in facts if f["t"] == "sizing"), {})
    growth = None
    if setup.workload is not None and not is_pool(setup.workload) and extra.get("serving_precision"):
        from expert.flows.growth import growth_check, growth_facts

        from expert.flows.audit_serving import setup_assumptions

        growth = growth_check(setup.workload, gpu, setup.count, extra["serving_precision"], setup.interconnect,
                              setup.serving_engine, lang, setup_assumptions(setup))
        if growth is not None and setup.utilization is not None:
            from expert.flows.growth import measured_load, summary

            measured_load(growth, setup, extra.get("serving_capacity_rps"))
            growth["summary"] = summary(growth, setup.count, gpu.id, lang)
        sizing.update(clean_fact(growth_facts(growth)))
    slo = setup_targets(setup, catalog)  # the targets the serving check used (docs/slo.md)
    part, best = comparison(setup, catalog, extra, lang, slo)
    if best is not None:
        facts.append(clean_fact(best))
    evaluation = evaluate(rule_base(rules_dirs), [setup_fact(setup, gpu, extra), *facts], lang=lang)
    findings, fired = trace_parts(evaluation)
    clarification = describe_setup(setup, lang)
    if setup.workload is not None:
        w = setup.workload
        if setup.placement is not None:  # a pool's group: the agents these GPUs serve
            w = w.model_copy(update={"agents": [a for a in w.agents if a.name in setup.placement]})
        said = pool_sentence(w, lang) or render_sentence(w.model_dump(exclude_none=True), lang, blanks=False)
        clarification += " " + said
    return make_report(kind="audit", lang=lang, clarification=clarification,
                       slo=slo.as_dict(lang) if slo is not None else None,
                       memory=memory_summary(extra, sizing, setup.count), capacity=capacity_summary(setup, extra), audit=part, growth=growth,
                       fine_tuning_plan=tuning_plan(setup, catalog, lang),
                       fine_tuning_plans=tuning_plans(setup, catalog, lang), findings=findings, fired_rules=fired)
