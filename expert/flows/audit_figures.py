"""Figures an audit adds to a setup, shared by single-model and pool audits (`audit`, `audit_pool`): the
smallest GPU that holds a replica alone (004 C9), and the fine-tuning figures against an A100 80 GB
with the team-time cost of the difference (000 M2: total = compute hours × team rate + GPU cost)."""

from __future__ import annotations

from typing import Any

from expert.catalog import Catalog
from expert.catalog.models import Gpu

REFERENCE_FINETUNE_GPU = "a100-80gb-pcie"  # 000 M2: "mindestens eine A100"; alias A100 → this variant


def _rent(catalog: Catalog, gpu_id: str) -> float | None:
    from expert.catalog.pricing import default_offer

    offer = default_offer(catalog, gpu_id)
    return None if offer is None else catalog.to_chf(offer.monthly.amount.mid, offer.monthly.currency)


def smallest_single_gpu_gb(catalog: Catalog, memory, model=None) -> float | None:
    """Memory of the smallest catalog GPU that holds the whole replica alone (weights, KV cache,
    activations and runtime within the engine's budget on that GPU), or None when none does.
    `model` (the catalog model) gives the engine its activation class; without it: dense."""
    from expert.sizing.architecture import generic_model
    from expert.sizing.engines import budget_sizes

    model = model or generic_model(max(0.1, memory.weights_gb / 2))
    fitting = [g.memory_gb for g in catalog.gpus.values()  # budget_sizes(...)[3]: engines.budget's kv_pool_gb
               if (pool := budget_sizes(memory.engine, model, g, 1, memory.weights_gb, memory.context_tokens)[3])
               >= memory.kv_cache_gb > 0 or (pool > 0 and memory.kv_cache_gb == 0)]
    return min(fitting, default=None)


def tuning_extras(w, model, gpu: Gpu, count: int, catalog: Catalog, weights_gb: float,
                  extra: dict[str, Any], sizing: dict[str, Any], ram_gb: float | None = None) -> None:
    """Add the fine-tuning figures of `w` on `count` × `gpu` to `extra` (setup fact) and `sizing`: the
    job's memory against the weights, and (000 M2) its hours here against an A100 80 GB timed like for
    like (the same count, the same CPU offload or none; no hours where the run does not fit here, even with
    offload and the server's RAM), the team time of the difference in attended hours
    (`training.attended_hours`, the plan's rule) and whether the plan counts it (`fine_tuning.team_waits`),
    against the GPU saving. `ram_gb`: the setup's stated RAM (CPU offload's room)."""
    from expert.catalog.bom import m3_ram_gb
    from expert.sizing.finetune import finetune_memory, training_usable_gb
    from expert.sizing.ft_job import layout_on, layout_with
    from expert.sizing.constants import resolve
    from expert.sizing.training import attended_hours

    tuning = w.tuning
    sizing["finetune_gb"] = finetune_memory(model, gpu, count, tuning.method, "bf16").total_gb
    sizing["finetune_over_weights"] = sizing["finetune_gb"] / weights_gb
    # the fine-tuning plan's basis (QA 47 #9): what a run can use of each GPU, not the card's nominal memory
    sizing["finetune_usable_gb"] = training_usable_gb(gpu) * count
    tokens = resolve(None).default_dataset_tokens.value if tuning.dataset_tokens is None else tuning.dataset_tokens
    # d2's comparison, unless CPU offload fits the run on these GPUs and the server's RAM (the audit's plan,
    # `audit_tuning`: the optimizer state in host RAM, as torchtune's 70B recipe on 8 × A100 runs it)
    lay = layout_on(model, gpu, tuning.method, count, tokens, tuning.epochs)
    offload = lay.sharding == "fsdp-offload"
    fits_here = lay.fits and lay.host_ram_gb <= (ram_gb or m3_ram_gb(gpu, count))
    extra["finetune_exceeds_setup"] = sizing["finetune_gb"] > sizing["finetune_usable_gb"] and not (offload and fits_here)
    extra["team_waits"] = bool(getattr(tuning, "team_waits", False))
    ref_gpu = catalog.gpu(REFERENCE_FINETUNE_GPU)
    rent_here, rent_ref = _rent(catalog, gpu.id), _rent(catalog, ref_gpu.id)
    if rent_here is not None and rent_ref is not None:
        extra["gpu_saving_chf_month"] = (rent_ref - rent_here) * count
    if not fits_here:
        return  # a run that cannot run here is not timed here (m2-*-no-estimate says so)
    ref = layout_with(model, ref_gpu, tuning.method, count, tokens, tuning.epochs, offload)
    if not ref.fits:
        ref = layout_on(model, ref_gpu, tuning.method, count, tokens, tuning.epochs)
    runs_per_month = tuning.runs_per_year / 12
    extra["finetune_hours"] = lay.hours
    extra["finetune_hours_on_a100"] = ref.hours
    extra["finetune_slowdown_vs_a100"] = lay.hours / ref.hours
    extra["team_cost_extra_chf_month"] = ((attended_hours(lay.hours) - attended_hours(ref.hours)) * runs_per_month
                                          * w.team_hourly_rate_chf)

