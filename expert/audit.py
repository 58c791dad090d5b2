"""Auditing an existing setup: measured facts + sizing of its workload → rules → findings.

The sizing core adds what the rules compare: the memory reserve of today's model, whether the
expected model fits, and — for fine-tuned workloads — the run time here and on an A100 80 GB with
the team-time cost of the difference (000 M2: total = compute hours × team rate + GPU cost).
"""

from __future__ import annotations

from typing import Any, Iterable

from expert.catalog import Catalog
from expert.catalog.models import Gpu
from expert.facts import clean_fact, setup_fact, workload_fact
from expert.report.build import make_report, trace_parts
from expert.setup import Setup

REFERENCE_FINETUNE_GPU = "a100-80gb-pcie"  # 000 M2: "mindestens eine A100"; alias A100 → this variant


def _rent(catalog: Catalog, gpu_id: str) -> float | None:
    from expert.pricing import default_offer

    offer = default_offer(catalog, gpu_id)
    return None if offer is None else catalog.to_chf(offer.monthly.amount.mid, offer.monthly.currency)


def smallest_single_gpu_gb(catalog: Catalog, memory) -> float | None:
    """Memory of the smallest catalog GPU that holds the whole replica alone (weights, KV cache,
    activations and runtime within its usable share), or None when none does."""
    from expert.sizing.constants import DEFAULT

    need = memory.weights_gb + memory.kv_cache_gb + memory.activation_gb + memory.overhead_gb
    share = DEFAULT.gpu_memory_utilization.value  # vLLM's gpu_memory_utilization (sizing constants)
    return min((g.memory_gb for g in catalog.gpus.values() if g.memory_gb * share >= need), default=None)


def sizing_extras(setup: Setup, gpu: Gpu, catalog: Catalog) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """(extra setup fields, extra facts) computed by the sizing core for the setup's workload."""
    w = setup.workload
    if w is None:
        return {}, []
    from expert.api import resolve_model
    from expert.sizing.architecture import generic_model
    from expert.sizing.memory import inference_memory
    from expert.sizing.training import finetune_run

    model = resolve_model(catalog, w.model, w.params_b, "workload.model")
    tp = setup.tensor_parallel if setup.count % setup.tensor_parallel == 0 else 1
    memory = inference_memory(model, gpu, setup.count, tp, w.precision, min(w.context, model.max_context),
                              max(1, w.concurrency or 1))
    int8 = inference_memory(model, gpu, setup.count, tp, "int8", min(w.context, model.max_context),
                            max(1, w.concurrency or 1))
    extra: dict[str, Any] = {"reserve_ratio": memory.headroom_ratio, "fits": memory.fits, "fits_int8": int8.fits}
    sizing = {"t": "sizing", "weights_gb": memory.weights_gb, "kv_cache_gb": memory.kv_cache_gb,
              "total_gb": memory.total_gb,
              "min_gpu_memory_gb": smallest_single_gpu_gb(catalog, memory)}
    if w.growth_params_b:
        grown = inference_memory(generic_model(w.growth_params_b), gpu, setup.count, tp, w.precision,
                                 min(w.context, 8192), max(1, w.concurrency or 1))
        extra["growth_fits"] = grown.fits
        sizing["growth_total_gb"] = grown.total_gb
    tuning = w.tuning
    if tuning.enabled:
        from expert.sizing.finetune import finetune_memory

        sizing["finetune_gb"] = finetune_memory(model, gpu, setup.count, tuning.method, "bf16").total_gb
        here = finetune_run(model, gpu, setup.count, tuning.method, tuning.dataset_tokens,
                            tuning.epochs, tuning.runs_per_year, w.team_hourly_rate_chf)
        ref_gpu = catalog.gpu(REFERENCE_FINETUNE_GPU)
        ref = finetune_run(model, ref_gpu, setup.count, tuning.method, tuning.dataset_tokens,
                           tuning.epochs, tuning.runs_per_year, w.team_hourly_rate_chf)
        runs_per_month = tuning.runs_per_year / 12
        extra["finetune_hours"] = here.hours
        extra["finetune_hours_on_a100"] = ref.hours
        extra["finetune_slowdown_vs_a100"] = here.hours / ref.hours
        extra["team_cost_extra_chf_month"] = (here.hours - ref.hours) * runs_per_month * w.team_hourly_rate_chf
        rent_here, rent_ref = _rent(catalog, gpu.id), _rent(catalog, ref_gpu.id)
        if rent_here is not None and rent_ref is not None:
            extra["gpu_saving_chf_month"] = (rent_ref - rent_here) * setup.count
    return extra, [workload_fact(w, model), clean_fact(sizing)]


def describe_setup(setup: Setup, lang: str) -> str:
    """One line naming the audited setup, in the report's language."""
    from expert.messages import t

    held = setup.ownership if lang != "de" else t(f"value.ownership.{setup.ownership}", lang)
    return t("report.audit_of", lang, gpu=f"{setup.count}× {setup.gpu}", held=held)


def audit(setup: Setup, catalog: Catalog, rules_dirs: Iterable[str] = (), lang: str = "en"):
    """The audit report of a setup."""
    from expert.engine import evaluate
    from expert.interview import render_sentence
    from expert.knowledge import rule_base

    gpu = catalog.gpu(setup.gpu)
    extra, facts = sizing_extras(setup, gpu, catalog)
    evaluation = evaluate(rule_base(rules_dirs), [setup_fact(setup, gpu, extra), *facts], lang=lang)
    findings, fired = trace_parts(evaluation)
    clarification = describe_setup(setup, lang)
    if setup.workload is not None:
        clarification += " " + render_sentence(setup.workload.model_dump(exclude_none=True), lang)
    return make_report(kind="audit", lang=lang, clarification=clarification,
                       findings=findings, fired_rules=fired)
