"""The closest infeasible candidates skip the larger counts of an option whose misses do not depend on
the count (`ordered._misses_fixed`, issue 21): the whole answer, `evaluated` included, equals the one
that checks every candidate, on seeded random workloads and the scenarios where nothing fits."""

from __future__ import annotations

import random
from pathlib import Path

import yaml

from expert.configurator import ordered
from expert.configurator.configure import search

from tests.configurator.test_configurator_exactness import FULL, random_workload, sub_catalog

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ("advise-405b-impossible-swiss", "advise-onprem-405b-b200-liquid-cooling",
             "advise-onprem-120b-params-de", "advise-d1-13b-size-only-at-50-rps")


def _cases():
    for name in SCENARIOS:
        yield FULL, yaml.safe_load((ROOT / "tests" / "scenarios" / f"{name}.scenario.yaml").read_text("utf-8"))["workload"]
    rng = random.Random(5)
    for _ in range(60):
        cat = sub_catalog(rng)
        wd = random_workload(rng)
        if rng.random() < 0.5:
            wd.pop("fine_tuning", None)
        if rng.random() < 0.3:
            wd.pop("model", None)
            wd["params_b"] = rng.choice([70, 180, 405])
        yield cat, wd


def test_closest_candidates_equal_those_of_every_check(monkeypatch):
    skipped = []
    plain_fixed = ordered._misses_fixed

    def counting(ctx, checked):
        hit = plain_fixed(ctx, checked)
        skipped.append(hit)
        return hit

    for cat, wd in _cases():
        with monkeypatch.context() as m:
            m.setattr(ordered, "_misses_fixed", counting)
            fast = search(wd, cat, detail=False)
        with monkeypatch.context() as m:
            m.setattr(ordered, "_misses_fixed", lambda ctx, checked: False)
            plain = search(wd, cat, detail=False)
        assert fast.model_dump() == plain.model_dump(), wd
    assert sum(skipped) > 100
