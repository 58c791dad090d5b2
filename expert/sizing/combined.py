"""The two entry points combining the core: `estimate` (what `gpu-expert estimate` prints) and
`full_sizing` (memory, speed, capacity, cost and fine-tuning for one workload on one GPU type).

Both take catalog objects (`LlmModel`, `Gpu`), never ids: resolving ids is the caller's job, so the
core stays pure. A `params_b`-only workload uses `architecture.generic_model`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from expert.catalog.models import Gpu, LlmModel
from expert.sizing.architecture import generic_model
from expert.sizing.replicas import capacity, meets_targets, request_rates, slo_limited_batch
from expert.sizing.constants import Assumptions, resolve
from expert.sizing.tco import Money, cost
from expert.sizing.finetune import finetune_memory
from expert.sizing.engines import DEFAULT_ENGINE, check_engine
from expert.sizing.memory import choose_tensor_parallel, default_kv_precision, inference_memory, max_sequences
from expert.sizing.parallel import engine_tp_degrees
from expert.sizing.results import Capacity, Estimate, FineTuneMemory, FullSizing, InferenceMemory
from expert.sizing.speed import performance
from expert.sizing.steady import loaded_performance, without_operating_point
from expert.sizing.ft_run import job_run
from expert.inputs.slo import targets

if TYPE_CHECKING:
    from expert.inputs.workload import Workload

TRAIN_PRECISIONS = {"fp32", "bf16", "fp16"}


def estimate(model: LlmModel, gpu: Gpu, count: int = 1, precision: str = "fp16", mode: str = "inference",
             batch: int = 1, prompt_tokens: int | None = None, output_tokens: int | None = None,
             context_tokens: int | None = None, tensor_parallel: int | None = None, *,
             kv_precision: str | None = None, interconnect: str | None = None, dataset_tokens: float | None = None,
             assumptions: Assumptions | None = None, engine: str = DEFAULT_ENGINE,
             rate_rps: float | None = None, attention: str = "tp", prompt_cv: float = 0.0,
             recv_interval: int = 1) -> Estimate:
    """Memory and speed of `model` on `count` × `gpu`; for full/lora/qlora also fine-tuning memory and time.

    Inference: `batch` sequences per replica of context `context_tokens` (default prompt + output);
    TP defaults to the smallest degree that fits. Fine-tuning modes size the training run on all
    `count` GPUs (full uses 16-bit mixed precision whatever `precision` says; LoRA keeps the frozen
    weights at `precision`; QLoRA at NF4); `performance` is then the serving speed of the model.
    `engine` picks the serving engine's memory budget (`engines.py`); the KV cache precision defaults
    to `default_kv_precision(precision)`; `max_concurrent_sequences` is what one replica's pool holds.
    Without `tensor_parallel` the layout is `choose_layout`'s; `rate_rps` (requests/s for the whole
    configuration, split evenly over the replicas) gives the steady state at that arrival rate, else
    the steady state with `batch` requests in flight per replica (`performance.tpot_steady_s`).
    `attention` ("tp" | "dp", MLA models): the attention layout memory and capacity assume
    (`memory.inference_memory`; the speed model keeps TP's reads, `dp_attention.py`). `prompt_cv`: the
    coefficient of variation of the prompts' lengths (0: every prompt `prompt_tokens` long; `load.py`).
    `recv_interval`: the server takes in requests every that many decode steps (SGLang; `load.receive_wait_s`).
    """
    a = resolve(assumptions)
    engine = check_engine(engine)
    kv_precision = kv_precision or default_kv_precision(precision)
    prompt = int(a.default_prompt_tokens.value) if prompt_tokens is None else prompt_tokens
    output = int(a.default_output_tokens.value) if output_tokens is None else output_tokens
    context = context_tokens or min(model.max_context, prompt + output)
    if tensor_parallel:
        tp, why = tensor_parallel, "TP forced by --tp"
    else:
        tp, why = choose_layout(model, gpu, count, precision, context, batch, prompt, output, kv_precision, a,
                                engine, rate_rps, interconnect)
    capacity = max_sequences(model, gpu, tp, tp, precision, context, kv_precision, a, engine, attention)
    per_replica = None if rate_rps is None else rate_rps / (count // tp)
    perf = loaded_performance(model, gpu, count, tp, precision, batch, prompt, output, kv_precision, interconnect,
                              a, engine=engine, max_sequences=capacity or None, rate_rps=per_replica,
                              prompt_cv=prompt_cv, recv_interval=recv_interval)
    run = None
    if mode == "inference":
        perf = without_operating_point(perf, capacity, batch, rate_rps)
        memory = inference_memory(model, gpu, count, tp, precision, context, batch, kv_precision, a, engine,
                                  attention=attention)
    elif mode in ("full", "lora", "qlora"):
        frozen = precision if mode == "lora" else "bf16"
        if mode == "full" and precision not in TRAIN_PRECISIONS:
            raise ValueError("full fine-tuning trains in 16-bit mixed precision; use lora or qlora for "
                             f"quantised weights (got {precision})")
        memory = finetune_memory(model, gpu, count, mode, frozen, assumptions=a)
        run = job_run(model, gpu, count, mode, dataset_tokens, assumptions=a)
    else:
        raise ValueError(f"unknown mode '{mode}' (allowed: inference, full, lora, qlora)")
    return Estimate(model=model.id, gpu=gpu.id, count=count, precision=precision, mode=mode, batch=batch,
                    prompt_tokens=prompt, output_tokens=output, context_tokens=context, tensor_parallel=tp,
                    memory=memory, performance=perf, fine_tuning=run, engine=engine, kv_precision=kv_precision,
                    replicas=count // tp, max_concurrent_sequences=capacity, layout_reason=why, rate_rps=rate_rps,
                    prompt_cv=prompt_cv, recv_interval=recv_interval)


def tp_choices(model: LlmModel, count: int) -> list[int]:
    """TP degrees 1-8 dividing `count`, the KV heads and (named models) the attention heads: the
    configurator's set (`configurator.candidates.tp_degrees`)."""
    return [t for t in engine_tp_degrees(model) if count % t == 0 and model.kv_heads % t == 0] or [1]


def choose_layout(model: LlmModel, gpu: Gpu, count: int, precision: str, context: int, batch: int, prompt: int,
                  output: int, kv_precision: str, a: Assumptions, engine: str, rate_rps: float | None = None,
                  interconnect: str | None = None) -> tuple[int, str]:
    """(TP, why) as the configurator picks at equal GPU count (its tie-break prefers the smaller TP,
    `objective.sort_key`): the smallest TP whose replica's KV pool holds `batch` sequences and, at
    `rate_rps` for the whole configuration, whose replicas serve it in a stable steady state."""
    from expert.sizing import load
    from expert.sizing.steady import core_replica

    options = tp_choices(model, count)
    for tp in options:
        seqs = max_sequences(model, gpu, tp, tp, precision, context, kv_precision, a, engine)
        if seqs < batch:
            continue
        if rate_rps is not None:
            r = core_replica(model, gpu, tp, precision, prompt, output, kv_precision, engine, seqs, interconnect, a)
            if not load.steady(r, rate_rps / (count // tp)).stable:
                continue
        load_text = f"serves {rate_rps:g} req/s" if rate_rps is not None else f"holds batch {batch} per replica"
        return tp, (f"smallest TP whose replica {load_text} ({seqs} sequences fit), as the configurator "
                    "picks at equal GPU count; --tp forces another")
    return options[-1], "no TP holds the load; the largest TP shown"


def _workload(workload_like) -> Workload:
    from expert.inputs.workload import Workload  # the advice's sizing: `estimate` itself reads no workload

    return workload_like if isinstance(workload_like, Workload) else Workload.model_validate(workload_like)


@dataclass(frozen=True)
class OperatingPoint:
    """`full_sizing`'s steps up to the GPU count: the layout, the operating batch and the capacity at
    `count` GPUs, with what the rest of the sizing reads (the catalog model, the context, the defaults)."""

    workload: Workload
    model: LlmModel
    gpu: Gpu
    context: int
    tensor_parallel: int
    batch: int
    count: int
    capacity: Capacity
    assumptions: Assumptions

    def memory(self) -> InferenceMemory:
        """The replica's memory at the operating batch (`full_sizing`'s `memory`)."""
        w = self.workload
        return inference_memory(self.model, self.gpu, self.count, self.tensor_parallel, w.precision, self.context,
                                self.batch, w.kv_precision, self.assumptions, w.engine)

    def finetune_memory(self) -> FineTuneMemory | None:
        """The fine-tuning job's memory on the `count` GPUs, None without fine-tuning (`full_sizing`'s)."""
        tuning = self.workload.tuning
        return finetune_memory(self.model, self.gpu, self.count, tuning.method, "bf16",
                               assumptions=self.assumptions) if tuning.enabled else None


def operating_point(workload_like, gpu: Gpu, model: LlmModel | None = None, count: int | None = None,
                    interconnect: str | None = None, assumptions: Assumptions | None = None) -> OperatingPoint:
    """The operating point `full_sizing` sizes one workload at (its first steps, see there): the advice's
    summaries read only it, its memory and its fine-tuning memory, not the speed at the count, the
    cost or the fine-tuning run."""
    a = resolve(assumptions)
    w = _workload(workload_like)
    if model is None:
        if w.params_b is None:
            raise ValueError(f"pass the catalog model for workload model '{w.model}'")
        model = generic_model(w.params_b)
    context = min(w.context, model.max_context)
    kvp, engine = w.kv_precision, w.engine
    tp = choose_tensor_parallel(model, gpu, count or 8, w.precision, context, 1, kvp, a, engine=engine)
    seq_mem = max_sequences(model, gpu, tp, tp, w.precision, context, kvp, a, engine)
    slo = targets(w)
    seq_lat = slo_limited_batch(model, gpu, tp, w.precision, w.prompt_tokens, w.output_tokens,
                                slo, seq_mem, interconnect, a, engine) if seq_mem else 0
    # latency target unreachable even at batch 1: it cannot bind, so the memory limit sizes the replica
    seqs = min(seq_mem, seq_lat) if seq_lat else seq_mem
    batch = max(1, seqs)
    perf_probe = performance(model, gpu, tp, tp, w.precision, batch, w.prompt_tokens, w.output_tokens, kvp,
                             interconnect=interconnect, assumptions=a, engine=engine)
    inference_time = w.inference_time_s or perf_probe.e2e_latency_s
    average, peak = request_rates(w.requests_per_day, w.requests_per_second, w.peak_factor, a)
    cap = capacity(average, peak, inference_time, seqs, tp, w.target_utilization, count, seq_mem, seq_lat, a,
                   latency_met=meets_targets(perf_probe, slo))
    n = count or cap.gpus_needed or tp
    n = max(tp, n - n % tp)
    if count is None:
        cap = capacity(average, peak, inference_time, seqs, tp, w.target_utilization, n, seq_mem, seq_lat, a,
                       latency_met=cap.latency_met)
    return OperatingPoint(w, model, gpu, context, tp, batch, n, cap, a)


def full_sizing(workload_like, gpu: Gpu, model: LlmModel | None = None, count: int | None = None,
                monthly_rent: Money | None = None, purchase: Money | None = None, fx=None,
                interconnect: str | None = None, assumptions: Assumptions | None = None) -> FullSizing:
    """Size one workload (a `Workload` or its dict) on one GPU type.

    Steps: TP = smallest degree holding one sequence; sequences per replica = min(memory limit,
    latency limit: the largest batch meeting the latency targets of `expert.inputs.slo.targets` without
    queueing), or the memory limit when the targets are out of reach even at batch 1
    (then `capacity.latency_met` is False); inference time = the workload's, else the end-to-end
    latency at that batch; capacity (000 D3 at peak load) gives the GPU count unless `count` is
    given (`operating_point`); memory and speed are then reported at the operating batch; cost for
    the workload's horizon (rent, or buy when the budget is capex and a purchase price is given); the
    fine-tuning run and its memory when the workload has one (on the same `count` GPUs).
    """
    point = operating_point(workload_like, gpu, model, count, interconnect, assumptions)
    w, model, a, n = point.workload, point.model, point.assumptions, point.count
    perf = performance(model, gpu, n, point.tensor_parallel, w.precision, point.batch, w.prompt_tokens,
                       w.output_tokens, w.kv_precision, interconnect=interconnect, assumptions=a, engine=w.engine)
    money = None
    if w.budget == "capex" and purchase is not None:
        money = cost(gpu, "buy", n, w.horizon_months, monthly_rent, purchase, fx, a)
    elif monthly_rent is not None:
        money = cost(gpu, "rent", n, w.horizon_months, monthly_rent, purchase, fx, a)
    run = None
    tuning = w.tuning
    if tuning.enabled:
        run = job_run(model, gpu, n, tuning.method, tuning.dataset_tokens, tuning.epochs,
                      tuning.runs_per_year, w.team_hourly_rate_chf, a)
    return FullSizing(model=model.id, gpu=gpu.id, count=n, memory=point.memory(), performance=perf,
                      capacity=point.capacity, cost=money, fine_tuning=run, fine_tuning_memory=point.finetune_memory())
