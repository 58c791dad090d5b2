"""`candidates.all_sources` takes a purchase tariff's counts from `Catalog.purchasable`: the same sources
as asking `Catalog.several_systems` count by count (the plain path below)."""

from __future__ import annotations

from expert.catalog import Catalog, load_catalog
from expert.catalog.loader import PREBUILT_COUNTS
from expert.configurator.candidates import SCALE_OUT_COUNTS, SERVER_GPUS, all_sources, scale_out

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

