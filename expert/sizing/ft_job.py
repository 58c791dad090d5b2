"""A fine-tuning run as a job (issue 12, point 1): how many GPUs on how many nodes, with which sharding,
how much memory per GPU and how many hours, for one run of `dataset tokens × epochs`.

- Memory: model states (16 B/param full, adapters only for LoRA/QLoRA; `finetune.finetune_memory`)
  sharded over all GPUs of the job (FSDP FULL_SHARD / ZeRO-3, across nodes too); activations and the
  CUDA context per GPU. On one node a full fine-tune may instead offload the fp32 master weights and
  Adam moments (12 B/param) to host RAM, as torchtune's 70B recipe on 8 × A100 does.
- Training memory is the GPU's memory as the driver reports it (`engines.device_memory_gb`, serving's
  basis) less allocator fragmentation (`finetune.TRAIN_MEMORY_SHARE`, `training_usable_gb`), not the
  serving engine's share: no inference engine holds memory while the run owns the GPUs.
- Hours = k × P × tokens × epochs / (GPUs × dense 16-bit peak × MFU × f(GPU) × node factor × offload
  factor); k ≈ 6 full, ≈ 4 LoRA (`Assumptions.flops_full`, `flops_lora`); f(GPU) is the per-GPU
  factor calibrated to 000 G4/U3/M2 (`training.relative_efficiency`).
- Layouts tried: 1, 2, 4, 8 GPUs on one node, then whole 8-GPU nodes (2-8 nodes). More than one
  node needs an inter-node fabric (InfiniBand NDR or 400 GbE RoCE, one NIC per GPU).

Every constant below names its source; own estimates say so.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from expert.catalog.models import Band, Gpu, LlmModel
from expert.sizing.constants import Assumptions, exact, ranged, resolve
from expert.sizing.finetune import TRAIN_MEMORY_SHARE, finetune_states_gb, training_usable_gb  # noqa: F401
from expert.sizing.training import relative_efficiency

ANCHORS = "docs/notes/modelling-anchors.md"
GPUS_PER_NODE = 8
LAYOUTS = (1, 2, 4, 8, 16, 24, 32, 48, 64)

FULL_MFU = ranged(0.35, 0.50, "model FLOPS utilisation", "training MFU 0.35-0.5 (docs/notes/sizing-references"
                  ".md); NeMo 70B SFT on 16 H100 reaches 756 TFLOP/s = 38 % of the FP8 peak (" + ANCHORS
                  + " §3.1)", "point 0.40, on the reference A100 80 GB SXM", value=0.40)
LORA_MFU = ranged(0.15, 0.40, "model FLOPS utilisation at 4P FLOP/token", ANCHORS + " §3.2: torchtune 70B LoRA "
                  "on 8 A100 ≈ 40 %, NeMo FP8 LoRA 36 %, NeMo AutoModel BF16 LoRA 18 % (derived); 'use "
                  "15-40 % for LoRA planning'", "point 0.30 (own choice inside the cited band)", value=0.30)
QLORA_SPEED = exact(0.78, "× LoRA tokens/s", ANCHORS + " §3.2: torchtune 3.1-8B on one RTX 4090, QLoRA 2 413 vs "
                    "LoRA 3 083 tok/s (derived 2413/3083 = 0.78): NF4 dequantisation costs time")
OFFLOAD_SPEED = exact(0.67, "× MFU", ANCHORS + " §3.1-3.2: torchtune 70B full with CPU offload on 8 A100 reaches "
                      "≈ 27 % MFU (6 × 70.6e9 × 1 568 / (8 × 312e12), derived) against the 40 % point")
NODE_SPEED = ranged(0.60, 0.95, "× MFU beyond one node", "own estimate between NeMo (TP4 PP4 on 16 H100: 38 % "
                    "MFU, no visible loss; " + ANCHORS + " §3.1) and ZeRO-3 across nodes, which Qwen does not "
                    "recommend because of its inter-node traffic (ibid.); naive HF FSDP at batch 1 fell to "
                    "≈ 3 % (ibid., not used: a tuning failure, not a plan)", value=0.80)
HOST_RAM_GB = ranged(1000, 2000, "GB host RAM per 8-GPU node", "servnetuk data study: 'dual-socket CPU host with "
                     "1-2 TB of RAM' around HGX; HF FSDP 70B blog: ~1 TB per node (" + ANCHORS + " §3.1, §4.3)",
                     value=1000)
FABRIC = {"en": "InfiniBand NDR 400 Gb/s or 400 GbE RoCE, one NIC per GPU, between nodes",
          "de": "InfiniBand NDR 400 Gb/s oder 400 GbE RoCE, eine Netzwerkkarte pro GPU, zwischen den Knoten"}
FABRIC_CHF_PER_GPU = ranged(1500, 4000, "CHF per GPU, bought", "own estimate (not found: no citable list price "
                            "of a 400G NIC, cable and switch port in " + ANCHORS + " §4.3)", value=2500)
FABRIC_RENT_SHARE = ranged(0.0, 0.15, "× GPU-hour price", "own estimate: a multi-node rental with InfiniBand "
                           "costs up to 15 % more per GPU-hour than single nodes (not found in citable price "
                           "lists; Lambda's 8× H100 node is even cheaper per GPU than 1×, " + ANCHORS
                           + " §4.1)", value=0.10)


@dataclass
class JobLayout:
    """One way to run the job: GPUs, nodes, sharding, memory per GPU and hours per run."""

    gpu: str
    gpus: int
    nodes: int
    sharding: str                 # single-gpu | fsdp-node | fsdp-offload | fsdp-multinode
    memory_per_gpu_gb: float
    usable_per_gpu_gb: float
    host_ram_gb: float            # per node, for the offloaded states (0 without offload)
    fits: bool
    mfu: float
    hours: float
    hours_band: Band
    gpu_hours: float
    interconnect: str | None = None

    @property
    def multinode(self) -> bool:
        return self.nodes > 1


@dataclass
class FineTuneJob:
    """One run of a fine-tuning job on one GPU type: the smallest layout that fits, and the others."""

    method: str
    params_b: float
    dataset_tokens: float
    dataset_source: str
    epochs: float
    flops_per_token: float
    total_flops: float
    layout: JobLayout | None
    layouts: list[JobLayout] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def flops_per_param_token(method: str, a: Assumptions | None = None) -> float:
    """≈ 6 (full: forward 2P + backward 4P) or ≈ 4 (LoRA/QLoRA: no weight gradients)."""
    a = resolve(a)
    if method == "full":
        return a.flops_full.value
    if method in ("lora", "qlora"):
        return a.flops_lora.value
    raise ValueError(f"unknown fine-tuning method '{method}' (allowed: full, lora, qlora)")


def mfu_for(method: str, gpu: Gpu, nodes: int, offload: bool, a: Assumptions | None = None) -> tuple[float, Band]:
    """Effective MFU (point, band) of a run: method MFU × f(GPU) × node and offload factors."""
    base = FULL_MFU if method == "full" else LORA_MFU
    f, f_band = relative_efficiency(gpu, a)
    extra_lo = extra_pt = extra_hi = QLORA_SPEED.value if method == "qlora" else 1.0
    if offload:
        extra_lo, extra_pt, extra_hi = extra_lo * OFFLOAD_SPEED.value, extra_pt * OFFLOAD_SPEED.value, \
            extra_hi * OFFLOAD_SPEED.value
    if nodes > 1:
        extra_lo, extra_pt, extra_hi = extra_lo * NODE_SPEED.low, extra_pt * NODE_SPEED.value, \
            extra_hi * NODE_SPEED.high
    return base.value * f * extra_pt, Band.of(base.low * f_band.low * extra_lo, base.high * f_band.high * extra_hi)


def _states(model: LlmModel, method: str, a: Assumptions) -> tuple[float, float, float]:
    """(16-bit weights + grads, optimizer states, per-GPU activations + context) in GB: the figures of
    `finetune_memory(model, any GPU, 1, method, "bf16")` (`finetune_states_gb`, the same code)."""
    weights, grads, optim, act, ctx = finetune_states_gb(model, method, "bf16", a)
    return weights + grads, optim, act + ctx


def _layout(gpu: Gpu, method: str, n: int, offload: bool, work: float, a: Assumptions,
            states: tuple[float, float, float]) -> JobLayout:
    """The job on `n` GPUs; `states` is `_states(...)` of the model, computed once per plan by the callers."""
    wg, optim, per_gpu_fixed = states
    if offload:  # fp32 master + Adam moments live in host RAM; 16-bit weights and grads stay sharded
        per_gpu = wg / n + per_gpu_fixed
        host = optim
    else:
        per_gpu = (wg + optim) / n + per_gpu_fixed
        host = 0.0
    usable = training_usable_gb(gpu, a)
    nodes = max(1, math.ceil(n / GPUS_PER_NODE))
    fits = per_gpu <= usable and host <= HOST_RAM_GB.high
    mfu, band = mfu_for(method, gpu, nodes, offload, a)
    speed = n * gpu.fp16_tflops * 1e12
    h = _hours(work, speed, mfu)
    if offload:  # issue 33 item 2: a one-GPU run with its optimizer in host RAM is CPU offload too
        sharding = "fsdp-offload"
    elif n == 1:
        sharding = "single-gpu"
    else:
        sharding = "fsdp-node" if nodes == 1 else "fsdp-multinode"
    return JobLayout(gpu.id, n, nodes, sharding, per_gpu, usable, host, fits, mfu, h,
                     Band.of(_hours(work, speed, band.high), _hours(work, speed, band.low)), h * n,
                     FABRIC["en"] if nodes > 1 else None)


def _hours(work: float, speed: float, efficiency: float) -> float:
    """Hours of `work` FLOPs at `speed` FLOP/s peak and this share of it."""
    return work / (speed * efficiency) / 3600


def plan_job(model: LlmModel, gpu: Gpu, method: str, dataset_tokens: float, epochs: float = 1.0,
             dataset_source: str = "given", a: Assumptions | None = None, max_gpus: int = 64,
             min_gpus: int = 1) -> FineTuneJob:
    """The job on `gpu`: every layout from `min_gpus` up to the first that fits without offload
    (plus the one-node offload layout for a full fine-tune that needs more than one node)."""
    a = resolve(a)
    k = flops_per_param_token(method, a)
    work = k * model.params_b * 1e9 * dataset_tokens * epochs
    job = FineTuneJob(method, model.params_b, dataset_tokens, dataset_source, epochs, k, work, None)
    states = _states(model, method, a)
    for n in LAYOUTS:
        if n < min_gpus or n > max_gpus:
            continue
        lay = _layout(gpu, method, n, False, work, a, states)
        job.layouts.append(lay)
        if lay.fits:
            break
    if method == "full":
        for n in (8, 4, 2):
            if n < min_gpus or n > max_gpus:
                continue
            off = _layout(gpu, method, n, True, work, a, states)
            if off.fits and not any(lay.fits and lay.nodes == 1 for lay in job.layouts):
                job.layouts.append(off)
    fitting = [lay for lay in job.layouts if lay.fits]
    if fitting:  # fewest GPU-hours (cheapest when rented by the hour), then fewer GPUs
        job.layout = min(fitting, key=lambda lay: (round(lay.gpu_hours, 6), lay.gpus))
    return job


def layout_with(model: LlmModel, gpu: Gpu, method: str, gpus: int, dataset_tokens: float, epochs: float,
                offload: bool, a: Assumptions | None = None) -> JobLayout:
    """The job on exactly `gpus` GPUs with or without CPU offload as asked (a like-for-like comparison of
    two GPUs, e.g. the audit's mistake-2 figures)."""
    a = resolve(a)
    work = flops_per_param_token(method, a) * model.params_b * 1e9 * dataset_tokens * epochs
    return _layout(gpu, method, gpus, offload, work, a, _states(model, method, a))


def layout_on(model: LlmModel, gpu: Gpu, method: str, gpus: int, dataset_tokens: float, epochs: float = 1.0,
              a: Assumptions | None = None) -> JobLayout:
    """The job on exactly `gpus` GPUs (e.g. the serving GPUs at night); CPU offload only when one node
    without it does not fit a full fine-tune."""
    a = resolve(a)
    work = flops_per_param_token(method, a) * model.params_b * 1e9 * dataset_tokens * epochs
    states = _states(model, method, a)
    lay = _layout(gpu, method, gpus, False, work, a, states)
    if not lay.fits and method == "full" and gpus <= GPUS_PER_NODE:
        off = _layout(gpu, method, gpus, True, work, a, states)
        if off.fits:
            return off
    return lay
