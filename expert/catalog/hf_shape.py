"""A Hugging Face `config.json` (as a dict) turned into a catalog model: shape, parameter counts, windows.

Families read (their `model_type`): Llama (llama, llama4 with its nested `text_config`), Mistral and
Mixtral (mistral, mistral3 nested, mixtral), Qwen2/3 and their MoE (qwen2, qwen3, qwen2_moe, qwen3_moe),
Gemma 2/3 (gemma2, gemma3 nested, gemma3_text), Phi (phi3, phi4 configs say phi3), DeepSeek V2/V3 and
Kimi K2 (deepseek_v2, deepseek_v3, kimi_k2: MLA), GLM-4.5 (glm4_moe) and gpt-oss (gpt_oss). A missing
field that the family's transformers class does not default is refused by name (`MissingField`).

Parameters are counted from the shape, as the publishers count them (llm-analysis and accelerate's
estimate-memory do the same): per layer attention (q, k, v, o; MLA: q/kv down- and up-projections) plus
a gated MLP of 3 × hidden × width (dense layers) or, in MoE layers, experts × 3 × hidden × expert width,
shared experts and the router; plus the embeddings (input and LM head, once when tied) and a vision
tower (layers × (4 h² + 2 or 3 × h × width)). Active parameters: the same with only `k` routed experts.
Biases and norms are left out (< 0.1 %).
"""

from __future__ import annotations

from expert.catalog.models import LlmModel

NESTED = ("llama4", "mistral3", "gemma3")          # the text model sits under `text_config`
MLA = ("deepseek_v2", "deepseek_v3", "kimi_k2")
FAMILIES = ("llama", "llama4", "llama4_text", "mistral", "mistral3", "mixtral", "qwen2", "qwen3", "qwen2_moe",
            "qwen3_moe", "gemma2", "gemma3", "gemma3_text", "phi3", "deepseek_v2", "deepseek_v3", "kimi_k2",
            "glm4_moe", "gpt_oss")
# defaults of the transformers config classes where published configs omit the field (Gemma3TextConfig:
# vocab_size 262208, max_position_embeddings 131072, sliding_window_pattern 6, head_dim 256)
DEFAULTS = {"gemma3_text": {"vocab_size": 262_208, "max_position_embeddings": 131_072, "head_dim": 256,
                            "sliding_window_pattern": 6, "tie_word_embeddings": True},
            "gemma2": {"tie_word_embeddings": True}}


class MissingField(ValueError):
    """A field the sizing needs is not in the config (its dotted path)."""

    def __init__(self, path: str, reason: str = "missing") -> None:
        self.path = path
        super().__init__(f"{path}: {reason}")


def _get(cfg: dict, key: str, prefix: str, *alternatives: str, default=None, required: bool = True):
    for name in (key, *alternatives):
        if cfg.get(name) is not None:
            return cfg[name]
    if default is not None or not required:
        return default
    raise MissingField(prefix + key)


def text_part(cfg: dict) -> tuple[dict, str]:
    """(the text model's fields with the family defaults under them, their path prefix)."""
    kind = cfg.get("model_type")
    if kind not in FAMILIES:
        raise MissingField("model_type", f"'{kind}' is not a family read here")
    if kind in NESTED:
        if not isinstance(cfg.get("text_config"), dict):
            raise MissingField("text_config")
        text, prefix = cfg["text_config"], "text_config."
        kind = text.get("model_type") or f"{kind}_text"
    else:
        text, prefix = cfg, ""
    return {**DEFAULTS.get(kind, {}), **text, "model_type": kind}, prefix


