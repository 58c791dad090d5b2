"""A pool search's designs and their counts (000 U4, R3, T3): the best count of every homogeneous pool
and of every hybrid pair of sources, each a `PoolOption` priced over the horizon.

The enumeration's shortcuts (issue 21), each exact (the optimum and the best homogeneous and hybrid
pools are compared with a brute force over every design and count in tests/configurator/test_pool_counts.py):

- a pool's counts stop at the first whose GPU cost alone ranks after the best so far (`_costs_more`);
- a count whose objective cannot rank before the best is not built into an option (`_beats`);
- a hybrid variant's sides are worked out once per source (`_sides`) instead of once per pair: what the
  inference group needs (its packed plans, its count, their cost) depends on its source alone, and the
  fine-tuning group's counts, their costs and its runs' fit and costs on its source alone;
- a pair's counts are compared by (rounded objective, count) and only the winner is kept: for one pair
  the option's key is (rounded objective, ng + nf, variant, the groups with nf), ng fixed, so it orders
  its counts exactly as (rounded objective, nf) does;
- a fine-tuning side's GPU costs are priced as far as a pair reads them (most pairs stop after a few
  counts), each the same `gpu_cost` value the full list held;
- a pair's winner is kept as its key and terms (`_hybrid_rows`) and built into a `PoolOption` only when
  read (`ranked`, `RankedOptions`): the search reads the first few options of the sorted list.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from operator import itemgetter

from expert.configurator.candidates import Source
from expert.configurator.objective import SOURCE_ORDER, gpu_cost
from expert.facts.input_facts import gpu_family

MAX_POOL = 16
VARIANTS = ("hybrid-split", "hybrid-train-only")


@dataclass
class PoolOption:
    """One pool design with its cost."""

    kind: str                       # homogeneous | hybrid-split | hybrid-train-only
    groups: list                    # [(source, count, role, agents, plans)]
    gpu_cost: float
    team_monthly: float
    objective: float
    key: tuple
    train_monthly: float = 0.0


def pool_sizes(source: Source) -> tuple[int, ...]:
    """The pool sizes a source offers: a package's counts, complete 8-GPU HGX systems for SXM/OAM
    purchases (004 C3, issue 13), otherwise 1 to `MAX_POOL`."""
    if source.kind == "package":
        return source.counts
    if source.kind == "purchase" and source.gpu.form_factor in ("sxm", "oam"):
        return (8, 16)
    return tuple(range(1, MAX_POOL + 1))


def _option(ps, kind: str, groups: list, team: float, train: float = 0.0) -> PoolOption:
    """The option of these groups: GPU cost of every group, objective and tie-break key."""
    months = ps.w.horizon_months
    return _priced(kind, groups, sum(gpu_cost(s, n, months, ps.a) for s, n, *_ in groups), team, train, months)


def _priced(kind: str, groups: list, cost: float, team: float, train: float, months: int) -> PoolOption:
    """`_option` of groups whose GPU cost `cost` is known (the same sum, `0 + g + f`, in the same order)."""
    obj = _objective(cost, team, train, months)
    key = (round(obj, 2), sum(n for _, n, *_ in groups), kind,
           tuple((SOURCE_ORDER[s.kind], s.order, n) for s, n, *_ in groups))
    return PoolOption(kind, groups, cost, team, obj, key, train)


def _objective(cost: float, team: float, train: float, months: int) -> float:
    """A pool's objective: GPU cost + team and rented-training cost over the horizon (`_priced`'s own
    expression, so that a bound computed before building an option is the option's first key field)."""
    return cost + (team + train) * months


def _beats(best: PoolOption | None, objective: float) -> bool:
    """Whether an option of this objective may have a key below `best`'s (the key starts with the
    rounded objective), so that it is worth building."""
    return best is None or round(objective, 2) <= best.key[0]


def _costs_more(best: PoolOption | None, cost: float) -> bool:
    """Whether a pool whose GPUs alone cost `cost` ranks after `best`: the GPU cost bounds the objective
    from below (training and team time are ≥ 0, rounding keeps the order). A source's cost grows with
    the count (`test_pool_costs_grow_with_the_count`), so the larger counts of a pair rank after it too."""
    return best is not None and round(cost, 2) > best.key[0]


