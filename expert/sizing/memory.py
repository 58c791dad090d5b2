"""Inference memory: weights, KV cache, runtime, per-GPU split under tensor parallelism, and the inverse.

Decimal GB (1e9 bytes) like document 000 (D1: 7B in FP16 ≈ 14-16 GB). Known bugs avoided
(docs/notes/sizing-references.md): the KV cache honours grouped-query attention (`kv_heads`),
`head_dim` from the config, and sliding-window layers (they hold min(context, window) tokens); a
mixture-of-experts model keeps *all* experts in memory (only bandwidth uses the active ones); MLA
models (DeepSeek) cache the compressed latent (kv_lora_rank + rope dim per token and layer); the
KV cache is sized at the context the operator configures, never silently at the model's maximum.
Under tensor parallelism each GPU holds weights / TP and ceil(kv_heads / TP) KV heads, at least one:
with kv_heads < TP the heads are replicated, so per-GPU KV stops shrinking.

Below 16 bits the embedding and the LM head (and a vision tower) stay 16-bit (GPTQ/AWQ and
llm-compressor FP8 quantise the blocks' linear layers only; a model's native format may cover less:
gpt-oss's MXFP4 covers the routed experts only, `kept_16bit_params_b`): Llama-3.3-70B FP8-dynamic loads 67.72 GiB = 72.7 GB, (70.6 − 2.1) × 1 B +
2.1 × 2 B (LLMD_019). The engine's budget (how much memory is left for the KV cache) comes from
`engines.budget`: vLLM by default, or TensorRT-LLM, SGLang, llama.cpp, transformers.
"""

from __future__ import annotations

import math

from expert.catalog.models import Band, Gpu, LlmModel
from expert.sizing.constants import LLMD, LLMD_019, Assumptions, Constant, resolve
from expert.sizing import dp_attention
from expert.sizing.engines import DEFAULT_ENGINE, budget
from expert.sizing.parallel import TP_DEGREES, engine_tp_degrees
from expert.sizing.results import InferenceMemory, Provenance


def bytes_per_param(precision: str, assumptions: Assumptions | None = None) -> Constant:
    """The bytes-per-parameter record of a precision (fp32, bf16, fp16, fp8, int8, int4, nf4)."""
    table = resolve(assumptions).bytes_per_param
    if precision not in table:
        raise ValueError(f"unknown precision '{precision}' (allowed: {', '.join(table)})")
    return table[precision]


def default_kv_precision(precision: str) -> str:
    """The KV cache precision when none is given: the weights' for 16/32-bit and FP8 (FP8 checkpoints
    carry KV scales in TensorRT-LLM and vLLM), 16-bit for weight-only int8/int4/nf4 (AWQ/GPTQ keep an
    fp16 KV cache)."""
    return precision if precision in ("fp32", "bf16", "fp16", "fp8") else "fp16"  # mxfp4: gpt-oss caches BF16


def kv_precision_at(precision: str, stated: str | None = None) -> str:
    """The KV cache precision of a configuration whose weights are in `precision`: the `stated` one
    (`kv_cache_precision`), else the precision's default (`default_kv_precision`). An open precision's
    candidates each take their own: its fp8 candidate caches in FP8, its 16-bit and weight-only ones in
    16 bits (issue 32: the KV precision in every speed path)."""
    return stated or default_kv_precision(precision)


def embedding_params_b(model: LlmModel) -> float:
    """Parameters of the input embedding and the LM head (vocab × hidden each, counted untied), billions."""
    return min(model.params_b, 2 * model.vocab * model.hidden / 1e9)


def expert_params_b(model: LlmModel) -> float:
    """Parameters of all routed experts, billions: E × (total − active) / (E − k), each expert the
    difference between total and active spread over the experts a token does not read; 0 for dense models
    and MoE entries without expert counts."""
    e, k = model.experts or 0, model.experts_active or 0
    if not model.is_moe or not model.active_params_b or e <= k:
        return 0.0
    return e * (model.params_b - model.active_params_b) / (e - k)


