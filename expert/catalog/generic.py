"""The generic dense transformer used when only `params_b` is known (CONTRACT: "`params_b` alone").

The rule is the one documented in the notes of the catalog's `generic-dense` entry
(knowledge/models.yaml), fitted there to the Llama rows of the reference table; it is mirrored here, in
code beside the catalog's models, so `Catalog.resolve_model` and the sizing core (which imports it
through `expert.sizing.architecture`) share one rule without loading the catalog files. With round(x) = floor(x + 0.5) and P in billions:

- hidden = 1024 · max(1, round(2078 · P^0.335 / 1024)); layers = max(1, round(P·1e9 / (13 · hidden²)))
- head_dim = 128, heads = hidden / 128
- kv_heads = heads (multi-head attention) when P < 30, else 8 (grouped-query attention)
- intermediate = 256 · ceil((8/3) · hidden / 256); vocab 32 000; no sliding window; not MoE.

Weights always use `params_b` itself. Two properties of this rule to know (the catalog notes state the
first): below 30B it assumes multi-head attention, so it overstates the KV cache of GQA models
(Llama 3 8B: +362 %) and the KV per token drops by heads/8 at 30B; and where `hidden` steps up by 1024
the layer count falls, so the KV per token also drops a little (e.g. 10.7B → 10.9B: −18 %). Name a
catalog model whenever the architecture is known.
"""

from __future__ import annotations

import math

from expert.catalog.models import LlmModel

HEAD_DIM = 128
GQA_FROM_B = 30
GQA_KV_HEADS = 8
RULE_SOURCE = ("generic-dense rule of knowledge/models.yaml (notes): hidden = 1024·round(2078·P^0.335/1024), "
               "layers = round(P·1e9/(13·hidden²)), head_dim 128, MHA below 30B else 8 KV heads")


def _round(x: float) -> int:
    return math.floor(x + 0.5)


def generic_shape(params_b: float) -> dict[str, int]:
    """Layers, hidden, heads, kv_heads, head_dim and intermediate of the rule for `params_b` billions."""
    if params_b <= 0:
        raise ValueError("params_b must be positive")
    hidden = 1024 * max(1, _round(2078 * params_b**0.335 / 1024))
    heads = hidden // HEAD_DIM
    return {
        "layers": max(1, _round(params_b * 1e9 / (13 * hidden**2))),
        "hidden": hidden,
        "heads": heads,
        "kv_heads": heads if params_b < GQA_FROM_B else GQA_KV_HEADS,
        "head_dim": HEAD_DIM,
        "intermediate": 256 * math.ceil(8 / 3 * hidden / 256),
    }


def generic_model(params_b: float, template: LlmModel | None = None) -> LlmModel:
    """A generic dense model of `params_b` billion parameters (rule in the module docstring).

    `template` is the catalog's `generic-dense` entry when the caller has it: its vocabulary,
    context limit and sources are kept; the shape is always recomputed for `params_b`.
    """
    return LlmModel(
        id=f"generic-dense-{params_b:g}b".lower(),
        name=f"Generic dense {params_b:g}B",
        params_b=params_b,
        vocab=template.vocab if template else 32_000,
        max_context=template.max_context if template else 131_072,
        generic=True,
        sources=dict(template.sources) if template else {"default": RULE_SOURCE},
        notes="Shape derived from params_b by the generic-dense rule; weights use params_b exactly.",
        **generic_shape(params_b),
    )
