"""A pool search's enumeration shortcuts (`pool_counts`: count bounds, per-source sides of the hybrid
pairs, one option per pair) give exactly the options of the plain enumeration (`plain_pools`), on
every pool scenario and example and on variants that move the bounds (team time that more GPUs
shorten, a budget limit, bought GPUs, a single pure agent, fine-tuned agents only); `ranked`, built
as read, holds them in the order of the sorted plain list."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from expert.catalog import load_catalog
from expert.configurator import agents, pool_counts
from expert.configurator.candidates import admissible_sources, catalog_sources
from expert.configurator.objective import gpu_cost
from expert.configurator.pool_counts import _counts
from expert.configurator.enumeration import default_assumptions
from expert.inputs.workload import Workload
from tests.configurator import plain_pools

ROOT = Path(__file__).resolve().parents[2]
CAT = load_catalog()
A = default_assumptions(CAT)
SOURCES = catalog_sources(CAT)


def pool_inputs() -> list[dict]:
    """Every workload with agents among the scenarios and examples, in file order."""
    out = []
    for path in sorted((ROOT / "tests" / "scenarios").glob("advise-*.scenario.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))["workload"]
        if data.get("agents"):
            out.append(data)
    for path in sorted((ROOT / "examples").glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        if isinstance(data, dict) and data.get("agents"):
            out.append(data)
    return out


def variants(wd: dict) -> list[dict]:
    """The input and variants whose bounds bite elsewhere."""
    tuned = [a for a in wd["agents"] if "fine_tuning" in a]
    weekly = [{**a, "fine_tuning": {"frequency": "weekly", "team_waits": True}} if "fine_tuning" in a else a
              for a in wd["agents"]]
    out = [wd, {**wd, "team_hourly_rate_chf": 150, "agents": weekly},
           {**wd, "deployment": "on_premise", "horizon_months": 24},
           {**wd, "budget_limit_chf": 40000},
           {**wd, "agents": wd["agents"][:1]}]
    if tuned:
        out.append({**wd, "agents": tuned})
    return out


def _cases():
    return [(i, j, w) for i, wd in enumerate(pool_inputs()) for j, w in enumerate(variants(wd))]


def test_there_are_pool_inputs():
    assert len(pool_inputs()) >= 3


@pytest.mark.parametrize("case", _cases(), ids=lambda c: f"{c[0]}-{c[1]}")
def test_pool_options_equal_the_plain_enumeration(case):
    try:
        w = Workload.model_validate(case[2])
    except ValueError:
        pytest.skip("not a valid variant of this input")
    sources = admissible_sources(SOURCES, w)
    fast = agents.pool_options(agents.PoolSearch(w, CAT, A), sources)
    plain = plain_pools.pool_options(agents.PoolSearch(w, CAT, A), sources)
    assert fast == plain
    assert [o.key for o in fast] == [o.key for o in plain]
    lazy = pool_counts.ranked(agents.PoolSearch(w, CAT, A), sources)
    ordered = sorted(plain, key=lambda o: o.key)
    assert len(lazy) == len(ordered)
    assert lazy.first(homogeneous=True) == next((o for o in ordered if o.kind == "homogeneous"), None)
    assert lazy.first(homogeneous=False) == next((o for o in ordered if o.kind != "homogeneous"), None)
    assert list(lazy) == ordered


def test_pool_costs_grow_with_the_count():
    """Every source's GPU cost grows strictly with the pool's counts (`pool_counts._counts`) at every
    horizon: `pool_options` stops a pool's counts at the first that costs more than the best."""
    for source in SOURCES:
        for months in (1, 6, 12, 18, 24, 36, 48, 60, 120):
            costs = [gpu_cost(source, n, months, A) for n in _counts(source)]
            assert all(b > a for a, b in zip(costs, costs[1:])), (source.key, months)
