"""The sensitivity's "twice the requests" from the main search: a heavier load only takes feasible
candidates away, so the changed optimum costs at least the main one.

The change (`sensitivity.variations`, a workload without an agent loop) doubles `requests_per_second`
or `requests_per_day` and nothing else: the changed context (`feasibility.Context`) differs from the
main one only in the peak `P2 ≥ P` it sizes for. The sources, precisions, TP degrees, prices,
fine-tuning and budget are the same, so is every candidate's objective; its profile (memory, speed,
targets) is the same object too. What remains is the serving check (`feasibility._serving`): a
candidate of r = count // TP replicas passes when one sequence fits and meets the targets (no load
in it), `needed = replicas_needed(peak) > 0`, r ≥ needed and `point(r, peak)` serves.

Claim: a candidate that passes at `P2` passes at `P` (dense model, every count ≤ `fewest.SPAN`).
- `point(r, P)` serves: each replica gets λ = P / r ≤ P2 / r at the same concurrency share N / r, and
  every quantity `point` tests rises with λ (`fewest.py`'s argument, with its floating-point caveat:
  a compared quantity within a few ulps of its threshold).
- `replicas_needed(P)` starts its search at ⌈max(N / top, P·t / (U·top), P / (U·rate_max)) − ε⌉,
  each term non-decreasing in the peak (top, t, U, `rate_max` do not depend on it), so at most where
  the search at `P2` starts, which is at most `needed(P2) ≤ r`. The dense search (`first_serving`)
  finds the least serving count in its span of 512 counts from there, and r — which serves and
  lies in that span, since r ≤ count ≤ 512 — is at or above it: 0 < needed(P) ≤ r.
MoE replicas (`first_walking`, serving not shown monotone) and agent loops (the sessions they hold
grow with the tasks) are left out.

So the changed search's feasible candidates are among the main search's, at the same objective: no
pair cheaper than the main optimum `m` has one. And the main search's replica bounds (`ordered._needed`:
the fewest replicas of each (GPU, column, precision, TP), -1 where no count is feasible) bound the
changed search's from below: by the claim's second point a feasible count has r ≥ needed(P), and an
option with no feasible count at `P` has none at `P2`. `ordered._cheapest` reads them only to skip
counts below them, so the changed search starts from a copy of them (its own: the memo the searches
share keeps exact values) and sizes the replica bound at `P2` only for the counts that pass. Without fine-tuning the objective is the GPU cost
and `known_infeasible.optimum` skips those pairs unpriced; with it `best_only` starts at `m`. The
keys themselves may differ (the latency is the operating point's), so the main optimum is not
simply re-checked as `restricted.py` does. `tests/configurator/test_restricted.py` compares every
answer with the plain sub-search.
"""

from __future__ import annotations

from expert.configurator import known_infeasible
from expert.configurator.feasibility import Candidate, Context
from expert.configurator.fewest import SPAN
from expert.configurator.ordered import best_only


def applies(ctx: Context, ctx2: Context, sources2: list) -> bool:
    """Whether the claim holds for the main context `ctx` and the doubled-load `ctx2` (module docstring)."""
    return (ctx.agent is None and ctx2.agent is None and not ctx.model.is_moe and ctx2.peak_rps >= ctx.peak_rps
            and all(s.counts[-1] <= SPAN for s in sources2 if s.counts))


def optimum(ctx: Context, sources: list, best: Candidate | None, ctx2: Context, sources2: list
            ) -> Candidate | None:
    """The changed optimum (`applies` must hold; module docstring)."""
    if best is None:
        return None
    ctx2.needed = dict(ctx.needed)  # lower bounds at the heavier load (module docstring)
    if ctx.ft_key is None:
        return known_infeasible.optimum(ctx, sources, best, ctx2, sources2)
    return best_only(ctx2, sources2, start=best.key[0])
