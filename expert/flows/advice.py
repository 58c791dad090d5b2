"""Advising on a workload: configurator search → sizing of the choice → rules → report.

The configurator finds the cheapest configuration that fits (issue 3); the sizing core gives the
memory and capacity figures of that choice; the rules classify the workload, check the choice
against the documents' guidance and explain every step.
"""

from __future__ import annotations

from typing import Any, Iterable

from expert.catalog import Catalog
from expert.flows.audit_figures import smallest_single_gpu_gb
from expert.facts.input_facts import agent_fact, choice_fact, clean_fact, workload_fact
from expert.report.models import Choice
from expert.report.build import make_report, trace_parts
from expert.facts.near_tie import near_tie_fact
from expert.facts.precision import precision_facts
from expert.inputs.pools import pool_sentence, pooled_view, primary_model
from expert.report.training import localised
from expert.facts.sizing_notes import d3_thumb_fields, generic_fields
from expert.inputs.workload import Workload

FALLBACK_GPU = "h100-sxm"  # memory figures when nothing fits: the GPU 000 describes most
MAX_SHARED_ENTRIES = 20_000  # bounds the per-catalog sizing cache of a long-running process (the chat)


def shared_cache(catalog: Catalog) -> dict:
    """The configurator's caches for one catalog, kept with it between advice calls: the sized replica
    profiles (`configurator.feasibility.Context.profile`), each keyed on the inputs it is sized from,
    so a what-if in the chat or a batch of advice re-uses them; emptied when they grow large.
    """
    holder = catalog.memo("advice.shared", lambda: [{}])
    if sum(len(v) for v in holder[0].values()) > MAX_SHARED_ENTRIES:
        holder[0] = {}  # a new dict: a search still running in another thread keeps the old one
    return holder[0]


def _as_dict(value: Any) -> dict[str, Any] | None:
    """The configurator's full record of a configuration as a dict (`model_dump`)."""
    if value is None:
        return None
    return value if isinstance(value, dict) else value.model_dump()


def _report_fields(value: Any) -> dict[str, Any]:
    """`_choice_fields(_as_dict(value))` plus its `why_not` as it is (an alternative's {en, de}), read
    from the model's attributes instead of dumping all its fields: those of `_CHOICE_KEYS` are the
    report's `Choice` fields, all plain values (text, number, bool or None), which `model_dump` gives
    back as they are, and `why_not` is only read. Compared on every advice scenario in
    tests/unit/test_advice_fields.py."""
    if isinstance(value, dict):
        return {**(_choice_fields(value) or {}), "why_not": value.get("why_not"), "pool": value.get("pool")}
    fields = type(value).model_fields
    return {**{key: getattr(value, key) for key in _CHOICE_KEYS if key in fields},
            "why_not": getattr(value, "why_not", None), "pool": getattr(value, "pool", None)}


