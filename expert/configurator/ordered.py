"""Cost-ordered searches: the optimum alone (`best_only`, for the sensitivity sub-searches) and the
advice's enumeration (`enumerate_ordered`: optimum, group bests and closest infeasible candidates,
without the Pareto front), both exact and both far cheaper than visiting every candidate.

The objective of a candidate depends only on (source, count): GPU cost plus fine-tuning and team
time, never on precision or TP. So the (source, count) pairs are visited cheapest first, priced as
they are read (`pairs.py`); a group of candidates whose pair costs
more than the best feasible one found cannot win and is never sized. Within a pair a (precision,
TP) whose count holds fewer replicas than any feasible candidate of it needs is skipped without a
check (`_needed`, a proven lower bound). `tests/configurator/test_configurator_exactness.py` checks
both against the full enumeration and a brute force.
"""

from __future__ import annotations

import heapq
import math

from expert.configurator.agent_demand import held_per_replica
from expert.configurator.candidates import QUALITY_ORDER, Source
from expert.configurator.feasibility import Candidate, Context, _serving, _tuning, build, check, closeness
from expert.configurator.outcome import Outcome
from expert.configurator.pairs import PricedPairs
from expert.configurator.serving import EPS
from expert.sizing.engines import device_memory_gb
from expert.sizing.load import rate_ceiling
from expert.sizing.memory import weights_gb


def best_only(ctx: Context, sources: list[Source]) -> Candidate | None:
    """The optimum alone (module docstring), the cheapest feasible candidate of every pair."""
    return _cheapest(ctx, pairs(ctx, sources))


def _cheapest(ctx: Context, entries) -> Candidate | None:
    """The least-key feasible candidate of `pairs`' entries: pairs cheapest first; once a feasible
    candidate is found, the pairs of the same (rounded) objective are still checked for the tie-break,
    then the search stops.

    Within one objective the key orders by (quality, TP) next, so an option ranked after the best so
    far on those two is never sized (`QUALITY_ORDER`, whatever order the precisions come in). Options
    the replica bound rules out are not checked (`_needed`)."""
    best, agent, limit = None, ctx.agent, ctx.w.budget_limit_chf
    for objective, _, _, count, source, spent in in_order(ctx, entries):
        if best is not None and objective > best.key[0]:
            break
        if spent is None or (limit is not None and spent > limit):
            continue
        gpu, column = source.gpu, source.column
        rank = best.key[1:3] if best is not None and best.key[0] == objective else None
        for precision, q, tps in _options(ctx, source, count):
            for tp in tps:
                if rank is not None and (q, tp) > rank:
                    break                                 # ranked after the best of this objective
                replicas = count // tp
                prof, needed, _ = _needed(ctx, gpu, column, precision, tp, replicas)
                if needed < 0 or replicas < needed:
                    continue
                # an agent loop's tool-waiting sessions take `held` sequences of room on each replica
                # (`with_held`: seq_mem − held): without one left, `_serving` fails it on memory
                if agent is not None and prof.seq_mem - held_per_replica(agent, replicas) < 1:
                    continue
                serving = _serving(ctx, prof, tp, count)
                if serving[0]:
                    continue
                c = build(ctx, source, prof, precision, tp, count, check(ctx, source, prof, tp, count, serving))
                if c.feasible and (best is None or c.key < best.key):
                    best = c
                    rank = c.key[1:3]
    return best


def _options(ctx: Context, source: Source, count: int) -> list:
    """`_cheapest`'s view of a pair: (precision, quality order, TP degrees) for each of `ctx.precisions`,
    in that order; kept in `ctx.options` (shared by the searches that agree on its key)."""
    key = (source.key, count)
    hit = ctx.options.get(key)
    if hit is None:
        tps = ctx.tp_degrees(count, source)
        hit = ctx.options[key] = [(precision, QUALITY_ORDER[precision], tps) for precision in ctx.precisions(source.gpu)]
    return hit


def enumerate_ordered(ctx: Context, sources: list[Source]):
    """`enumeration.enumerate_candidates`' optimum, group bests, group-closest and closest candidates,
    group by group in order of cost; `feasible` lists the group bests only, `evaluated` counts the
    closest-candidate checks.

    Exact: a group's best is the least key among its feasible candidates (`_cheapest` on its pairs).
    Without fine-tuning the full enumeration skips the counts above a (source, precision, TP)'s
    first feasible one; these cost more (every source's cost grows with the count, checked by
    `test_costs_grow_with_the_count`), so `_cheapest` stops before them too. Only a group with no
    feasible candidate is then visited whole for its closest infeasible one: the full enumeration
    keeps a group's closest candidate only until the group has a feasible one, and shows only
    those of groups without one (alternatives, the documents' family, nothing fits); they are found
    on first use (`Outcome.pending`), which an answer with enough feasible alternatives never makes.
    """
    out = Outcome()
    rest = {}
    for group, group_pairs in pairs(ctx, sources).by_group().items():
        best = _cheapest(ctx, group_pairs)
        if best is None:
            rest[group] = group_pairs
            continue
        out.group_best[group] = best
        out.feasible.append(best)
        if out.best is None or best.key < out.best.key:
            out.best = best
    if rest:
        out.pending = lambda o: _closest(ctx, rest, o)
    return out