def pool_options(ps, sources: list[Source]) -> list[PoolOption]:
    """The best count for every homogeneous pool and every hybrid pair (`agents` module docstring), in
    the order homogeneous pools by source, then pairs by (inference source, fine-tuning source, variant)."""
    return [row[1] if isinstance(row[1], PoolOption) else _built(row) for row in _rows(ps, sources)]


def ranked(ps, sources: list[Source]) -> RankedOptions:
    """`pool_options` sorted by key, each hybrid option built when read. The rows are in `pool_options`'
    order with the same keys and the sort is stable on the key alone, so position i holds the option
    that `sorted(pool_options(ps, sources), key=lambda o: o.key)[i]` holds (an equal one: the same
    fields, built from the same values by `_built`)."""
    return RankedOptions(sorted(_rows(ps, sources), key=itemgetter(0)))


def _rows(ps, sources: list[Source]) -> list[tuple]:
    """`pool_options`' rows in its order: (key, option) for a homogeneous pool, a `_hybrid_rows` row for
    a hybrid pair (no packages)."""
    every = tuple(range(len(ps.ws)))
    rows = [(o.key, o) for o in _homogeneous(ps, sources, every)]
    if ps.tuned:
        rows += _hybrid_rows(ps, [s for s in sources if s.kind != "package"], every)
    return rows


class RankedOptions(Sequence):
    """Pool options in key order; a row (key, option or the terms `_built` makes it of) is built into
    its `PoolOption` the first time it is read."""

    def __init__(self, rows: list):
        self._rows = rows

    def __len__(self) -> int:
        return len(self._rows)

    def __getitem__(self, i: int) -> PoolOption:
        row = self._rows[i]
        if not isinstance(row[1], PoolOption):
            row = self._rows[i] = (row[0], _built(row))
        return row[1]

    def first(self, homogeneous: bool) -> PoolOption | None:
        """The first homogeneous option (or the first hybrid one), read off the keys' kind field."""
        i = next((i for i, row in enumerate(self._rows) if (row[0][2] == "homogeneous") == homogeneous), None)
        return None if i is None else self[i]


def _homogeneous(ps, sources: list[Source], every: tuple) -> list[PoolOption]:
    """The best count of every homogeneous pool within the budget, by source."""
    out: list[PoolOption] = []
    limit, months = ps.w.budget_limit_chf, ps.w.horizon_months
    for s in sources:
        packed = ps.bins(every, s)
        if packed is None:
            continue
        best = None
        for n in pool_sizes(s):
            if n < packed[0]:
                continue
            cost = gpu_cost(s, n, months, ps.a)
            if _costs_more(best, cost):
                break   # and so does every larger count: a source's cost grows with the count
            ok, team, train, _ = ps.ft_team(ps.tuned, s, n, False)
            if not ok or not _beats(best, _objective(0 + cost, team, train, months)):
                continue
            opt = _option(ps, "homogeneous", [(s, n, "serve+train", every, packed[1])], team, train)
            if best is None or opt.key < best.key:
                best = opt
            if not ps.tuned:
                break
        if best is not None and (limit is None or best.gpu_cost <= limit):
            out.append(best)
    return out


def _sides(ps, variant: str, sources: list[Source], every: tuple) -> tuple[list, list]:
    """Per source, the variant's inference side (packed plans, count, GPU cost) and fine-tuning side
    (packed plans, counts from the fewest it needs up, and their GPU costs and `_run`s, both as far as
    a pair has read them); None where the group cannot run."""
    months = ps.w.horizon_months
    inf_agents, ft_serve = _roles(ps, every)[variant]
    g_sides, f_sides = [], []
    for s in sources:
        pg = ps.bins(inf_agents, s)
        ng = None if pg is None else next((n for n in pool_sizes(s) if n >= max(1, pg[0])), None)
        g_sides.append(None if ng is None else (pg, ng, gpu_cost(s, ng, months, ps.a)))
        pf = ps.bins(ft_serve, s)
        counts = [] if pf is None else [n for n in pool_sizes(s) if n >= max(1, pf[0])]
        f_sides.append(None if pf is None else (pf, counts, [], []))
    return g_sides, f_sides