def _summaries(w: Workload, model, catalog: Catalog, choice: dict | None,
               held: int = 0, shared: int = 0, agent: Workload | None = None) -> tuple[dict, dict, dict]:
    """(memory, capacity, sizing fact) of the recommended configuration: its GPU, count, precision and
    tensor-parallel degree, holding the concurrency it must serve (000 D3) per replica (plus `held`
    agent sessions per replica that wait on a tool with their KV on the GPU, and an agent's `shared`
    prefix tokens held once per replica; `agent`: the agent workload `w` is the per-step equivalent of,
    whose peak basis the capacity states). The
    configurator's record already holds the operating point; only when nothing fits (or a pool of
    agents leaves it open) is the workload sized from scratch on the fallback GPU."""
    import math

    from expert.configurator.agent_demand import replica_sequences
    from expert.report.memory_line import addends
    from expert.sizing.engines import budget_sizes
    from expert.sizing.memory import inference_memory

    gpu = catalog.gpu(choice["gpu"] if choice else FALLBACK_GPU)
    context = min(w.context, model.max_context)
    known = choice is not None and choice.get("latency_p95_s") is not None and choice.get(
        "concurrent_inferences")
    if known:  # the recommendation's own operating point
        from expert.sizing.replicas import request_rates
        from expert.sizing.finetune import finetune_memory

        average, peak = request_rates(w.requests_per_day, w.requests_per_second, w.peak_factor)
        inference_time = w.inference_time_s or choice["latency_p95_s"]
        concurrent_d3, gpus = choice["concurrent_inferences"], choice["count"]
        tuning = w.tuning
        finetune_gb = finetune_memory(model, gpu, gpus, tuning.method, "bf16").total_gb \
            if tuning.enabled else None
        finetune_gpus = gpus
    else:  # what `full_sizing` gives for these, without the speed, cost and run it adds
        from expert.sizing.combined import operating_point

        point = operating_point(w, gpu, model, choice["count"] if choice else None)
        c = point.capacity
        average, peak, inference_time = c.average_rps, c.peak_rps, c.inference_time_s
        concurrent_d3, gpus = c.concurrent_inferences, c.gpus_needed or point.count
        if choice is not None:
            inference_time = w.inference_time_s or choice.get("latency_p95_s") or inference_time
            concurrent_d3 = choice.get("concurrent_inferences") or concurrent_d3
            gpus = choice["count"]
        tuned = point.finetune_memory()
        finetune_gb = tuned.total_gb if tuned else None
        finetune_gpus = tuned.count if tuned else None
    if choice is not None:
        tp, replicas = choice.get("tensor_parallel", 1), max(1, choice.get("replicas", 1))
        sequences = replica_sequences(concurrent_d3, replicas, choice.get("batch_per_replica"), held)
        precision = choice["precision"].split(",")[0]  # a hybrid pool lists its groups' precisions
        # the pick's own KV precision (`Workload.kv_precision_at`: DeepSeek-V3's native FP8 caches an FP8
        # latent, an open precision's fp8 pick an FP8 cache), as the search sized it
        m = inference_memory(model, gpu, tp, tp, precision, context, sequences, w.kv_precision_at(precision),
                             engine=w.engine,
                             shared_prefix_tokens=shared, attention=choice.get("attention") or "tp")
    else:
        m = point.memory()
    growth_total = None
    if w.growth_params_b:
        from expert.sizing.architecture import generic_model

        grown = inference_memory(generic_model(w.growth_params_b), gpu, m.tensor_parallel, m.tensor_parallel,
                                 m.precision, min(context, 8192), m.sequences, engine=w.engine)
        growth_total = grown.total_gb
    memory = {"weights_gb": m.weights_gb, "kv_cache_gb": m.kv_cache_gb,
              "overhead_gb": m.activation_gb + m.overhead_gb, "total_gb": m.total_gb,
              "fine_tuning_gb": finetune_gb, "fine_tuning_gpus": finetune_gpus if finetune_gb else None,
              "reserve_ratio": m.headroom_ratio, "growth_total_gb": growth_total,
              **addends(m.weights_gb, m.kv_cache_gb, m.activation_gb + m.overhead_gb, m.total_gb, m.tensor_parallel)}
    from expert.configurator.agent_demand import rate_basis as agent_rate_basis
    from expert.inputs.slo import rate_basis

    basis = rate_basis(w) if agent is None else agent_rate_basis(agent)
    capacity = {"average_rps": average, "peak_rps": peak, "inference_time_s": inference_time,
                "concurrent_inferences": concurrent_d3, "gpus_needed": gpus, "peak_basis": basis["basis"],
                "peak_factor": basis["peak_factor"]}
    if choice is not None:  # weights per GPU over its memory: 000 M5's reserve is counted this way
        choice["weights_share"] = m.weights_gb / (gpu.memory_gb * m.tensor_parallel)
    single_80 = [g for g in catalog.gpus.values() if g.memory_gb >= 80]
    fact = {"t": "sizing", "weights_gb": m.weights_gb, "kv_cache_gb": m.kv_cache_gb, "total_gb": m.total_gb,
            "runtime_gb": m.activation_gb + m.overhead_gb, "finetune_gb": finetune_gb or 0.0,
            "reserve_ratio": m.headroom_ratio if choice is not None else None,
            "finetune_over_weights": finetune_gb / m.weights_gb if finetune_gb else None, "growth_total_gb": growth_total,
            "concurrent_inferences": concurrent_d3, "inference_time_s": inference_time, "gpus_needed": gpus,
            "min_gpu_memory_gb": smallest_single_gpu_gb(catalog, m, model),
            "needs_multi_gpu": all(budget_sizes(w.engine, model, g, 1, m.weights_gb, context)[3] <= 0
                                   for g in single_80 if g.memory_gb <= 80)}
    fact.update(generic_fields(model, m.weights_gb, m.kv_cache_gb))
    return memory, capacity, clean_fact(fact)


