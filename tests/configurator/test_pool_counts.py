"""A pool search's answer against a brute force: the optimum, the best homogeneous and the best hybrid pool
that `pool_counts.ranked` puts first are the least of every design at every count (every homogeneous
pool, every hybrid pair and variant with the fine-tuning group at every count), priced as 000 T1/T5 and
the `agents` module docstring say, on every pool scenario and example and on variants that move the
bounds (team time that more GPUs shorten, a budget limit, bought GPUs, a single pure agent, fine-tuned
agents only); every option it lists is one of them, in key order. A pool's cost grows with its count."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from expert.catalog import load_catalog
from expert.configurator import agents, pool_counts
from expert.configurator.candidates import SOURCE_ORDER, admissible_sources, catalog_sources
from expert.configurator.objective import gpu_cost
from expert.configurator.pool_counts import pool_sizes
from expert.configurator.enumeration import default_assumptions
from expert.facts.input_facts import gpu_family
from expert.inputs.workload import Workload

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


def brute_force(ps, sources) -> list[tuple]:
    """(key, kind, GPU cost) of every pool design at every count within the budget: one source serving
    and training every agent, or a hybrid pair (different GPU families, both rented or both bought, no
    packages) whose inference group has the fewest GPUs its agents need (more only cost more) and whose
    fine-tuning group takes any count. The key is the documented order: objective to the cent, GPUs,
    design, then each group's (source kind, catalog order, count)."""
    every = tuple(range(len(ps.ws)))
    months, limit = ps.w.horizon_months, ps.w.budget_limit_chf
    designs = []
    for s in sources:
        packed = ps.bins(every, s)
        for n in [] if packed is None else [n for n in pool_sizes(s) if n >= packed[0]]:
            designs.append(("homogeneous", [(s, n)], ps.ft_team(ps.tuned, s, n)))
    runs: dict = {}
    for variant, inference, trained in (("hybrid-split", ps.pure, ps.tuned), ("hybrid-train-only", every, ())):
        if not ps.tuned or not inference:
            continue
        for sg in sources:
            pg = ps.bins(inference, sg)
            ng = None if pg is None else next((n for n in pool_sizes(sg) if n >= max(1, pg[0])), None)
            for sf in sources:
                pf = ps.bins(trained, sf)
                if (ng is None or pf is None or gpu_family(sf.gpu) == gpu_family(sg.gpu)
                        or (sg.kind == "cloud") != (sf.kind == "cloud") or "package" in (sg.kind, sf.kind)):
                    continue
                for nf in [n for n in pool_sizes(sf) if n >= max(1, pf[0])]:
                    key = (sf.key, nf, not trained)
                    if key not in runs:
                        runs[key] = ps.ft_team(ps.tuned, sf, nf, around_the_clock=not trained)
                    designs.append((variant, [(sg, ng), (sf, nf)], runs[key]))
    out = []
    for kind, groups, (ok, team, train, _) in designs:
        cost = sum(gpu_cost(s, n, months, A) for s, n in groups)
        if not ok or (limit is not None and cost > limit):
            continue
        objective = cost + (team + train) * months
        key = (round(objective, 2), sum(n for _, n in groups), kind,
               tuple((SOURCE_ORDER[s.kind], s.order, n) for s, n in groups))
        out.append((key, kind, cost))
    return out


def _cases():
    return [(i, j, w) for i, wd in enumerate(pool_inputs()) for j, w in enumerate(variants(wd))]


def test_there_are_pool_inputs():
    assert len(pool_inputs()) >= 3


@pytest.mark.parametrize("case", _cases(), ids=lambda c: f"{c[0]}-{c[1]}")
def test_ranked_pools_start_with_the_brute_force_optimum(case):
    try:
        w = Workload.model_validate(case[2])
    except ValueError:
        pytest.skip("not a valid variant of this input")
    sources = admissible_sources(SOURCES, w)
    ranked = pool_counts.ranked(agents.PoolSearch(w, CAT, A), sources)
    every = sorted(brute_force(agents.PoolSearch(w, CAT, A), sources))
    keys = {key for key, _, _ in every}
    listed = [o.key for o in ranked]
    assert listed == sorted(listed) and set(listed) <= keys
    assert (ranked[0].key if len(ranked) else None) == (every[0][0] if every else None)
    for homogeneous in (True, False):
        best = ranked.first(homogeneous=homogeneous)
        want = next((key for key, kind, _ in every if (kind == "homogeneous") == homogeneous), None)
        assert (None if best is None else best.key) == want, homogeneous


def test_pool_costs_grow_with_the_count():
    """Every source's GPU cost grows strictly with the pool's sizes (`pool_sizes`) at every horizon: the
    search stops a pool's counts at the first that costs more than the best."""
    for source in SOURCES:
        for months in (1, 6, 12, 18, 24, 36, 48, 60, 120):
            costs = [gpu_cost(source, n, months, A) for n in pool_sizes(source)]
            assert all(b > a for a, b in zip(costs, costs[1:])), (source.key, months)
