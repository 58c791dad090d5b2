"""A changed search that skips the (source, count) pairs the main search proved infeasible.

Some sensitivity changes (`sensitivity.py`) neither only restrict the main search (`restricted.py`)
nor keep its objective, yet leave every candidate's serving check as it was: fine-tuning added to a
workload without it, another horizon, hosting widened to more offers. Their sub-search still walks
the pairs from the cheapest on; this one skips, without looking at them, the pairs of the main
search's sources that cost less than the main optimum there: each such source's pairs are merged
from its first count that costs at least that (`PricedPairs`' `starts`), so they are not even priced.

Why it is exact. Let the main search have no fine-tuning, so its objective is the GPU cost and
`m`, the main optimum's rounded objective, is the least rounded GPU cost of a feasible candidate
(no candidate is feasible at all when there is no optimum: `m` is then infinite). Every candidate
of a pair whose rounded GPU cost in the main search is below `m` is infeasible there: its
violations are the serving ones (`feasibility._serving`) and, with a budget limit, the budget. Such
a candidate is infeasible in the changed search too when
- both searches share the per-(GPU, precision, TP, column) view (`Context._view_key`: model, tokens,
  context, engine, KV precision, assumptions, targets, load, agent): the same candidate has the same
  serving violations, and the same precisions and TP degrees (`_same_options`);
- and a budget miss stays a miss: there is no budget limit, or the limit, the horizon and the
  assumptions are the same, so the GPU cost is, and the changed search's spending adds its training
  cost (≥ 0) to it.
Fine-tuning only adds violations (`ft_plan`). So the changed search's optimum — the least key among
its feasible candidates, which `ordered._cheapest` finds visiting the pairs in order of objective —
is the same when pairs without a feasible candidate are left out of its sequence: they can neither
be the optimum nor, being skipped, do more than `_cheapest` would have done with them (check their
options and find none feasible; a count floor it records only ever skips infeasible counts). A
subsequence of the sorted pairs is sorted, which is all `ordered.in_order` needs. Pairs of sources
the main search did not have are all kept. `tests/configurator/test_restricted.py` compares the
answers with the plain sub-search on random workloads and on every scenario and example.
"""

from __future__ import annotations

import math

from expert.configurator.feasibility import Candidate, Context
from expert.configurator.objective import gpu_cost
from expert.configurator.ordered import _cheapest
from expert.configurator.pairs import PricedPairs


def _same_options(ctx: Context, ctx2: Context) -> bool:
    """Whether both searches share the serving view and the precisions and TP degrees of each GPU (the
    precisions depend on the GPU and these three workload fields, the TP degrees on the model)."""
    w, w2 = ctx.w, ctx2.w
    return ctx.needed is ctx2.needed and (w.precision, w.precision_open, w.allow_int4) == (
        w2.precision, w2.precision_open, w2.allow_int4)


def applies(ctx: Context, ctx2: Context) -> bool:
    """Whether every candidate of `ctx2` on a pair the main search `ctx` proved infeasible is infeasible
    (module docstring)."""
    if ctx.ft_key is not None or not _same_options(ctx, ctx2):
        return False
    limit = ctx.w.budget_limit_chf
    return ctx.a.key == ctx2.a.key and (limit is None or (limit == ctx2.w.budget_limit_chf
                                                          and ctx.months == ctx2.months))


def optimum(ctx: Context, sources: list, best: Candidate | None, ctx2: Context, sources2: list
            ) -> Candidate | None:
    """`best_only(ctx2, sources2)` without the pairs of `sources` that cost less than `best` in `ctx`
    (module docstring; `applies(ctx, ctx2)` must hold)."""
    m = math.inf if best is None else best.key[0]
    known = {(s.kind, s.key) for s in sources}
    starts = [_first_live(s, m, ctx.months, ctx.a) if (s.kind, s.key) in known else 0 for s in sources2]
    return _cheapest(ctx2, PricedPairs(sources2, ctx2.months, ctx2.a, starts))


def _first_live(source, m: float, months: int, a) -> int:
    """The index of `source`'s first count whose rounded GPU cost over `months` is at least `m`: every
    count before it costs less (past the last count when all do)."""
    counts = source.counts
    if m == math.inf:
        return len(counts)
    i = 0
    while i < len(counts) and round(gpu_cost(source, counts[i], months, a), 2) < m:
        i += 1
    return i