def _closest(ctx: Context, groups: dict, out) -> None:
    """Fill `out`'s closest infeasible candidate of each of `groups` (none feasible) and of all."""
    for group, group_pairs in groups.items():
        closest = None
        for _, _, _, count, source, _ in in_order(ctx, group_pairs):
            for precision in ctx.precisions(source.gpu):
                for tp in ctx.tp_degrees(count, source):
                    out.evaluated += 1
                    prof = ctx.profile(source.gpu, precision, tp, source.column)
                    checked = check(ctx, source, prof, tp, count)
                    k = closeness(ctx, source, precision, tp, count, checked)
                    if closest is None or k < closest.closeness:
                        closest = build(ctx, source, prof, precision, tp, count, checked)
        if closest is not None:
            out._group_closest[group] = closest
            if out._closest is None or closest.closeness < out._closest.closeness:
                out._closest = closest


FIRST, CAPACITY, FINAL = 0, 1, 2
"""`_needed`'s stages: a bound from the profile without targets, the capacity bound, the final value."""


def _needed(ctx: Context, gpu, column: str, precision: str, tp: int, replicas: int = 0) -> tuple:
    """(profile or None, fewest replicas a feasible candidate of it needs or a lower bound on them, its
    stage; -1: none is feasible at any count), kept in the search's `needed` by its arguments but
    `replicas`. The value is `FINAL` whenever `replicas` (a pair's `count // tp`) reaches it, so the test
    `replicas < needed` decides as the final value would. The profile is there at the final stage
    (None before: the caller skips).

    Why the final value is a true lower bound: `_serving` passes a candidate only when the profile fits
    one sequence (`seq_mem ≥ 1`), meets the targets at batch 1 and `count // tp ≥ needed > 0` with
    `needed = replicas_needed(...)` (0 when one sequence does not fit or misses a target, and `seq_lat <
    1` is a latency miss or a capacity failure). None of this depends on the count or the source but that
    last comparison, so a count with `count // tp` below `needed` cannot be feasible, and none is when
    `min(seq_mem, seq_lat) < 1` or `needed` is 0. With an agent loop the memory held by tool-waiting
    sessions depends on the replicas (`with_held`), so only the part of `replicas_needed`'s lower bound
    that memory leaves alone is taken (`_capacity_bound`), and that is final; before it, the `FIRST`
    stage takes the same term with `load.rate_ceiling` (below) on the agent's profile without targets.

    Otherwise the work is put off while a pair's replicas stay below a bound on `replicas_needed`,
    which starts at max(1, ⌈need − ε⌉), need = max(N / top, peak·t / (U·top), peak / (U·`rate_max`)),
    top = min(seq_mem, seq_lat), t the measured time or e2e(1), and returns a count at or above its
    start, or 0 (-1 here). So a pair below a bound is skipped exactly as the final value would skip it:
    - `FIRST` (`_speed_bound`): the same expression with seq_mem ≥ top and the top of `rate_max`'s
      bisection (`load.rate_ceiling`) ≥ `rate_max`, from the profile without targets (the same memory,
      e2e(1) and replica as its copies at any targets): no latency-limited batch, no `rate_max`;
    - `CAPACITY` (`_capacity_bound`): ⌈peak / (U·`rate_max`) − ε⌉ on the profile at the targets: no
      search over the counts.
    Most profiles are never asked at their bounds (the search stops first).

    A (precision, TP) whose weights per GPU exceed the memory the driver reports is not even sized:
    every engine's KV pool (`engines.budget`) is at most that memory less the weights (the other
    terms are ≥ 0, the shares ≤ 1), so `build_profile` finds no free memory and `seq_mem` is 0, with
    or without a growth model or tool-waiting sessions (they only take memory away).
    """
    key = (gpu.id, column, precision, tp)
    hit = ctx.needed.get(key)        # kept by `Demand`: the searches that agree on it share the bounds
    if hit is None:
        hit = ctx.needed[key] = _first(ctx, gpu, column, precision, tp)
    if hit[2] != FINAL and replicas >= hit[1]:
        hit = ctx.needed[key] = _advance(ctx, gpu, column, precision, tp, hit[2], replicas)
    return hit