def _sized_view(w: Workload, model, choice: dict | None,
                agent: dict | None = None) -> tuple[Workload, int, int]:
    """The workload the summaries size, the agent sessions each replica holds during tools and the prefix
    tokens they share: an agent loop is sized as its per-step equivalent (`configurator.agent_demand`).
    A closed loop runs at the task rate the search settled (`agent`: the report's agent figures,
    `closed_loop.settle`), the one rate every section states."""
    if w.agent is None:
        return w, 0, 0
    from expert.configurator.agent_demand import demand, equivalent, held_per_replica, shared_prefix_tokens

    d = demand(w, model, task_rate=agent["peak_tasks_per_s"] if agent and w.agent.concurrent_users else None)
    replicas = max(1, choice.get("replicas", 1)) if choice else 1
    return equivalent(w, d), held_per_replica(d, replicas), shared_prefix_tokens(d)


def pool_groups(pool: dict | None) -> list[dict]:
    """The recommended pool's groups as the report shows them (`placement` entries of a setup)."""
    return [{"gpu": g["gpu"], "offer": g["source"], "count": g["count"], "role": g["role"],
             "agents": {name: {"precision": a["precision"], "tensor_parallel": a["tp"], "replicas": a["replicas"]}
                        for name, a in g["agents"].items()}} for g in (pool or {}).get("groups", [])]


def replica_capacity(w: Workload, model, choice: dict | None, catalog: Catalog) -> float | None:
    """The most requests/s one replica of a single-model pick serves within the latency targets at the target
    utilisation: the audit's serving capacity of that replica (`operating.operating_facts`); None without a
    pick, for a pool, or where it has no operating point."""
    if choice is None or choice.get("pool"):
        return None
    from expert.configurator.enumeration import default_assumptions
    from expert.configurator.operating import operating_facts

    tp = choice.get("tensor_parallel", 1)
    facts = operating_facts(w, model, catalog.gpu(choice["gpu"]), tp, tp, choice["precision"].split(",")[0],
                            choice.get("interconnect"), default_assumptions(catalog), w.engine)
    return facts.get("serving_capacity_rps") or None


