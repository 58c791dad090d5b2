"""The generic dense transformer used when only `params_b` is known (CONTRACT: "`params_b` alone").

Rule (derived from the Llama-2/3 rows of shared/reference/model-architectures.csv, because the
catalog's `generic-dense` entry did not exist when this was written):

- A Llama-style block has ≈ 12·h² parameters (4·h² attention + ≈ 8·h² SwiGLU MLP), so
  params ≈ 12 · layers · hidden².
- Llama keeps hidden ≈ 128 · layers (7B 4096/32, 13B 5120/40, 405B 16384/126; 70B 8192/80 = 102).
  Hence layers = round(cbrt(params / (12 · 128²))), hidden = 128 · layers.
- head_dim = 128 (every Llama row), heads = hidden / 128.
- kv_heads = 8 (grouped-query attention as in Llama-3 8B/70B/405B, Llama-2-70B, Mistral,
  CodeLlama-34B, Falcon-40B); fewer when the model has fewer than 8 heads.

Check against the CSV (KV bytes per token at 16 bit): 8B → 34 layers, 139 264 (Llama-3.1-8B
131 072, +6 %); 13B → 40 layers, hidden 5120 = Llama-2-13B's shape; 70B → 71 layers, 290 816
(Llama-3.1-70B 327 680, −11 %); 405B → 127 layers (126). Weights always use `params_b` itself.
"""

from __future__ import annotations

import math

from expert.catalog.models import LlmModel

HEAD_DIM = 128
GQA_KV_HEADS = 8
RULE_SOURCE = ("generic dense rule from the Llama-2/3 rows of shared/reference/model-architectures.csv: "
               "layers = round(cbrt(params/(12·128²))), hidden = 128·layers, head_dim 128, 8 KV heads "
               "(expert/sizing/architecture.py)")


def generic_layers(params_b: float) -> int:
    """Layers of the generic dense model: round(cbrt(params / (12 · 128²))), at least 1."""
    return max(1, round((params_b * 1e9 / (12 * HEAD_DIM**2)) ** (1 / 3)))


def generic_model(params_b: float, max_context: int = 131_072) -> LlmModel:
    """A Llama-shaped dense model of `params_b` billion parameters (rule in the module docstring)."""
    if params_b <= 0:
        raise ValueError("params_b must be positive")
    layers = generic_layers(params_b)
    heads = layers
    hidden = HEAD_DIM * heads
    return LlmModel(
        id=f"generic-dense-{params_b:g}b".lower(),
        name=f"Generic dense {params_b:g}B",
        params_b=params_b,
        layers=layers,
        hidden=hidden,
        heads=heads,
        kv_heads=min(GQA_KV_HEADS, heads),
        head_dim=HEAD_DIM,
        intermediate=int(math.ceil(8 * hidden / 3 / 256) * 256),
        vocab=128_256,
        max_context=max_context,
        generic=True,
        sources={"default": RULE_SOURCE},
        notes="Shape derived from params_b; weights use params_b exactly.",
    )
