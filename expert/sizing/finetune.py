"""Fine-tuning memory (full, LoRA, QLoRA), with document 000's "3-4× inference" rule shown beside it.

- Full fine-tuning, mixed-precision AdamW: 16 B per parameter of model state = 2 (16-bit weights)
  + 2 (16-bit gradients) + 12 (fp32 master copy, momentum, variance) (ZeRO, arXiv:1910.02054 §3.1);
  common implementations keep fp32 gradient buffers and reach 18-20 B (the band).
- LoRA: frozen weights at the given precision + trainable adapters r·(d_in + d_out) per adapted
  matrix, each trainable parameter with the same 16 B of state. Default rank 16 on the attention
  projections q, k, v, o (k and v are kv_heads·head_dim wide under GQA).
- QLoRA: frozen weights in NF4 with double quantisation ≈ 0.516 B/param (QLoRA arXiv:2305.14314 §3),
  except the embeddings and lm_head, which bitsandbytes leaves in 16 bit (counted untied).
- Activations per layer and micro-batch (Korthikanti et al. arXiv:2205.05198 §4.1):
  s·b·h·(34 + 5·a·s/h) bytes at 16 bit; FlashAttention drops the quadratic term; with full
  gradient checkpointing only the layer inputs (2·s·b·h per layer) stay, plus one layer's working set
  during recomputation; plus the fp32 logits for the loss (s·b·vocab·4). Not included: CUDA
  graphs, allocator fragmentation beyond the 10 % margin.
- Model states are sharded over `count` GPUs (ZeRO-3/FSDP); activations are per GPU.

000 D2 says fine-tuning multiplies memory by 3-4×. Taken against D1's inference memory (16-bit
weights), full AdamW fine-tuning needs ≈ 8× and more; LoRA and QLoRA are below 3×. Both are
reported: `document_rule_gb` (the rule) and `ratio_to_inference` (what the formula gives).

Run time and team cost live in `expert.sizing.training` and are re-exported here.
"""

from __future__ import annotations

from expert.catalog.models import Band, Gpu, LlmModel
from expert.sizing.constants import Assumptions, exact, resolve
from expert.sizing.engines import device_memory_gb
from expert.sizing.memory import bytes_per_param
from expert.sizing.results import FineTuneMemory, Provenance
from expert.sizing.training import (finetune_run, implied_dataset_tokens, relative_finetune_time,  # noqa: F401
                                    team_time_cost, total_cost_with_team, training_efficiency)

DEFAULT_TARGETS = ("q", "k", "v", "o")


def _matrix_shapes(model: LlmModel) -> dict[str, tuple[int, int]]:
    q_out, kv_out = model.heads * model.head_dim, model.kv_heads * model.head_dim
    inter = model.intermediate or 4 * model.hidden
    return {"q": (model.hidden, q_out), "k": (model.hidden, kv_out), "v": (model.hidden, kv_out),
            "o": (q_out, model.hidden), "gate": (model.hidden, inter), "up": (model.hidden, inter),
            "down": (inter, model.hidden)}


def lora_trainable_params(model: LlmModel, rank: int | None = None, targets: tuple[str, ...] = DEFAULT_TARGETS,
                          assumptions: Assumptions | None = None) -> float:
    """Trainable LoRA parameters: layers × Σ r·(d_in + d_out) over the adapted matrices (MLP × experts)."""
    r = int(resolve(assumptions).lora_rank.value) if rank is None else rank
    shapes = _matrix_shapes(model)
    per_layer = 0
    for name in targets:
        if name not in shapes:
            raise ValueError(f"unknown LoRA target '{name}' (allowed: {', '.join(shapes)})")
        d_in, d_out = shapes[name]
        experts = (model.experts or 1) if name in ("gate", "up", "down") else 1
        per_layer += r * (d_in + d_out) * experts
    return float(model.layers * per_layer)


