"""Cost-ordered searches: the optimum alone (`best_only`, for the sensitivity sub-searches) and the
advice's enumeration (`enumerate_ordered`: optimum, group bests and closest infeasible candidates,
without the Pareto front), both exact and both far cheaper than visiting every candidate.

The objective of a candidate depends only on (source, count): GPU cost plus fine-tuning and team
time, never on precision or TP. So the (source, count) pairs are visited cheapest first, priced as
they are read (`pairs.py`, memoised on the values they depend on); a group of candidates whose pair costs
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
from expert.configurator.feasibility import (Candidate, Context, _serving, build, check, closeness, evaluate,
                                              tuning_rank)
from expert.configurator.outcome import Outcome
from expert.configurator.pairs import PricedPairs, pairs as priced_pairs
from expert.configurator.serving import EPS
from expert.sizing.engines import device_memory_gb
from expert.sizing.load import rate_ceiling
from expert.sizing.memory import weights_gb


def best_only(ctx: Context, sources: list[Source], below: float | None = None,
              start: float | None = None) -> Candidate | None:
    """The optimum alone (module docstring), the cheapest feasible candidate of every pair. With `below`
    only an optimum whose objective is below it is sure to be found (None or a candidate at or above it
    otherwise): the pairs are visited until their rounded objective exceeds `below` + 0.01, past which
    every objective is above `below` (rounding moves it by at most half a cent). With `start` (a
    rounded objective) the pairs below it are not visited: the caller knows that none of their
    candidates is feasible."""
    return _cheapest(ctx, pairs(ctx, sources), None if below is None else below + 0.01, start)


def _cheapest(ctx: Context, entries, stop: float | None = None, start: float | None = None) -> Candidate | None:
    """The least-key feasible candidate of `pairs`' entries: pairs cheapest first; once a feasible
    candidate is found, the pairs of the same (rounded) objective are still checked for the tie-break,
    then the search stops.

    Within one objective the key orders by (quality, TP) next, so an option ranked after the best so
    far on those two is never sized (`QUALITY_ORDER`, whatever order the precisions come in). Options
    the replica bound rules out are not checked (`_needed`); once every option of a (GPU, TP degrees)
    has been sized for a pair without a feasible one, the least TP × needed is a floor below which
    no count of it is looked at again. Taken again after each such pair at or above it: `_needed`'s
    values only rise as its stages pass (a bound, then a value at least as large, or -1 that drops out),
    and each is at most the final value, so every floor taken is a valid one and the later ones skip more.

    Per call the loop does only what changes with the pair: a pair's options come from `_options`
    (per count, then per (GPU, column, TP degrees)); `_needed`'s entry is read from its memo where
    `_needed` would return it unchanged (found, and final or not reached by the replicas: its own
    test), else `_needed` is called; and `ceiling` is min(`stop`, the best's objective), which
    `objective` exceeds exactly when it exceeds either (the best's objective only falls).
    """
    best, agent, floors, known = None, ctx.agent, ctx.memo_local, ctx.needed
    options_of, precision_key, limit = ctx.pair_options, ctx.precision_key, ctx.w.budget_limit_chf
    ceiling = math.inf if stop is None else stop            # least of `stop` and the best objective so far
    for objective, _, _, count, source, spent in in_order(ctx, entries):
        if objective > ceiling:
            break
        if spent is None or (limit is not None and spent > limit) or (start is not None and objective < start):
            continue
        gpu = source.gpu
        pair = options_of.get((gpu.id, precision_key, count, source.kind, source.column))
        if pair is None:
            pair = _options(ctx, source, count)
        fk, options = pair
        floor = floors.get(fk)
        if floor is not None and count < floor:
            continue
        rank = best.key[1:3] if best is not None and best.key[0] == objective else None
        complete = rank is None
        for precision, q, tps in options:
            for tp, nkey in tps:
                if rank is not None and (q, tp) > rank:
                    complete = False
                    break                                 # ranked after the best of this objective
                replicas = count // tp
                hit = known.get(nkey)                     # `_needed`'s memo, read as `_needed` reads it
                if hit is None or (hit[2] != FINAL and replicas >= hit[1]):
                    hit = _needed(ctx, source, precision, tp, replicas)
                prof, needed, _ = hit
                if needed < 0 or replicas < needed:
                    continue
                # an agent loop's tool-waiting sessions take `held` sequences of room on each replica
                # (`with_held`: seq_mem − held): without one left, `_serving` fails it on memory
                if agent is not None and prof.seq_mem - held_per_replica(agent, replicas) < 1:
                    continue
                if _serving(ctx, prof, tp, count)[0]:
                    continue
                c = evaluate(ctx, source, precision, tp, count)
                if c.feasible and (best is None or c.key < best.key):
                    best = c
                    rank = c.key[1:3]
                    if best.key[0] < ceiling:
                        ceiling = best.key[0]
        if complete and best is None:
            floors[fk] = _floor(ctx, source, options)
    return best


def _floor(ctx: Context, source: Source, options: tuple) -> int:
    """`_cheapest`'s count floor of a pair's options: min(TP × `_needed`) over the options with a bound
    (≥ 0), 2^30 without one (`_needed` at 0 replicas)."""
    floor = None
    for precision, _, tps in options:
        for tp, _ in tps:
            hit = _needed(ctx, source, precision, tp)
            if hit[1] >= 0 and (floor is None or tp * hit[1] < floor):
                floor = tp * hit[1]
    return 1 << 30 if floor is None else floor


def _options(ctx: Context, source: Source, count: int) -> tuple:
    """`_cheapest`'s view of a pair: the count's (GPU, column, TP degrees), which its options and count
    floor depend on, and its options as (precision, quality order, ((TP, `_needed`'s memo key), ...)) in
    the order of `ctx.precisions` and the degrees. Kept in `ctx.pair_options` by what they read: the GPU,
    `ctx.precision_key` (`ctx.precisions`), the count, the source kind and column (`ctx.tp_degrees`);
    the options themselves by (GPU, column, TP degrees, precision key), shared by the counts that have
    the same degrees."""
    gpu, column, key = source.gpu.id, source.column, ctx.precision_key
    fk = (gpu, column, ctx.tp_degrees(count, source))
    options = ctx.pair_options.get((fk, key))
    if options is None:
        options = ctx.pair_options[(fk, key)] = tuple([
            (precision, QUALITY_ORDER[precision], tuple([(tp, (gpu, column, precision, tp)) for tp in fk[2]]))
            for precision in ctx.precisions(source.gpu)])
    pair = ctx.pair_options[(gpu, key, count, source.kind, column)] = (fk, options)
    return pair


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
    """Fill `out`'s closest infeasible candidate of each of `groups` (none feasible) and of all.

    Without an agent loop and fine-tuning, an option (source, precision, TP) that misses on memory or
    latency (not capacity) misses the same way at every count: those checks read the profile only. Its
    larger counts add at most a budget miss (the cost grows strictly with the count,
    `test_costs_grow_with_the_count`) and cost more, so their closeness is above its first count's and
    none can be closer: they are counted, not checked (`_misses_fixed`)."""
    for group, group_pairs in groups.items():
        closest = None
        fixed: set = set()
        for _, _, _, count, source, _ in in_order(ctx, group_pairs):
            for precision in ctx.precisions(source.gpu):
                for tp in ctx.tp_degrees(count, source):
                    out.evaluated += 1
                    option = (source.key, precision, tp)
                    if option in fixed:
                        continue
                    prof = ctx.profile(source.gpu, precision, tp, source.column)
                    checked = check(ctx, source, prof, tp, count)
                    if _misses_fixed(ctx, checked):
                        fixed.add(option)
                    k = closeness(ctx, source, precision, tp, count, checked)
                    if closest is None or k < closest.closeness:
                        closest = build(ctx, source, prof, precision, tp, count, checked)
        if closest is not None:
            out._group_closest[group] = closest
            if out._closest is None or closest.closeness < out._closest.closeness:
                out._closest = closest


def _misses_fixed(ctx: Context, checked: tuple) -> bool:
    """Whether `check`'s infeasible result misses at every larger count of its option as it does here
    (`_closest`): memory or latency without an agent loop or fine-tuning."""
    misses = checked[1][0]
    return bool(misses) and misses[0].kind in ("memory", "latency") and ctx.agent is None \
        and ctx._ft_state is None


FIRST, CAPACITY, FINAL = 0, 1, 2
"""`_needed`'s stages: a bound from the profile without targets, the capacity bound, the final value."""


def _needed(ctx: Context, source: Source, precision: str, tp: int, replicas: int = 0) -> tuple:
    """(profile or None, fewest replicas a feasible candidate of it needs or a lower bound on them, its
    stage; -1: none is feasible at any count), memoised for the search by (GPU, column, precision, TP).
    The value is `FINAL` whenever `replicas` (a pair's `count // tp`) reaches it, so the test `replicas <
    needed` decides as the final value would; `replicas` 0 (the count floors) may get a bound, which is a
    valid floor too. The profile is there at the final stage (None before: the caller skips).

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
    Most profiles are never asked at their bounds (the search stops first). (`rate_max` is positive:
    at 0 the plain path's `capacity_floor` divides by zero.)

    A (precision, TP) whose weights per GPU exceed the memory the driver reports is not even sized:
    every engine's KV pool (`engines.budget`) is at most that memory less the weights (the other
    terms are ≥ 0, the shares ≤ 1), so `build_profile` finds no free memory and `seq_mem` is 0, with
    or without a growth model or tool-waiting sessions (they only take memory away).
    """
    key = (source.gpu.id, source.column, precision, tp)
    hit = ctx.needed.get(key)
    if hit is None:
        hit = ctx.needed[key] = _first(ctx, source, precision, tp)
    if hit[2] != FINAL and replicas >= hit[1]:
        hit = ctx.needed[key] = _advance(ctx, source, precision, tp, hit[2], replicas)
    return hit


def _first(ctx: Context, source: Source, precision: str, tp: int) -> tuple:
    """`_needed`'s first entry of an option (its docstring)."""
    if weights_gb(ctx.model, precision, ctx.a) / tp > device_memory_gb(source.gpu, ctx.a):
        return None, -1, FINAL                      # the weights alone exceed the GPU: not sized
    if ctx.util > 0:
        base = ctx.base_profile(source.gpu, precision, tp, source.column)
        if base.seq_mem < 1:                        # no sequence fits: seq_lat is 0 at any targets
            return None, -1, FINAL
        return None, _speed_bound(ctx, base), FIRST
    return _advance(ctx, source, precision, tp, FIRST, 0)


def _advance(ctx: Context, source: Source, precision: str, tp: int, stage: int, replicas: int) -> tuple:
    """`_needed`'s entry after `stage`, on to the final value at once where `replicas` reach the capacity
    bound (its docstring)."""
    prof = ctx.profile(source.gpu, precision, tp, source.column)
    fast = (source.gpu.id, precision, tp, source.column)
    if stage == FIRST:
        if min(prof.seq_mem, prof.seq_lat) < 1:
            return prof, -1, FINAL
        bound = _capacity_bound(ctx, prof)
        if ctx.agent is not None:
            return prof, bound, FINAL
        if replicas < bound and ctx.memo.get(_needed_key(ctx, fast)) is None:  # else: reached, or known
            return prof, bound, CAPACITY
    needed = _replicas_needed(ctx, prof, fast)
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


def _replicas_needed(ctx: Context, prof, fast: tuple) -> int:
    """`prof.replicas_needed` at this search's load, memoised in the search memo on the profile's value
    key and the load (the sub-searches that keep the load and the targets share it)."""
    key = _needed_key(ctx, fast)
    hit = ctx.memo.get(key)
    if hit is None:
        hit = ctx.memo[key] = prof.replicas_needed(ctx.peak_rps, ctx.concurrency, ctx.util, ctx.t_inf)
    return hit


def _needed_key(ctx: Context, fast: tuple) -> tuple:
    """`_replicas_needed`'s memo key: the profile's value key and the load."""
    return "needed", ctx.profile_keys[fast], ctx.peak_rps, ctx.concurrency, ctx.util, ctx.t_inf


def pairs(ctx: Context, sources: list[Source]) -> PricedPairs:
    """Every (source, count) as (GPU cost rounded to the cent, source kind order, catalog order, count,
    source, GPU cost), cheapest first (`by_group()`: split by (GPU, source kind) group), priced as far
    as they are read (`pairs.PricedPairs`); kept in the search memo, shared by the sub-searches and
    later advice."""
    return priced_pairs(ctx.memo, sources, ctx.months, ctx.a)


def in_order(ctx: Context, entries):
    """`pairs`' entries as (rounded objective, kind order, catalog order, count, source, spent: GPU and
    fine-tuning cost over the horizon, None where the fine-tuning does not fit) in the order of
    (objective, kind, catalog order, count); admissible where spent is not None and within the budget.

    Without fine-tuning the objective is the GPU cost and so is the spending: the entries themselves,
    in their own order (no generator between the search and them). With it the
    objective adds the training and team cost of the count (`tuning_rank`, ≥ 0), so the rounded GPU cost
    is a lower bound on the rounded objective (rounding keeps the order) and the entries are
    resolved lazily: an entry moves into a heap while its bound is at most the heap's least
    objective; the heap's least entry is then below every bound left (ties moved in too), so it is
    next. A search that stops early prices the fine-tuning of few counts.
    """
    return entries if ctx.ft_key is None else _tuned_order(ctx, entries)


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
            fails, team, train = tuning_rank(ctx, source.gpu, count)
            spent = cost + train * months               # the budget covers the fine-tuning GPUs too
            heapq.heappush(heap, (round(cost + (team + train) * months, 2), kind, order, count, source,
                                  None if fails else spent))
        if not heap:
            return
        yield heapq.heappop(heap)