def kept_16bit_params_b(model: LlmModel, precision: str) -> float:
    """Parameters that stay 16-bit under a sub-16-bit `precision`, billions; the rest take its bytes.

    The model's native format covers what `native_scope` says (gpt-oss: the routed experts only, so
    attention, router and embeddings stay BF16); any other precision, like GPTQ/AWQ and llm-compressor
    FP8, every linear layer: the embedding, the LM head and a vision tower stay 16-bit."""
    if precision == model.native_precision and model.native_scope == "experts":
        return model.params_b - expert_params_b(model)
    return embedding_params_b(model) + (model.vision_params_b or 0.0)


def weights_gb(model: LlmModel, precision: str = "fp16", assumptions: Assumptions | None = None,
               end: str = "value") -> float:
    """Weight memory, GB: params × bytes per parameter (all experts of an MoE); below 16 bits only
    `kept_16bit_params_b` keep 2 bytes, the rest take the precision's. `end` picks the band's
    "low"/"high" bytes per parameter."""
    bpp = getattr(bytes_per_param(precision, assumptions), end)
    half = bytes_per_param("bf16", assumptions).value
    if bpp >= half:
        return model.params_b * bpp
    kept = min(model.params_b, kept_16bit_params_b(model, precision))
    return (model.params_b - kept) * bpp + kept * half


def kv_bytes_per_token(model: LlmModel, kv_precision: str = "fp16", context_tokens: int | None = None,
                       assumptions: Assumptions | None = None) -> float:
    """KV bytes per token of context: layers · (2 · kv_heads · head_dim, or the MLA latent) · bytes.

    With a sliding window and a given context, it is the average over the context: windowed layers
    hold only min(context, window) tokens.
    """
    per_layer = model.kv_values_per_token_layer * bytes_per_param(kv_precision, assumptions).value
    if context_tokens is None or not model.sliding_window:
        return model.layers * per_layer
    return kv_cache_gb(model, context_tokens, 1, kv_precision, assumptions) * 1e9 / context_tokens


def kv_cache_gb(model: LlmModel, context_tokens: int, sequences: int = 1, kv_precision: str = "fp16",
                assumptions: Assumptions | None = None) -> float:
    """KV cache of `sequences` sequences of `context_tokens` tokens, GB (MoE: experts do not matter)."""
    if context_tokens < 0 or sequences < 0:
        raise ValueError("context_tokens and sequences must not be negative")
    per_layer_token = model.kv_values_per_token_layer * bytes_per_param(kv_precision, assumptions).value
    share = model.sliding_window_share if model.sliding_window else 0.0
    window_tokens = min(context_tokens, model.sliding_window or context_tokens)
    tokens_layers = model.layers * ((1 - share) * context_tokens + share * window_tokens)
    return sequences * per_layer_token * tokens_layers / 1e9


def kv_heads_per_gpu(model: LlmModel, tensor_parallel: int) -> int:
    """KV heads each GPU holds: ceil(kv_heads / TP), at least 1 (replicated when kv_heads < TP).

    MLA models (`kv_lora_rank` set) cache one latent per token that is not split by heads: every
    GPU of the TP group holds all of it (vLLM replicates it), so this returns `kv_heads` and the
    per-GPU share kv_heads_per_gpu / kv_heads is 1.
    """
    if model.kv_lora_rank:
        return model.kv_heads
    return max(1, math.ceil(model.kv_heads / tensor_parallel))


def default_context(model: LlmModel, assumptions: Assumptions | None = None) -> int:
    """Context when none is given: default prompt + output tokens (1500 + 250), capped at the model's."""
    a = resolve(assumptions)
    return min(model.max_context, int(a.default_prompt_tokens.value + a.default_output_tokens.value))