def checkpoint_gb(model: LlmModel, method: str, assumptions: Assumptions | None = None) -> tuple[float, float]:
    """(trainable parameters, GB) of one resumable checkpoint: the trainable parameters × 14 B (16-bit
    weights + fp32 master and Adam moments; `Assumptions.checkpoint_bytes`, gradients not saved). Full:
    every parameter; LoRA/QLoRA: the adapters only (the frozen base model is not saved)."""
    a = resolve(assumptions)
    trainable = model.params_b * 1e9 if method == "full" else lora_trainable_params(model, assumptions=a)
    return trainable, trainable * a.checkpoint_bytes.value / 1e9


def training_activation_gb(model: LlmModel, seq_len: int, micro_batch: int = 1, flash_attention: bool = True,
                           gradient_checkpointing: bool = True, assumptions: Assumptions | None = None) -> float:
    """Activation memory per GPU (GB) after Korthikanti et al.; see the module docstring."""
    a = resolve(assumptions)
    s, b, h = seq_len, micro_batch, model.hidden
    quadratic = 0.0 if flash_attention else a.act_quadratic_coeff.value * model.heads * s / h
    full_layer = s * b * h * (a.act_linear_coeff.value + quadratic)
    logits = s * b * model.vocab * a.logits_bytes.value
    if gradient_checkpointing:
        return (model.layers * a.act_recompute_coeff.value * s * b * h + full_layer + logits) / 1e9
    return (model.layers * full_layer + logits) / 1e9


def finetune_states_gb(model: LlmModel, method: str = "lora", precision: str = "bf16",
                       assumptions: Assumptions | None = None) -> tuple[float, float, float, float, float]:
    """(weights, gradients, optimizer, activation, overhead) GB of one GPU's run at the default sequence
    length, micro-batch, checkpointing and LoRA settings: the figures of `finetune_memory(model, gpu, 1,
    method, precision, assumptions=...)`, computed by the same code (`_figures`) without its
    provenance, bands and result model (the job planner needs only these five numbers)."""
    a = resolve(assumptions)
    _, _, weights, grads, optim, act, ctx = _figures(model, method, precision, int(a.ft_seq_len.value),
                                                     int(a.ft_micro_batch.value), True, True, None,
                                                     DEFAULT_TARGETS, a)
    return weights, grads, optim, act, ctx


TRAIN_MEMORY_SHARE = exact(0.95, "× GPU memory", "own estimate: PyTorch caching-allocator fragmentation; the "
                           "serving engine's 0.9 (vLLM gpu_memory_utilization) does not apply while a run "
                           "owns the GPU")


def training_usable_gb(gpu: Gpu, assumptions: Assumptions | None = None) -> float:
    """What a fine-tuning run can use of one GPU, decimal GB: the card's memory as the driver reports it
    (`engines.device_memory_gb`, the basis serving uses: nominal GiB × visible share) × `TRAIN_MEMORY_SHARE`.
    The one figure of the job planner (`ft_job`), `finetune_memory` and `estimate --mode full|lora|qlora`."""
    return device_memory_gb(gpu, assumptions) * TRAIN_MEMORY_SHARE.value


def _figures(model: LlmModel, method: str, precision: str, s: int, b: int, gradient_checkpointing: bool,
             flash_attention: bool, lora_rank: int | None, lora_targets: tuple[str, ...], a: Assumptions) -> tuple:
    """(trainable params, frozen bytes-per-parameter record or None, weights, gradients, optimizer,
    activation, overhead GB) of a run on one GPU."""
    if method == "full":
        trainable, frozen_gb, frozen = model.params_b * 1e9, 0.0, None
    elif method in ("lora", "qlora"):
        trainable = lora_trainable_params(model, lora_rank, lora_targets, a)
        frozen = bytes_per_param("nf4" if method == "qlora" else precision, a)
        frozen_gb = model.params_b * frozen.value
        if method == "qlora":  # embeddings and lm_head are not quantised
            embed_b = min(model.params_b, 2 * model.vocab * model.hidden / 1e9)
            frozen_gb += embed_b * (a.qlora_unquantised_bytes.value - frozen.value)
    else:
        raise ValueError(f"unknown fine-tuning method '{method}' (allowed: full, lora, qlora)")
    weights = frozen_gb + trainable * a.ft_weight_bytes.value / 1e9
    grads, optim = trainable * a.ft_gradient_bytes.value / 1e9, trainable * a.ft_optimizer_bytes.value / 1e9
    act = training_activation_gb(model, s, b, flash_attention, gradient_checkpointing, a)
    return trainable, frozen, weights, grads, optim, act, a.cuda_context_gb.value


