"""The optimum of a changed workload from the main search's optimum, where the change only restricts.

A sensitivity change (`sensitivity.py`) that keeps the model, the load, the prices and the fine-tuning
and only takes candidates away — hosting `ch` instead of `any` or `eu`, `allow_int4` off, a tighter
latency target — cannot make anything cheaper: its optimum is the main optimum whenever that is still
feasible. Then one evaluation replaces a whole sub-search.

Why it is exact. `restricts(ctx, ctx2, ...)` holds when the changed search (`ctx2`) has
- the same numbers everywhere a candidate's objective and operating point are computed from (model,
  tokens, context, engine, KV precision, assumptions, load, horizon, budget limit, fine-tuning key,
  agent loop): the same (source, count, precision, TP) has the same objective and the same operating
  point (batch and latencies at the peak, `serving.Serving.point`) in both searches;
- admissible sources that are a subset of the main search's, and precisions per GPU that are a subset
  (the TP degrees depend on the model alone);
- targets at least as tight: every target of the main search is set in the changed one, no larger.
  The targets only accept or reject an operating point, never move it: `seq_lat` (the largest batch
  meeting them unqueued) can only shrink, so the fewest replicas (`replicas_needed`, which starts from
  a bound that only grows as `seq_lat` shrinks) and the batch cap can only become harder to meet, and
  `meets` is monotone in each target.
So every candidate feasible in the changed search is a candidate of the main search, feasible there,
with the same key (`Candidate.key`: objective, precision, TP, latency, count, source). The main
optimum `best` has the least key among the main search's feasible candidates; if it is admissible and
feasible in the changed search with the same key, it is the changed search's optimum; if nothing fits
the main search, nothing fits the changed one. Otherwise the changed search runs from the main
optimum's (rounded) objective on: every candidate with a smaller key is infeasible in the main search,
so in the changed one too (`ordered.best_only`'s `start`).

An agent loop whose offload share was chosen by searching has its optimum from that search
(`enumeration.searched_context`). `optimum` also sends the changes proved by `heavier.py` (twice the
requests) and `known_infeasible.py` (same serving checks, another objective or more sources) to their
shortcuts; the rest search plainly.

An agent loop whose offload share is itself chosen by searching (`enumeration._offload_where_it_pays`)
is left out: its share may change with the candidates. `tests/configurator/test_restricted.py`
compares every sensitivity change on random workloads with the plain sub-search.
"""

from __future__ import annotations

from expert.configurator import heavier, known_infeasible
from expert.configurator.candidates import precisions
from expert.configurator.feasibility import Candidate, Context, evaluate
from expert.configurator.ordered import best_only
from expert.configurator.enumeration import UNKNOWN, searched_context


def _fixed(ctx: Context) -> tuple:
    """Everything but the sources, precisions and targets that a candidate's objective and operating
    point are computed from (module docstring)."""
    w, agent = ctx.w, ctx.agent
    return (ctx.model_key, None if ctx.growth is None else ctx.growth.params_b, ctx.context, w.prompt_tokens,
            w.output_tokens, w.engine, w.kv_precision, ctx.a.key, ctx.peak_rps, ctx.concurrency, ctx.util, ctx.t_inf,
            ctx.months, w.budget_limit_chf, ctx.ft_key,
            None if agent is None else (agent.key, agent.held_peak, agent.affinity, agent.kv_precision))


def _tighter(new, old) -> bool:
    """Every target of `old` is set in `new`, at most as large."""
    return all(o is None or (n is not None and n <= o) for n, o in
               ((new.ttft_s, old.ttft_s), (new.tpot_ms, old.tpot_ms), (new.e2e_s, old.e2e_s)))


def restricts(ctx: Context, sources: list, ctx2: Context, sources2: list) -> bool:
    """Whether the search of `ctx2` over `sources2` only restricts that of `ctx` over `sources`."""
    if _fixed(ctx2) != _fixed(ctx) or not _tighter(ctx2.slo, ctx.slo):
        return False
    keys = {(s.kind, s.key) for s in sources}
    if any((s.kind, s.key) not in keys for s in sources2):
        return False
    gpus = {s.gpu.id: s.gpu for s in sources2}
    return all(set(precisions(g, ctx2.w)) <= set(precisions(g, ctx.w)) for g in gpus.values())


def optimum(w2, catalog, a, shared: dict, ctx: Context, sources: list,
            best: Candidate | None, more_requests: bool = False) -> tuple[Context, Candidate | None]:
    """(context, optimum) of the changed workload `w2`, as `enumeration.run(w2, ..., optimum_only=True)` gives
    them; `ctx`, `sources` and `best` are the main search's (module docstring). `more_requests`: `w2`
    only raises the request volume (`heavier.py`)."""
    ctx2, sources2, known = searched_context(w2, catalog, a, shared)
    if known is not UNKNOWN:    # found while choosing the offload share (`searched_context`)
        return ctx2, known
    if more_requests and heavier.applies(ctx, ctx2, sources2):
        return ctx2, heavier.optimum(ctx, sources, best, ctx2, sources2)
    if not (ctx.offload_searched or ctx2.offload_searched) and restricts(ctx, sources, ctx2, sources2):
        if best is None:
            return ctx2, None
        s = best.source
        if (any(x is s for x in sources2) and best.precision in precisions(s.gpu, ctx2.w)
                and best.tp in ctx2.tp_degrees(best.count, s)):
            again = evaluate(ctx2, s, best.precision, best.tp, best.count)
            if again.feasible and again.key == best.key:
                return ctx2, again
        return ctx2, best_only(ctx2, sources2, start=best.key[0])
    if known_infeasible.applies(ctx, ctx2):
        return ctx2, known_infeasible.optimum(ctx, sources, best, ctx2, sources2)
    return ctx2, best_only(ctx2, sources2)
