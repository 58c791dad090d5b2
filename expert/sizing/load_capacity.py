"""The largest stable arrival rate of a replica (`load.rate_max`) from a handful of steady states.

`rate_max` bisects [0, H] on "the steady state at λ is stable" until the bracket is within 1e-6 of
its top: twenty-one steady states, one per profile the configurator sizes. For a replica with affine
pieces and no KV cap (the capacity `Serving.rate_max` asks for) `bracket` first places the threshold
θ where the prefill lane's share u = λ·S(λ) reaches 1 in closed form, and checks with the real steady
state (`Replica.solve`) that θ·(1 − 1e-9) is stable and θ·(1 + 1e-9) is not. `replay` then runs the
same bisection: a midpoint at most (1 − η) times the stable check is stable, one at least (1 + η) times
the unstable check is not (η = 1e-10), and only the midpoints between are solved. About four steady
states instead of twenty-one; when a check fails (θ sits on a jump of the chunk count, below), every
midpoint is solved, as before.

Closed form: S = A + k·d with A = max(prefill alone, P·c), k the chunks per prompt at θ and
d = max(decode(1), max_i a_i·(1 − βλ) / (1 − (β + γ_i)·λ)), β = P·c, γ_i = c_i·O (`load_solver.solver`).
On piece i, u = 1 is q2·λ² + q1·λ − 1 = 0 with q2 = −A(β + γ_i) − k·a_i·β ≤ 0, q1 = A + k·a_i + β + γ_i,
whose least positive root is 2 / (q1 + √(q1² + 4·q2)); on the floor λ = 1 / (A + k·decode(1)); the
step has no fixed point from 1 / (β + γ_i) on. θ is the least of these; k is iterated from the
steady state at θ. The estimate need not be exact: the two checks decide.

Why the replay gives the bisection's answer to the last bit. In floating point, with ε = 2^-53:
- "the step has a fixed point" (ρ < 1, every 1 − ρ − c_i·λ·O > 0, the step finite) holds on an
  interval from 0: ρ, the denominators and the step are correctly rounded ×, −, ÷ and max of
  monotone inputs, so monotone in λ themselves;
- the computed decode d = fl(s·(1 − ρ)) is within 3ε of max_i g_i with g_i = a_i·l / (l − x_i) (l the
  computed 1 − ρ, x_i the computed c_i·λ·O, each rounding of a single operation relative ≤ ε), and
  g_i rises with λ (x_i rises, l falls); the floor's fl(fl(decode(1) / l)·l) is within 2ε of decode(1);
- the chunk count rises with λ (it reads the monotone step), so S = fl(A + fl(k·d)), a sum of
  non-negative terms, is within 5ε of a non-decreasing G(λ), and u = fl(λ·S) within 6ε of λ·G(λ);
- so λ1 ≤ λ2·(1 − η) gives u(λ1) < u(λ2), since (1 + 6ε)(1 − η) < 1 − 6ε for η = 1e-10.
A stable check at λs thus makes every λ ≤ λs·(1 − η) stable (fixed point, u below λs's, and a finite
mean wait: u < 1 and S at most λs's S (1 + 10ε), which the check requires below 1e290). An unstable
check at λu, with no fixed point or u ≥ 1, makes every λ ≥ λu·(1 + η) unstable. Every midpoint the
bisection visits is therefore decided as solving it would decide it. `tests/sizing/test_fast_paths.py`
compares the answers with the plain bisection on random and catalog replicas.
"""

from __future__ import annotations

import math
from typing import Callable

MARGIN = 1e-10   # η: relative distance from a check beyond which the rounding cannot reorder u
SPREAD = 1e-9    # the checks sit this far (relative) under and over the estimated threshold
ROUNDS = 6       # iterations of the chunk count at the estimate


def threshold(pieces, alone: float, beta: float, output: int, decode_1: float, k: int) -> float:
    """The rate at which u = λ·(A + k·d(λ)) reaches 1, or the step loses its fixed point (docstring)."""
    theta = 1 / (alone + k * decode_1)
    if beta > 0:
        theta = min(theta, 1 / beta)
    for a, c in pieces:
        gamma = c * output
        q2 = -alone * (beta + gamma) - k * a * beta
        q1 = alone + k * a + beta + gamma
        disc = q1 * q1 + 4 * q2
        root = 2 / (q1 + math.sqrt(disc)) if disc >= 0 else math.inf
        theta = min(theta, root, 1 / (beta + gamma) if beta + gamma > 0 else math.inf)
    return theta


def bracket(r, solve: Callable[[float], tuple | None]) -> tuple[float, float] | None:
    """(λs, λu): a checked stable and a checked unstable rate around the threshold of the uncapped,
    piecewise-affine replica `r`; None when the checks fail."""
    alone, beta = max(r.prefill_1, r.prompt * r.c_prefill), r.prompt * r.c_prefill
    decode_1 = r.decode(1.0)
    k, theta = 1, 0.0
    for _ in range(ROUNDS):
        theta = threshold(r.pieces, alone, beta, r.output, decode_1, k)
        core = solve(theta)
        if core is None or not math.isfinite(theta) or theta <= 0:
            break
        room = r.chunk - core[2]
        chunks = math.ceil(r.prompt / (room if room > 1.0 else 1.0))
        if chunks == k:
            break
        k = chunks
    if not math.isfinite(theta) or theta <= 0:
        return None
    low, high = theta * (1 - SPREAD), theta * (1 + SPREAD)
    below, above = solve(low), solve(high)
    if below is None or not below[8] or below[4] >= 1e290:
        return None
    if above is not None and above[5] < 1:
        return None
    return low, high


def replay(lo: float, hi: float, tol: float, stable: Callable[[float], bool],
           known: tuple[float, float] | None) -> float:
    """`load.rate_max`'s bisection of [lo, hi]: midpoints outside the margins of the `known` checks
    are decided by them (docstring), the others by `stable`."""
    below = above = None
    if known is not None:
        below, above = known[0] * (1 - MARGIN), known[1] * (1 + MARGIN)
    while hi - lo > tol * hi:
        mid = (lo + hi) / 2
        if below is not None and mid <= below:
            ok = True
        elif above is not None and mid >= above:
            ok = False
        else:
            ok = stable(mid)
        lo, hi = (mid, hi) if ok else (lo, mid)
    return lo