def advise(w: Workload, catalog: Catalog, rules_dirs: Iterable[str] = (), lang: str = "en",
           sensitivity: bool = True):
    """The advice report of a workload (`sensitivity=False`: without the sensitivity lines)."""
    from expert.configurator import search
    from expert.engine import evaluate
    from expert.interview import render_sentence
    from expert.engine.rule_base import rule_base

    model = primary_model(w, catalog)
    result = search(w, catalog, sensitivity=sensitivity, detail=False, _shared=shared_cache(catalog))
    pool_text = pool_sentence(w, lang)
    groups = pool_groups(result.pool)
    pool_w, w = w, pooled_view(w, model)
    choice = _as_dict(result.recommendation)  # the configurator's full record (batch, concurrency)
    options = [_report_fields(a) for a in result.alternatives]  # what the report and the near tie read
    alternatives = [_localised(a, lang) for a in options]
    quantised = [_localised(_report_fields(a), lang) for a in getattr(result, "quantised", [])]
    sized, held, shared = _sized_view(w, model, choice, getattr(result, "agent", None))
    memory, capacity, sizing = _summaries(sized, model, catalog, choice, held, shared, w if w.agent else None)
    if w.agent is not None:  # sized as its per-step equivalent: the rates count LLM steps
        capacity["rate_unit"] = "steps/s"
    if w.agent is None:  # an agent is sized by its steps; D3's rule of thumb counts requests
        sizing = clean_fact({**sizing, **d3_thumb_fields(capacity["concurrent_inferences"], capacity["peak_rps"],
                                                         choice, replica_capacity(w, model, choice, catalog))})
    if groups:  # a pool's memory is all its agents' replicas, not its largest model's
        from expert.flows.audit_pool import pool_memory

        memory.update(pool_memory(pool_w, catalog, groups), overhead_gpus=None, copies_gb=None)  # sums: they add up
    from expert.configurator.document import u2_facts
    from expert.configurator.enumeration import default_assumptions
    from expert.facts.inventory import agent_facts

    growth = None
    if choice is not None and not groups:
        from expert.flows.growth import growth_check, growth_facts

        growth = growth_check(w, catalog.gpu(choice["gpu"]), choice["count"], choice["precision"].split(",")[0],
                              None, w.engine, lang)  # the GPU's own link, as the search sized it
        sizing = clean_fact({**sizing, **growth_facts(growth)})
    facts = [workload_fact(w, model), sizing, *u2_facts(w, catalog, default_assumptions(catalog), model),
             *agent_facts(w, catalog)]  # 000 R1: one specification per inventoried agent
    document = getattr(result, "document", None)
    if choice is not None:
        facts.append(choice_fact(choice, catalog, getattr(document, "family", None),
                                 getattr(document, "agrees", None), result.training_plan, w.site_country,
                                 w.most_frequent_tuning.runs_per_year > 0))
    if getattr(result, "agent", None) is not None:
        facts.append(agent_fact(result.agent))
    facts.extend(precision_facts(w, result))
    tie = near_tie_fact(choice, options)
    if tie is not None:
        facts.append(clean_fact(tie))
    evaluation = evaluate(_advice_rules(rule_base(rules_dirs), facts), facts, lang=lang)
    findings, fired = trace_parts(evaluation)
    sentence, cycle = w.model_dump(exclude_none=True), None
    if getattr(result, "agent", None) is not None:  # an agent's volume is counted in tasks
        sentence["requests_per_day"] = result.agent["tasks_per_day"]
        if w.agent.concurrent_users is not None:  # a closed loop: its users' cycle at the fixed point
            sentence["agent"]["think_time_s"] = w.agent.resolved().think_time_s
            cycle = result.agent["task_latency_s"], result.agent["peak_tasks_per_s"]
    from expert.configurator.agent_targets import workload_targets

    slo = workload_targets(w, model)  # an agent: the per-step targets the search used (a batch has no reader)
    return make_report(
        kind="advice", lang=lang, clarification=pool_text or render_sentence(sentence, lang, cycle),
        memory=memory, capacity=capacity, slo=slo.as_dict(lang), recommendation=_choice_fields(choice),
        alternatives=alternatives, quantised_alternatives=quantised, nothing_fits=_text(result.nothing_fits, lang),
        document_recommendation=_text(getattr(document, "text", None), lang),
        near_tie=_text(getattr(result, "near_tie", None), lang), growth=growth,
        sensitivity=[_text(line, lang) for line in result.sensitivity],
        agent=getattr(result, "agent", None), findings=findings, fired_rules=fired,
        training_plan=localised(result.training_plan, lang), pool=(result.pool_lines or {}).get(lang, []),
        pool_groups=groups, pool_runs=(result.pool or {}).get("runs", []))


def _advice_rules(base, facts: list[dict]):
    """The rules the advice's facts can reach (`RuleBase.reachable` of `vocabulary.ADVICE_KINDS`):
    the same firings on less engine work; the whole base should a fact of another kind be added."""
    from expert.facts.vocabulary import ADVICE_KINDS

    if all(fact["t"] in ADVICE_KINDS for fact in facts):
        return base.reachable(ADVICE_KINDS)
    return base


_CHOICE_KEYS = tuple(Choice.model_fields)  # the report's `Choice` fields, read from its model


def _choice_fields(choice: dict | None) -> dict | None:
    if choice is None:
        return None
    return {key: choice[key] for key in _CHOICE_KEYS if key in choice}


def _text(value: Any, lang: str) -> str | None:
    """Texts from the configurator come as {en, de} mappings or plain strings."""
    if isinstance(value, dict):
        return value.get(lang) or value.get("en")
    return value


def _localised(alternative: dict, lang: str) -> dict:
    fields = _choice_fields(alternative) or {}
    fields["why_not"] = _text(alternative.get("why_not"), lang) or ""
    # a pool of several groups ('1× l40s (hikube-l40s) + 1× a100-80gb-pcie (…)'): named whole (QA 47 #13)
    groups = [part.split(" (", 1)[0] for part in (alternative.get("pool") or "").split(" + ") if part]
    if len(groups) > 1:
        fields["pool_groups"] = groups
    return fields
