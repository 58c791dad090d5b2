"""`candidates.all_sources` takes a purchase tariff's counts from `Catalog.purchasable`: the same sources
as asking `Catalog.several_systems` count by count; `admissible_sources` asks its rules once per GPU and
country: the same sources as asking them per source (the plain paths below)."""

from __future__ import annotations

import random

from expert.catalog import Catalog, load_catalog
from expert.catalog.loader import PREBUILT_COUNTS
from expert.configurator.candidates import (SCALE_OUT_COUNTS, SERVER_GPUS, admissible_sources, all_sources,
                                            catalog_sources, grade_allowed, hosting_allowed,
                                            location_must_be_known, scale_out, source_kinds)
from expert.configurator.search import as_workload
from expert.workload import Workload
from tests.configurator.test_configurator_exactness import random_workload

CAT = load_catalog()


def plain_purchase(catalog: Catalog, entry) -> tuple[tuple, tuple]:
    """(counts, systems) of a purchase tariff by one `several_systems` call per count."""
    counts, systems = [], []
    for count in range(1, SERVER_GPUS + 1):
        found = catalog.several_systems(entry.gpu, count, entry.condition)
        if found is not None:
            counts.append(count)
            systems.append(found)
    more = tuple(c for c in scale_out(tuple(counts))[len(counts):]
                 if catalog.several_systems(entry.gpu, c, entry.condition) is not None)
    return tuple(counts) + more, tuple(systems)


def test_every_count_asked_is_prebuilt():
    assert set(range(1, SERVER_GPUS + 1)) | set(SCALE_OUT_COUNTS) <= set(PREBUILT_COUNTS)


def test_purchase_sources_match_the_lookup_per_count():
    fresh = Catalog(CAT.gpus, CAT.models, CAT.packages, CAT.offers, CAT.tariffs, CAT.chassis)  # empty memo
    for catalog in (CAT, fresh):
        bought = [s for s in all_sources(catalog) if s.kind == "purchase"]
        assert bought
        with_systems = [e for e in catalog.tariffs.purchase if plain_purchase(catalog, e)[0]]
        assert [s.key for s in bought] == [f"purchase:{e.gpu}:{e.condition}" for e in with_systems]
        for source, entry in zip(bought, with_systems):
            assert (source.counts, source.systems) == plain_purchase(catalog, entry)
            assert all(source.system(c) == catalog.several_systems(entry.gpu, c, entry.condition)
                       for c in source.counts)


def plain_admissible(sources, w: Workload) -> list:
    """`admissible_sources` with every rule asked per source."""
    kinds = source_kinds(w)
    known = location_must_be_known(w)
    own_site_ok = w.site_country is None or hosting_allowed(w.site_country, w.hosting)
    return [s for s in sources if s.kind in kinds and grade_allowed(s.gpu, w)
            and (own_site_ok if s.kind != "cloud" else (hosting_allowed(s.country, w.hosting)
                                                         and not (known and s.country is None)
                                                         and not (w.critical and s.marketplace)))]


def test_admissible_sources_match_the_rules_per_source(scenario_inputs):
    sources = catalog_sources(CAT)
    rng = random.Random(7)
    workloads = [as_workload(data) for kind, data in scenario_inputs if kind == "advise" and "agents" not in data]
    workloads += [Workload.model_validate(random_workload(rng)) for _ in range(200)]
    workloads += [w.model_copy(update={"site_country": c, "data": "sensitive", "sector": "health"})
                  for w in workloads[:40] for c in ("CH", "US", None)]
    for w in workloads:
        assert admissible_sources(sources, w) == plain_admissible(sources, w)