def _first(ctx: Context, gpu, column: str, precision: str, tp: int) -> tuple:
    """`_needed`'s first entry of an option (its docstring)."""
    if weights_gb(ctx.model, precision, ctx.a) / tp > device_memory_gb(gpu, ctx.a):
        return None, -1, FINAL                      # the weights alone exceed the GPU: not sized
    if ctx.util > 0:
        base = ctx.base_profile(gpu, precision, tp, column)
        if base.seq_mem < 1:                        # no sequence fits: seq_lat is 0 at any targets
            return None, -1, FINAL
        return None, _speed_bound(ctx, base), FIRST
    return _advance(ctx, gpu, column, precision, tp, FIRST, 0)


def _advance(ctx: Context, gpu, column: str, precision: str, tp: int, stage: int, replicas: int) -> tuple:
    """`_needed`'s entry after `stage`, on to the final value at once where `replicas` reach the capacity
    bound (its docstring)."""
    prof = ctx.profile(gpu, precision, tp, column)
    if stage == FIRST:
        if min(prof.seq_mem, prof.seq_lat) < 1:
            return prof, -1, FINAL
        bound = _capacity_bound(ctx, prof)
        if ctx.agent is not None:
            return prof, bound, FINAL
        if replicas < bound:
            return prof, bound, CAPACITY
    needed = prof.replicas_needed(ctx.peak_rps, ctx.concurrency, ctx.util, ctx.t_inf)
    return prof, needed if needed > 0 else -1, FINAL


def _speed_bound(ctx: Context, prof) -> int:
    """`_needed`'s `FIRST` bound on the profile without targets `prof` (seq_mem ≥ 1, U > 0); with an agent
    loop its capacity term alone (the final value is `_capacity_bound`)."""
    hi = rate_ceiling(prof.replica(capped=False))
    if ctx.agent is not None:
        return max(1, math.ceil(ctx.peak_rps / (ctx.util * hi) - EPS))
    top = prof.seq_mem
    t = ctx.t_inf if ctx.t_inf is not None else prof.e2e(1)
    need = max(ctx.concurrency / top, ctx.peak_rps * t / (ctx.util * top), ctx.peak_rps / (ctx.util * hi))
    return max(1, math.ceil(need - EPS))


def _capacity_bound(ctx: Context, prof) -> int:
    """Fewest replicas a candidate of `prof` needs by compute alone, whatever sessions they hold: the term
    `capacity_floor` (peak / (U × `rate_max`)) of `replicas_needed`'s start. An agent loop's held copy
    (`with_held`) has the same `rate_max` (the uncapped replica ignores the KV pool) and starts its search
    at or above ⌈that − ε⌉, so `_serving` fails every count with fewer replicas on capacity (or memory,
    latency). 0 (no bound) where the rate or the utilisation is not positive, which `replicas_needed`
    divides by."""
    if prof.rate_max() <= 0 or ctx.util <= 0:
        return 0
    return max(1, math.ceil(prof.capacity_floor(ctx.peak_rps, ctx.util) - EPS))


def pairs(ctx: Context, sources: list[Source]) -> PricedPairs:
    """Every (source, count) as (GPU cost rounded to the cent, source kind order, catalog order, count,
    source, GPU cost), cheapest first (`by_group()`: split by (GPU, source kind) group), priced as far
    as they are read (`pairs.PricedPairs`)."""
    return PricedPairs(sources, ctx.months, ctx.a, ctx.prices)


def in_order(ctx: Context, entries):
    """`pairs`' entries as (rounded objective, kind order, catalog order, count, source, spent: GPU and
    fine-tuning cost over the horizon, None where the fine-tuning does not fit) in the order of
    (objective, kind, catalog order, count); admissible where spent is not None and within the budget.

    Without fine-tuning the objective is the GPU cost and so is the spending: the entries themselves,
    in their own order. With it the objective adds the training and team cost of the count
    (`feasibility._tuning`, ≥ 0), so the rounded GPU cost is a lower bound on the rounded objective
    (rounding keeps the order) and the entries are resolved lazily: an entry moves into a heap while
    its bound is at most the heap's least objective; the heap's least entry is then below every bound
    left (ties moved in too), so it is next. A search that stops early prices the fine-tuning of few
    counts.
    """
    return _tuned_order(ctx, entries) if ctx.tuned else entries


def _tuned_order(ctx: Context, entries):
    """`in_order` with fine-tuning (its docstring)."""
    months = ctx.months
    heap: list = []
    ahead = iter(entries)
    entry = next(ahead, None)
    while True:
        while entry is not None and (not heap or entry[0] <= heap[0][0]):
            _, kind, order, count, source, cost = entry
            entry = next(ahead, None)
            violations, team, _, _, train, _ = _tuning(ctx, source.gpu, count, cost)
            spent = cost + train * months               # the budget covers the fine-tuning GPUs too
            heapq.heappush(heap, (round(cost + (team + train) * months, 2), kind, order, count, source,
                                  None if violations else spent))
        if not heap:
            return
        yield heapq.heappop(heap)