def _roles(ps, every: tuple) -> dict[str, tuple]:
    """Per hybrid variant, (the inference group's agents, the agents the fine-tuning group serves): a
    split serves the fine-tuned agents where they train, a train-only group serves none."""
    return {"hybrid-split": (ps.pure, ps.tuned), "hybrid-train-only": (every, ())}


def _run(ps, sf: Source, nf: int, months: int, around: bool) -> tuple:
    """The fine-tuning group's runs on nf GPUs of `sf` as the pairs read them: (fits, team, rented,
    (team + rented) × months). `cost + extra` is `_objective(cost, team, train, months)`: the same
    operations in the same order, so the same float."""
    ok, team, train, _ = ps.ft_team(ps.tuned, sf, nf, around)
    return ok, team, train, (team + train) * months


def _hybrid_rows(ps, sources: list[Source], every: tuple) -> list[tuple]:
    """The best count of every hybrid pair and variant (sources of different GPU families, both rented
    or both bought; no packages): the inference group at the fewest GPUs it needs, the fine-tuning group
    at the count of the lowest (rounded objective, count). Each row is (key, variant, groups' terms,
    GPU cost, team, train, objective): `_built` makes it `_priced`'s option, its key written out for two
    groups (`sum` of the counts is ng + nf)."""
    months, limit = ps.w.horizon_months, ps.w.budget_limit_chf
    families = [gpu_family(s.gpu) for s in sources]
    clouds = [s.kind == "cloud" for s in sources]
    orders = [(SOURCE_ORDER[s.kind], s.order) for s in sources]
    sides = {v: _sides(ps, v, sources, every) for v in VARIANTS if ps.pure or v != "hybrid-split"}
    roles = _roles(ps, every)
    out = []
    for jg, sg in enumerate(sources):
        for jf, sf in enumerate(sources):
            if families[jf] == families[jg] or clouds[jg] != clouds[jf]:
                continue
            for variant, (g_sides, f_sides) in sides.items():
                g, f = g_sides[jg], f_sides[jf]
                if g is None or f is None:
                    continue
                (pg, ng, g_cost), (pf, f_counts, f_costs, runs) = g, f
                around = variant != "hybrid-split"
                best = None     # (rounded objective, nf, GPU cost, team, train, objective)
                for k, nf in enumerate(f_counts):
                    if k == len(f_costs):
                        f_costs.append(gpu_cost(sf, nf, months, ps.a))
                    f_cost = f_costs[k]
                    if best is not None and round(g_cost + f_cost, 2) > best[0]:
                        break   # `_costs_more`: and so does every larger count
                    if k == len(runs):
                        runs.append(_run(ps, sf, nf, months, around))
                    ok, team, train, extra = runs[k]
                    if not ok:
                        continue
                    cost = 0 + g_cost + f_cost
                    obj = cost + extra
                    r = round(obj, 2)
                    if best is None or r < best[0]:     # nf grows: (r, nf) < best's exactly when r is smaller
                        best = (r, nf, cost, team, train, obj)
                if best is None or (limit is not None and best[2] > limit):
                    continue
                r, nf, cost, team, train, obj = best
                key = (r, ng + nf, variant, ((*orders[jg], ng), (*orders[jf], nf)))
                out.append((key, variant, sg, ng, pg, sf, nf, pf, cost, team, train, obj, roles[variant]))
    return out


def _built(row: tuple) -> PoolOption:
    """The option of a `_hybrid_rows` row."""
    key, variant, sg, ng, pg, sf, nf, pf, cost, team, train, obj, (inf_agents, ft_serve) = row
    groups = [(sg, ng, "inference", inf_agents, pg[1]),
              (sf, nf, "serve+train" if ft_serve else "train", ft_serve, pf[1])]
    return PoolOption(variant, groups, cost, team, obj, key, train)