def finetune_memory(model: LlmModel, gpu: Gpu, count: int = 1, method: str = "lora", precision: str = "bf16",
                    seq_len: int | None = None, micro_batch: int | None = None, gradient_checkpointing: bool = True,
                    flash_attention: bool = True, lora_rank: int | None = None,
                    lora_targets: tuple[str, ...] = DEFAULT_TARGETS,
                    assumptions: Assumptions | None = None) -> FineTuneMemory:
    """Memory of one fine-tuning run on `count` GPUs (full | lora | qlora), per GPU and in total."""
    a = resolve(assumptions)
    s = int(a.ft_seq_len.value) if seq_len is None else seq_len
    b = int(a.ft_micro_batch.value) if micro_batch is None else micro_batch
    wb, gb, ob = a.ft_weight_bytes, a.ft_gradient_bytes, a.ft_optimizer_bytes
    trainable, frozen, weights, grads, optim, act, ctx = _figures(
        model, method, precision, s, b, gradient_checkpointing, flash_attention, lora_rank, lora_targets, a)
    frozen_src = None if frozen is None else frozen.cite()
    if method == "qlora":
        frozen_src += "; " + a.qlora_unquantised_bytes.cite()
    states = weights + grads + optim
    per_gpu = states / count + act + ctx
    states_hi = weights + trainable * (gb.high + ob.high) / 1e9
    usable = training_usable_gb(gpu, a)
    reference = model.params_b * 2
    doc = a.doc_finetune_multiplier
    per_hi = states_hi / count + act + ctx
    prov = {
        "weights_gb": Provenance(formula="full: params × 2 B; LoRA/QLoRA: params × frozen bytes + adapters × 2 B",
                                 sources=[wb.cite()] + ([frozen_src] if frozen_src else [])),
        "gradients_gb": Provenance(formula="trainable params × 2 B", sources=[gb.cite()]),
        "optimizer_gb": Provenance(formula="trainable params × 12 B (fp32 master, m, v)", sources=[ob.cite()]),
        "activation_gb": Provenance(
            formula="checkpointing: L·2·s·b·h + s·b·h·34; else L·s·b·h·(34 + 5·a·s/h); + s·b·vocab·4 logits",
            sources=[a.act_linear_coeff.cite(), a.act_recompute_coeff.cite(), a.logits_bytes.cite()]),
        "overhead_gb": Provenance(formula="CUDA context per GPU", sources=[a.cuda_context_gb.cite()]),
        "per_gpu_gb": Provenance(formula="model states / count (ZeRO-3/FSDP) + activations + overhead"),
        "document_rule_gb": Provenance(formula="3-4 × inference memory (16-bit weights, D1)", sources=[doc.cite()]),
    }
    if method != "full":
        prov["trainable_params"] = Provenance(formula="layers × Σ r·(d_in + d_out), targets "
                                              + ",".join(lora_targets), sources=[a.lora_rank.cite()])
    return FineTuneMemory(
        weights_gb=weights, kv_cache_gb=0.0, activation_gb=act, overhead_gb=ctx, optimizer_gb=optim,
        gradients_gb=grads, total_gb=states + (act + ctx) * count, per_gpu_gb=per_gpu, usable_per_gpu_gb=usable,
        fits=per_gpu <= usable, method=method, count=count, trainable_params=trainable, seq_len=s, micro_batch=b,
        gradient_checkpointing=gradient_checkpointing, flash_attention=flash_attention,
        inference_reference_gb=reference, document_rule_gb=Band(low=doc.low * reference, high=doc.high * reference),
        ratio_to_inference=(states + (act + ctx) * count) / reference, provenance=prov,
        bands={"per_gpu_gb": Band(low=per_gpu, high=per_hi),
               "total_gb": Band(low=states + (act + ctx) * count, high=states_hi + (act + ctx) * count)},
    )
