"""One fine-tuning run on a given set of GPUs, timed by the job planner (issue 12).

`estimate --mode lora|qlora|full` and the audit report `finetune_run`'s fields (FLOPs, dataset
provenance) but take the hours from `ft_job.layout_on`: the job planner's cited MFU bands (full 0.40,
LoRA 0.30, QLoRA × 0.78, node and CPU-offload factors), so every part of the product times the same run
the same way. The team time per run counts the hours the team attends (`training.attended_hours`: 8 per
calendar day of the run), the training plan's rule, not every compute hour.
"""

from __future__ import annotations

from expert.catalog.models import Band, Gpu, LlmModel
from expert.sizing.constants import Assumptions, resolve
from expert.sizing.ft_job import FULL_MFU, LORA_MFU, NODE_SPEED, OFFLOAD_SPEED, QLORA_SPEED, layout_on
from expert.sizing.results import FineTuneRun, Provenance
from expert.sizing.training import attended_hours, finetune_run


def job_run(model: LlmModel, gpu: Gpu, count: int = 1, method: str = "lora", dataset_tokens: float | None = None,
            epochs: float = 1.0, runs_per_year: int = 0, team_hourly_rate_chf: float | None = None,
            assumptions: Assumptions | None = None) -> FineTuneRun:
    """`finetune_run` with the hours, efficiency and bands of the job planner's layout on `count` GPUs."""
    a = resolve(assumptions)
    base = finetune_run(model, gpu, count, method, dataset_tokens, epochs, runs_per_year, team_hourly_rate_chf, a)
    lay = layout_on(model, gpu, method, count, base.dataset_tokens, epochs, a)
    mfu = FULL_MFU if method == "full" else LORA_MFU
    h = lay.hours
    sources = [a.flops_full.cite() if method == "full" else a.flops_lora.cite(), mfu.cite(),
               a.h100_finetune_speedup.cite(), a.gddr_finetune_slowdown.cite()]
    sources += [QLORA_SPEED.cite()] if method == "qlora" else []
    sources += [OFFLOAD_SPEED.cite()] if lay.sharding == "fsdp-offload" else []
    sources += [NODE_SPEED.cite()] if lay.nodes > 1 else []
    prov = {**base.provenance, "hours": Provenance(
        formula=f"{base.flops_per_param_token:g} × params × tokens × epochs / (GPUs × FP16 FLOPS × method MFU × "
                "f(GPU) × QLoRA/offload/node factors) (job planner, expert/sizing/ft_job.py)", sources=sources)}
    band = lay.hours_band
    return base.model_copy(update={
        "efficiency": lay.mfu, "relative_efficiency": lay.mfu / mfu.value, "hours": h, "days": h / 24,
        "compute_hours_per_month": h * runs_per_year / 12,
        "team_cost_per_run_chf": attended_hours(h) * base.team_hourly_rate_chf, "provenance": prov,
        "bands": {**base.bands, "hours": band, "days": Band(low=band.low / 24, high=band.high / 24)},
        "sharding": lay.sharding, "cpu_offload": lay.sharding == "fsdp-offload", "host_ram_gb": lay.host_ram_gb,
        "memory_per_gpu_gb": lay.memory_per_gpu_gb, "usable_per_gpu_gb": lay.usable_per_gpu_gb, "fits": lay.fits})