def _windows(t: dict, layers: int) -> tuple[int | None, float]:
    """(sliding window, share of layers using it) from `layer_types`, Gemma's pattern, Llama 4's chunks."""
    kind = t["model_type"]
    if kind.startswith("llama4") and t.get("attention_chunk_size"):
        return t["attention_chunk_size"], 1 - 1 / t.get("no_rope_layer_interval", 4)
    window = t.get("sliding_window")
    if not window or t.get("use_sliding_window") is False or kind == "phi3":   # phi3: as the catalog, see phi-3-mini
        return None, 0.0
    if isinstance(t.get("layer_types"), list) and t["layer_types"]:
        local = sum(1 for x in t["layer_types"] if x == "sliding_attention")
        return (window, round(local / len(t["layer_types"]), 4)) if local else (None, 0.0)
    if kind == "gemma3_text":
        return window, round((layers - layers // t["sliding_window_pattern"]) / layers, 4)
    if kind == "gemma2":
        return window, 0.5
    return window, 1.0


def _moe(t: dict, p: str, layers: int) -> dict:
    """Experts, routed per token, shared, expert width and MoE layer count; {} for a dense model."""
    experts = _get(t, "num_local_experts", p, "num_experts", "n_routed_experts", required=False)
    if not experts or experts <= 1:
        return {}
    kind = t["model_type"]
    if kind.startswith("llama4"):
        moe_layers, shared = layers // t.get("interleave_moe_layer_step", 1), 1
    else:
        dense = t.get("first_k_dense_replace", 0) + len(t.get("mlp_only_layers") or [])
        moe_layers = (layers - dense) // t.get("decoder_sparse_step", 1)
        shared = t.get("n_shared_experts") or (1 if t.get("shared_expert_intermediate_size") else 0)
    width = _get(t, "moe_intermediate_size", p, "intermediate_size")
    return {"experts": experts, "experts_active": _get(t, "num_experts_per_tok", p, "experts_per_token"),
            "shared_experts": shared, "width": width, "moe_layers": moe_layers,
            "shared_width": t.get("shared_expert_intermediate_size") or width}


def _attention(t: dict, p: str, hidden: int, heads: int, kv_heads: int, head_dim: int) -> int:
    if t["model_type"] in MLA:
        nope, rope, v = (_get(t, k, p) for k in ("qk_nope_head_dim", "qk_rope_head_dim", "v_head_dim"))
        q_rank, kv_rank = t.get("q_lora_rank"), _get(t, "kv_lora_rank", p)
        q = hidden * q_rank + q_rank * heads * (nope + rope) if q_rank else hidden * heads * (nope + rope)
        return q + hidden * (kv_rank + rope) + kv_rank * heads * (nope + v) + heads * v * hidden
    return 2 * hidden * heads * head_dim + 2 * hidden * kv_heads * head_dim


def _vision(cfg: dict) -> float:
    v = cfg.get("vision_config")
    if not isinstance(v, dict) or not v.get("hidden_size"):
        return 0.0
    h, width, n = v["hidden_size"], v.get("intermediate_size", 4 * v["hidden_size"]), v.get("num_hidden_layers", 0)
    gated = 3 if v.get("hidden_act") == "silu" else 2
    return n * (4 * h * h + gated * h * width) / 1e9


def model_from_config(cfg: dict, model_id: str, source: str) -> LlmModel:
    """The catalog model of a parsed config.json (module docstring); `source` cites the file."""
    t, p = text_part(cfg)
    layers, hidden, heads = (_get(t, k, p) for k in ("num_hidden_layers", "hidden_size", "num_attention_heads"))
    kv_heads = _get(t, "num_key_value_heads", p, default=heads)
    mla = t["model_type"] in MLA
    head_dim = (_get(t, "qk_nope_head_dim", p) + _get(t, "qk_rope_head_dim", p)) if mla \
        else _get(t, "head_dim", p, default=hidden // heads)
    vocab, context = _get(t, "vocab_size", p), _get(t, "max_position_embeddings", p)
    moe = _moe(t, p, layers)
    dense_width = _get(t, "intermediate_size_mlp", p, "intermediate_size", required=bool(not moe or
                                                                                         moe["moe_layers"] < layers))
    attention = layers * _attention(t, p, hidden, heads, kv_heads, head_dim)
    embeddings = vocab * hidden * (1 if t.get("tie_word_embeddings", False) else 2)
    vision = _vision(cfg)
    dense_layers = layers - moe.get("moe_layers", 0)
    base = (attention + embeddings + dense_layers * 3 * hidden * (dense_width or 0)) / 1e9 + vision
    fields: dict = {}
    total = active = base
    if moe:
        expert = 3 * hidden * moe["width"]
        per_layer_shared = moe["shared_experts"] * 3 * hidden * moe["shared_width"] + hidden * moe["experts"]
        total += moe["moe_layers"] * (moe["experts"] * expert + per_layer_shared) / 1e9
        active += moe["moe_layers"] * (moe["experts_active"] * expert + per_layer_shared) / 1e9
        fields = {"experts": moe["experts"], "experts_active": moe["experts_active"],
                  "shared_experts": moe["shared_experts"] or None, "active_params_b": round(active, 3),
                  "moe_layers": moe["moe_layers"] if moe["moe_layers"] < layers else None}
    window, share = _windows(t, layers)
    quant = (cfg.get("quantization_config") or {}).get("quant_method")
    native = {"mxfp4": "mxfp4", "fp8": "fp8"}.get(quant)
    return LlmModel(
        id=model_id, name=model_id, params_b=round(total, 3), layers=layers, hidden=hidden, heads=heads,
        kv_heads=kv_heads, head_dim=head_dim, intermediate=moe["width"] if moe else dense_width, vocab=vocab,
        max_context=context, sliding_window=window, sliding_window_share=share,
        kv_lora_rank=t.get("kv_lora_rank") if mla else None, qk_rope_head_dim=t.get("qk_rope_head_dim") if mla
        else None, vision_params_b=round(vision, 3) or None, native_precision=native,
        native_scope="experts" if native == "mxfp4" and moe else "linear",
        sources={"default": f"{source} (read by expert.catalog.hf_shape: parameters counted from the shape)"},
        notes=f"Imported from a Hugging Face config.json ({cfg.get('model_type')}).", **fields)