def inference_memory(model: LlmModel, gpu: Gpu, count: int = 1, tensor_parallel: int | None = None,
                     precision: str = "fp16", context_tokens: int | None = None, sequences: int = 1,
                     kv_precision: str = "fp16", assumptions: Assumptions | None = None,
                     engine: str = DEFAULT_ENGINE, shared_prefix_tokens: int = 0,
                     attention: str = "tp") -> InferenceMemory:
    """Memory of one replica (TP group) holding `sequences` sequences of `context_tokens` tokens, of which
    the first `shared_prefix_tokens` (an agent's system prompt) are the same for every sequence and held
    once by the engine's prefix cache.

    `attention` (MLA models only; `dp_attention.py`): "tp" holds every latent on every GPU of the
    replica; "dp" (data-parallel attention, SGLang and vLLM) each session's latent once, on one GPU
    (KV per GPU = sessions' KV / TP, a shared prefix once per GPU), with the attention weights
    replicated ((weights − attention)/TP + attention per GPU), as the configurator's profile sizes it.

    per GPU = weights/TP + KV(heads per GPU) + activation + overhead; usable = what `engine` holds per
    GPU (weights + activation + overhead + its KV pool, `engines.budget`); fits when the pool holds
    the sequences' KV (and is positive: the engine starts). `count` GPUs form count/TP replicas. TP
    defaults to the smallest degree that fits (`choose_tensor_parallel`).
    """
    a = resolve(assumptions)
    context = default_context(model, a) if context_tokens is None else context_tokens
    tp = tensor_parallel or choose_tensor_parallel(model, gpu, count, precision, context, sequences, kv_precision, a,
                                                   engine=engine)
    if tp < 1 or count % tp:
        raise ValueError(f"count {count} must be a multiple of tensor_parallel {tp}")
    bpp = bytes_per_param(precision, a)
    weights = weights_gb(model, precision, a)
    shared = min(shared_prefix_tokens, context)
    kv = kv_cache_gb(model, context - shared, sequences, kv_precision, a) \
        + (kv_cache_gb(model, shared, 1, kv_precision, a) if shared else 0.0)
    heads = kv_heads_per_gpu(model, tp)
    layout = attention if model.kv_lora_rank else "tp"
    w_gpu = dp_attention.weights_per_gpu_gb(weights, dp_attention.attention_params_b(model) * bpp.value, tp, layout)
    kv_gpu = kv * heads / model.kv_heads
    if layout == "dp":  # each session's latent once, spread; the shared prefix in each GPU's own cache
        shared_kv = kv_cache_gb(model, shared, 1, kv_precision, a) if shared else 0.0
        kv_gpu = (kv - shared_kv) / tp + shared_kv
    b = budget(engine, model, gpu, tp, w_gpu, context, a)
    act, over = b.activation_gb, b.overhead_gb
    act_band = b.activation_band or Band(low=act, high=act)
    per_gpu = w_gpu + kv_gpu + act + over
    usable = b.usable_gb
    w_band = Band(low=weights_gb(model, precision, a, "low"), high=weights_gb(model, precision, a, "high"))
    per_band = Band(low=w_band.low / tp + w_gpu - weights / tp + kv_gpu + act_band.low + over,
                    high=w_band.high / tp + w_gpu - weights / tp + kv_gpu + act_band.high + over)
    kv_src = ("layers·2·kv_heads·head_dim (MLA: latent + rope)·bytes·tokens·sequences; windowed layers hold "
              "min(context, window); a shared prefix once")
    fits = b.kv_pool_gb > 0 and per_gpu <= usable
    prov = {
        "weights_gb": Provenance(formula="params_b × bytes per parameter (all experts); below 16 bits the "
                                 "embedding and LM head stay 16-bit", sources=[bpp.cite(), LLMD_019]),
        "kv_cache_gb": Provenance(formula=kv_src, sources=[model.sources.get("default", model.id)]),
        "activation_gb": Provenance(formula=f"{engine}: activation reserve per GPU", sources=b.sources),
        "overhead_gb": Provenance(formula=f"{engine}: non-torch / runtime memory per GPU", sources=b.sources),
        "per_gpu_gb": Provenance(formula="weights/TP + KV × ceil(kv_heads/TP)/kv_heads + activation + overhead"),
        "usable_per_gpu_gb": Provenance(formula=f"{engine}: {b.formula}; + weights, activation, overhead",
                                        sources=b.sources),
        "total_gb": Provenance(formula="per_gpu_gb × TP (includes replicated KV heads)"),
    }
    return InferenceMemory(
        weights_gb=weights, kv_cache_gb=kv, activation_gb=act, overhead_gb=over,
        total_gb=per_gpu * tp, per_gpu_gb=per_gpu, usable_per_gpu_gb=usable, fits=fits,
        precision=precision, tensor_parallel=tp, replicas=count // tp, context_tokens=context,
        sequences=sequences, weights_per_gpu_gb=w_gpu, kv_cache_per_gpu_gb=kv_gpu,
        kv_replication=1.0 if layout == "dp" else (heads * tp / model.kv_heads if heads * tp > model.kv_heads else 1.0),
        attention=layout if model.kv_lora_rank else None,
        headroom_gb=usable - per_gpu, headroom_ratio=(usable - per_gpu) / usable,
        engine=engine, kv_precision=kv_precision, device_memory_gb=b.device_gb, kv_pool_per_gpu_gb=b.kv_pool_gb,
        provenance=prov,
        bands={"weights_gb": w_band, "activation_gb": act_band, "per_gpu_gb": per_band,
               "total_gb": per_band.scaled(tp)},
    )


