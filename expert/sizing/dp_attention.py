"""Data-parallel attention for MLA models: each GPU of a replica holds the latent of its own requests.

Under tensor parallelism an MLA model (`kv_lora_rank` set: DeepSeek-V3/R1, Kimi K2) caches one latent
per token that is not split by heads, so every GPU of the TP group holds all of it (`memory.kv_heads_per_gpu`).
vLLM (docs "Data Parallel Deployment", read 2026-12-05: for MoE models "like DeepSeek that employ MLA
... it can be advantageous to use data parallel for the attention layers and expert or tensor parallel
(EP or TP) for the expert layers"), SGLang (`--enable-dp-attention`) and Ray Serve LLM (docs "Data
parallel attention": for MLA models "where KV cache can't be sharded along the head dimension") run
the attention of an MLA model data-parallel across the GPUs of the replica instead: each GPU holds the latent
of the requests routed to it, and the experts/MLP stay sharded. For a replica of `tp` GPUs:

- KV per GPU = the replica's latent / tp (each session's latent once, on one GPU);
- the attention weights are replicated on every GPU instead of split: per GPU = (weights − attention)/tp
  + attention. MLA attention per layer = hidden·q_lora + q_lora·heads·head_dim (q; full rank
  hidden·heads·head_dim without q_lora) + hidden·(kv_lora + rope) + kv_lora·heads·2·(head_dim − rope)
  (kv) + heads·(head_dim − rope)·hidden (o). DeepSeek-V3: 187.1 M × 61 layers = 11.4 B parameters.
- a shared prefix (an agent's system prompt) sits in each GPU's own prefix cache: once per GPU, as under TP;
- communication: the per-layer all-reduce of TP attention becomes an all-gather of the tokens before
  the MoE/MLP and a reduce-scatter after it (vLLM's default EP backend `allgather_reducescatter`, docs
  "Expert Parallel Deployment"; the same bytes as an all-reduce, which is a reduce-scatter plus an
  all-gather), so the speed model keeps TP's communication term; the ranks' forward passes are aligned
  (vLLM runs dummy passes on idle ranks). Not modelled: each GPU reads only its own requests' latent
  per step (less than TP) but the replicated attention weights in full (more); the speed model keeps
  TP's reads for both, and no load imbalance between the attention ranks.

Engines that run it: SGLang and vLLM; the others serve MLA with TP only.
"""

from __future__ import annotations

from expert.catalog.models import LlmModel

DP_ATTENTION_ENGINES = ("sglang", "vllm")
DP_ATTENTION_SOURCES = [
    "vLLM docs, Data Parallel Deployment: DP attention + EP/TP experts for MLA MoE models, "
    "https://docs.vllm.ai/en/latest/serving/data_parallel_deployment/ (read 2026-12-05)",
    "Ray Serve LLM docs, Data parallel attention: MLA KV cannot be sharded by heads, "
    "https://docs.ray.io/en/latest/serve/llm/user-guides/data-parallel-attention.html (read 2026-12-05)",
]


def dp_attention_possible(model: LlmModel, tp: int, engine: str) -> bool:
    """True when `engine` can run the attention of `model` data-parallel over `tp` GPUs: an MLA model,
    more than one GPU, SGLang or vLLM."""
    return bool(model.kv_lora_rank) and tp > 1 and engine in DP_ATTENTION_ENGINES


def attention_params_b(model: LlmModel) -> float:
    """Parameters of the MLA attention projections (q, kv, o) over all layers, billions (module docstring);
    0 for a model without MLA."""
    if not model.kv_lora_rank:
        return 0.0
    h, n, d = model.hidden, model.heads, model.head_dim
    rope = model.qk_rope_head_dim or 0
    q = h * model.q_lora_rank + model.q_lora_rank * n * d if model.q_lora_rank else h * n * d
    kv = h * (model.kv_lora_rank + rope) + model.kv_lora_rank * n * 2 * (d - rope)
    o = n * (d - rope) * h
    return model.layers * (q + kv + o) / 1e9


def weights_per_gpu_gb(weights_gb: float, attention_gb: float, tp: int, layout: str) -> float:
    """Weights per GPU, GB: weights/tp under TP attention; (weights − attention)/tp + attention under DP."""
    if layout == "dp":
        return (weights_gb - attention_gb) / tp + attention_gb
    return weights_gb / tp


def kv_share_per_gpu(model: LlmModel, tp: int, layout: str, heads_per_gpu: int) -> float:
    """The share of a replica's per-session KV one GPU holds: 1/tp under DP attention (each latent once),
    else heads per GPU / kv_heads (MLA under TP: 1, every GPU a copy)."""
    if layout == "dp":
        return 1.0 / tp
    return heads_per_gpu / model.kv_heads
