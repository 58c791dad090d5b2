"""The sizing core over the real catalog (knowledge/*.yaml), skipped while the catalog does not load.

Checks that the core's copy of the generic-dense rule matches the catalog entry, that every catalog
model runs on every catalog GPU within the bandwidth limit, and that the document's provider offers
(with 000's stated TDP) reproduce T2's 48 %/61 % within 1 pp.
"""

from __future__ import annotations

import pytest

from expert.sizing import estimate, generic_model, rent_cost
from expert.sizing.speed import decode_weight_gb

from expert.catalog import load_catalog

CATALOG = load_catalog()

SHAPE = ("layers", "hidden", "heads", "kv_heads", "head_dim", "intermediate", "vocab")


def test_generic_rule_matches_catalog_entry():
    entry = CATALOG.model("generic-dense")
    mine = generic_model(entry.params_b, template=entry)
    assert {k: getattr(mine, k) for k in SHAPE} == {k: getattr(entry, k) for k in SHAPE}
    assert mine.sources == entry.sources


def test_every_model_on_every_gpu():
    for model in CATALOG.models.values():
        for gpu in CATALOG.gpus.values():
            e = estimate(model, gpu, 8, "fp16", batch=4)
            limit = gpu.bandwidth_gbs / (decode_weight_gb(model, "fp16", 4) / e.tensor_parallel)
            assert e.performance.decode_tokens_per_s_per_sequence <= limit * (1 + 1e-9), (model.id, gpu.id)


def test_provider_offers_reproduce_t2():
    offers = {o.gpu: o for o in CATALOG.offers.values() if o.kind == "provider-catalog" and o.country == "CH"}
    tco = {}
    for key, gpu_id in (("l40s", "l40s"), ("a100", "a100-80gb-pcie"), ("h100", "h100-nvl")):
        if gpu_id not in offers:
            pytest.skip(f"no provider offer for {gpu_id}")
        tco[key] = rent_cost(CATALOG.gpu(gpu_id), offers[gpu_id], months=36, fx=CATALOG.to_chf).total_chf
    assert abs(1 - tco["l40s"] / tco["a100"] - 0.48) <= 0.01
    assert abs(1 - tco["l40s"] / tco["h100"] - 0.61) <= 0.01


def test_assumptions_from_catalog_tariffs():
    from expert.sizing import Assumptions
    a = Assumptions.from_tariffs(CATALOG.tariffs)
    assert a.electricity_chf_per_kwh.value == pytest.approx(0.18)
    assert (a.resale_share.low, a.resale_share.high) == pytest.approx((0.30, 0.40))
    assert "000" in a.cooling_factor.source
