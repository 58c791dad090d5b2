"""The generic dense transformer for `params_b` alone: the sizing core's name for
`expert.catalog.generic` (the rule lives beside the catalog's models, so `Catalog.resolve_model`
needs nothing from the sizing core)."""

from expert.catalog.generic import GQA_FROM_B, GQA_KV_HEADS, HEAD_DIM, RULE_SOURCE, generic_model, generic_shape

__all__ = ["GQA_FROM_B", "GQA_KV_HEADS", "HEAD_DIM", "RULE_SOURCE", "generic_model", "generic_shape"]
