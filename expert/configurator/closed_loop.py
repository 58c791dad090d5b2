"""A closed loop's fixed point, solved once and read by every section (QA 45 #11).

A closed loop (`concurrent_users` N, think time Z) runs at X = N / (R + Z) tasks per second, R the task's
time in the system: steps × (step latency + tool time) (`agent_loop.closed_loop_task_rate`). The step
latency of a configuration grows with the rate it serves, and the rate the users make falls as the step
grows, so on one configuration the residual

    r(X) = X − closed_rate(step(X))

rises with X and has one root: `fixed_point` finds it by bisection on X. At X = closed_rate(0), the
highest rate, r ≥ 0 (no step is shorter than 0 s); at X = closed_rate(step(that highest rate)) r ≤ 0
(the step there is no longer than at the highest rate). The bisection stops when the bracket is narrower
than `RATE_TOLERANCE` of the rate and returns its upper end: the rate sized is at least the rate the
users make at the step it gives (the sizing is never optimistic), and within 0.01 % of it where the step
is continuous (a step that jumps between operating points leaves a gap; the tests allow 1 %). Where the
configuration stops serving a rate (`step_at` None: no operating point) and its users would make more than
it serves, the bracket closes on that edge, and the search there does not pick it again (`settle`). A
configuration that serves no rate keeps the highest one.

The search (`settle`) finds candidate picks as before (each search at the rate the pick before makes at
its own step), then solves each one's own fixed point, cheapest first, and searches again there; the
first whose search picks it again is the answer. Its context carries the settled rate
(`AgentDemand.peak_task_rate`, the equivalent workload's `peak_rps`), and the capacity section, the agent
section, the recommendation and every alternative read that one rate. The alternatives are checked at the
pick's fixed point, not at their own (a faster GPU shortens the tasks, so its users would come back
sooner); the capacity section's note says so. An audit solves the setup's own fixed point with its serving
check as the step (`flows.audit.settled_demand`).
"""

from __future__ import annotations

import math
from typing import Callable

RATE_TOLERANCE = 1e-4  # own bound: a bracket narrower than 0.01 % of the rate has settled
BISECTIONS = 60       # own bound: 2^-60 of the rate, far below the tolerance, where a bracket never closes
SETTLE_ROUNDS = 6      # own bound: the loops tried here settle in 1-3 searches after the first


def fixed_point(d, step_at: Callable[[float], float | None]) -> float:
    """The peak task rate X at which closed loop `d` (an `agent_demand.AgentDemand` with `users`) settles
    on one configuration whose mean step at task rate x takes `step_at(x)` s (None or inf: it does not
    serve x, so the users there make no tasks); the module docstring's bisection."""
    top = d.closed_rate(0.0)

    def made(rate: float) -> float:  # the task rate the users make at the step `rate` gives
        step = step_at(rate)
        return 0.0 if step is None or not math.isfinite(step) else d.closed_rate(step)

    lo, hi = made(top), top
    for _ in range(BISECTIONS):
        if hi - lo <= RATE_TOLERANCE * hi:
            break
        mid = (lo + hi) / 2
        if mid >= made(mid):
            hi = mid
        else:
            lo = mid
    return hi if lo > 0 else top  # a configuration that serves no rate has no fixed point: the highest rate


def _same(a, b) -> bool:
    """Whether two candidates are one configuration (source, count, precision, TP)."""
    return (a.source.key, a.count, a.precision, a.tp) == (b.source.key, b.count, b.precision, b.tp)


def carries(found: tuple) -> bool:
    """Whether a search's pick carries the rate its users make at its own step (within the tolerance)."""
    ctx, out, _ = found
    best = out.best
    return best is not None and \
        ctx.agent.closed_rate(best.latency) <= ctx.agent.peak_task_rate * (1 + RATE_TOLERANCE)


def settle(first: tuple, searched, step_of) -> tuple:
    """A closed loop's search at its pick's fixed point. `first` is the search at the highest rate (a step
    of 0 s); `searched(rate, share)` searches at task rate `rate` with the offload share `share` of the
    search before (`kv_during_tools: cpu`: the share is the pick's, so its step stays one function of the
    rate); `step_of(candidate, rate, share)` is one candidate's step latency at that rate.

    A loop may settle on more than one configuration: a slow, cheap one at the low rate its long tasks
    make, a fast one at the high rate of its short tasks, where the slow one no longer fits. The cheap
    ones are found as before issue 45: each next search at the rate the pick before makes at its own step
    (`AgentDemand.closed_rate`), until the rate settles, a search picks what the one before picked (from
    there on the searches only iterate that pick's own step, whose limit `fixed_point` solves directly)
    or `SETTLE_ROUNDS` end. Then each pick found,
    cheapest first, is settled (`fixed_point`) and searched again at its fixed point; the first whose
    search picks it again is the answer (a different pick there is tried in its turn). Where none does,
    the cheapest search whose pick carries the rate its users make is taken (the first always does)."""
    found, kept = first, [first]
    for _ in range(SETTLE_ROUNDS):
        ctx, out, _ = found
        if out.best is None:
            break
        rate = ctx.agent.closed_rate(out.best.latency)
        found = searched(rate, ctx.agent.offload_share)
        if found[1].best is None:
            break
        kept.append(found)
        if abs(rate - ctx.agent.peak_task_rate) <= RATE_TOLERANCE * ctx.agent.peak_task_rate \
                or _same(found[1].best, out.best):
            break
    tried, queue = [], sorted((f for f in kept if f[1].best is not None), key=lambda f: f[1].best.key)
    while queue and len(tried) < SETTLE_ROUNDS:
        ctx, out, _ = queue.pop(0)
        pick, share = out.best, ctx.agent.offload_share
        if any(_same(pick, t) for t in tried):
            continue
        tried.append(pick)
        again = searched(fixed_point(ctx.agent, lambda x: step_of(pick, x, share)), share)
        if again[1].best is None:
            continue
        if _same(again[1].best, pick):
            return again
        kept.append(again)
        queue = sorted(queue + [again], key=lambda f: f[1].best.key)
    held = [f for f in kept if carries(f)]
    return min(held, key=lambda f: f[1].best.key) if held else first