def max_sequences(model: LlmModel, gpu: Gpu, count: int = 1, tensor_parallel: int | None = None,
                  precision: str = "fp16", context_tokens: int | None = None, kv_precision: str = "fp16",
                  assumptions: Assumptions | None = None, engine: str = DEFAULT_ENGINE, attention: str = "tp",
                  shared_prefix_tokens: int = 0) -> int:
    """Most concurrent sequences one replica holds: floor(the engine's KV pool per GPU / KV per sequence per GPU).

    The inverse of `inference_memory`: 0 when the weights and runtime alone do not fit. A shared prefix
    (`shared_prefix_tokens`, an agent's system prompt) is held once, each sequence holding the rest.
    """
    a = resolve(assumptions)
    context = default_context(model, a) if context_tokens is None else context_tokens
    shared = min(shared_prefix_tokens, context)
    base = inference_memory(model, gpu, count, tensor_parallel, precision, context, 0, kv_precision, a, engine,
                            shared_prefix_tokens=shared, attention=attention)
    per_seq = kv_cache_gb(model, context - shared, 1, kv_precision, a) * kv_heads_per_gpu(model, base.tensor_parallel) \
        / model.kv_heads
    if base.attention == "dp":
        per_seq /= base.tensor_parallel
    if base.headroom_gb <= 0:
        return 0
    if per_seq <= 0:
        raise ValueError("KV per sequence is zero; give a positive context")

    def fits(n: int) -> bool:
        return inference_memory(model, gpu, count, base.tensor_parallel, precision, context, n, kv_precision, a,
                                engine, shared_prefix_tokens=shared, attention=attention).fits

    n = int(math.floor(base.headroom_gb / per_seq))
    while n > 0 and not fits(n):  # guard the floor against rounding at the boundary
        n -= 1
    while fits(n + 1):
        n += 1
    return n


def choose_tensor_parallel(model: LlmModel, gpu: Gpu, count: int, precision: str = "fp16",
                           context_tokens: int | None = None, sequences: int = 1, kv_precision: str = "fp16",
                           assumptions: Assumptions | None = None, engine: str = DEFAULT_ENGINE, attention: str = "tp") -> int:
    """Smallest TP in 1, 2, 4, 8 dividing `count` (and the model's heads, `engine_tp_degrees`) at which the
    replica fits; else the largest such TP."""
    a = resolve(assumptions)
    candidates = [d for d in TP_DEGREES if d <= count and count % d == 0 and d in engine_tp_degrees(model)] or [1]
    for tp in candidates:
        if inference_memory(model, gpu, count, tp, precision, context_tokens, sequences, kv_precision, a,
                            engine).fits:
            return tp
    return candidates[-1]


__all__ = ["bytes_per_param", "weights_gb", "embedding_params_b", "expert_params_b", "kept_16bit_params_b", "default_kv_precision", "kv_precision_at", "kv_bytes_per_token",
           "kv_cache_gb", "kv_heads_per_gpu", "inference_memory", "max_sequences",
           "choose_tensor_parallel", "default_context", "LLMD"]
