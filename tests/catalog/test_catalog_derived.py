"""Catalog.resolve_model (the one model lookup of workloads) and Catalog.memo (values derived from a
catalog live with that catalog object, never with a reused `id()`)."""

from __future__ import annotations

import gc

import pytest

from expert.catalog import Catalog, load_catalog
from expert.configurator.enumeration import catalog_sources, default_assumptions
from expert.errors import InputError, UnknownIdError

FULL = load_catalog()


def _with_offers(offer_ids: list[str]) -> Catalog:
    """The built-in catalog with only these offers, no packages and no purchase prices."""
    return Catalog(FULL.gpus, FULL.models, {}, {k: FULL.offers[k] for k in offer_ids},
                   FULL.tariffs.model_copy(update={"purchase": []}))


def test_resolve_model_by_id_alias_or_params_b():
    assert FULL.resolve_model("llama-3.1-8b", None).id == "llama-3.1-8b"
    generic = FULL.resolve_model(None, 13)
    assert generic.generic and generic.params_b == 13
    assert FULL.resolve_model("llama-3.1-8b", 70).id == "llama-3.1-8b"  # a named model wins over params_b


def test_resolve_model_errors_name_the_field():
    with pytest.raises(InputError, match="field workload.model"):
        FULL.resolve_model(None, None, path="workload.model")
    with pytest.raises(UnknownIdError, match="field agents\\[1\\].model"):
        FULL.resolve_model("no-such-model", None, path="agents[1].model")


def test_derived_values_are_kept_with_their_catalog():
    assert catalog_sources(FULL) is catalog_sources(FULL)
    assert default_assumptions(FULL) is default_assumptions(FULL)
    one = _with_offers([sorted(FULL.offers)[0]])
    assert [s.key for s in catalog_sources(one)] == [sorted(FULL.offers)[0]]
    assert default_assumptions(one) is not default_assumptions(FULL)


def test_a_new_catalog_never_sees_an_old_catalogs_values():
    """Short-lived catalogs often get the id of a freed one; each must get its own sources."""
    ids = sorted(FULL.offers)
    for n in range(12):
        wanted = [ids[n % len(ids)]]
        catalog = _with_offers(wanted)
        assert [s.key for s in catalog_sources(catalog)] == wanted
        del catalog
        gc.collect()
