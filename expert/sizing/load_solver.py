"""The arithmetic of `load.py`'s steady state: λ ↦ the numbers of one replica's steady state, as a
closure over the replica's fields (`load.Replica.solve`), so that the bisections of `load.py` and the
configurator's searches solve it without building an object per rate. The model and its formulas are
`load.py`'s docstring; nothing here is a new formula.
"""

from __future__ import annotations

import math
from typing import Callable

MAX_SEQUENCES = 10**6  # no KV cap given: more sequences than this is no steady state


def moe_step(r, lam: float, rho: float) -> float:
    """The step's fixed point without affine pieces (MoE); inf when unstable. decode(b) is concave in b
    (expert coverage saturates), so g(b) = λ·O·decode(b)/(1 − ρ) − b is positive up to its first root:
    doubling, then bisection on whole sequences.

    The test "b is over" (λ·O·decode(b)/(1 − ρ) > b + 1e-9, or the step is not finite) is written out in
    both loops with λ·O and 1 − ρ taken once: the same products and quotients in the same order
    (λ·O·s is (λ·O)·s), so the same floats and the same sequences visited as the plain path's
    (`tests/sizing/plain_paths.moe_step`)."""
    if rho >= 1:
        return float("inf")
    limit = r.cap if r.cap is not None else MAX_SEQUENCES
    grow = int(limit) if math.isfinite(limit) else None
    decode, left, rate, isfinite = r.decode, 1 - rho, lam * r.output, math.isfinite
    hi = 1
    while True:
        s = decode(hi) / left
        if isfinite(s) and not rate * s > hi + 1e-9:
            break
        if hi >= limit:
            return float("inf")
        hi = 2 * hi if grow is None else min(2 * hi, grow)
    lo = max(1, hi // 2)
    while lo < hi:
        mid = (lo + hi) // 2
        s = decode(mid) / left
        if not isfinite(s) or rate * s > mid + 1e-9:
            lo = mid + 1
        else:
            hi = mid
    return decode(hi) / left


def solver(r) -> Callable[[float], tuple | None]:
    """λ ↦ (ρ, step, batch, decode, service S, lane share u, mean TTFT, in flight, lane stable) of
    replica `r` (`load.py`'s docstring), None when the step has no fixed point; the KV pool's cap is
    the callers' check (`within`). For affine pieces the step is the closed form
    s = max(max_i a_i / (1 − ρ − c_i·λ·O), decode(1) / (1 − ρ)) (at least the request's own sequence
    decodes); each `x if x > y else y` is `max(y, x)` spelled out, the same float."""
    prompt, c_prefill, output, chunk, pieces = r.prompt, r.c_prefill, r.output, r.chunk, r.pieces
    alone = max(r.prefill_1, prompt * c_prefill)
    floor_1 = r.decode(1.0) if pieces is not None else 0.0
    inf, ceil, isfinite = float("inf"), math.ceil, math.isfinite

    def solve(lam: float) -> tuple | None:
        rho = lam * prompt * c_prefill
        if pieces is None:
            s = moe_step(r, lam, rho)
        elif rho >= 1:
            return None
        else:
            left = 1 - rho
            s = 0.0
            for a, c in pieces:
                denom = left - c * lam * output
                if denom <= 0:
                    return None
                x = a / denom
                s = x if x > s else s
            x = floor_1 / left
            s = x if x > s else s
        if not isfinite(s):
            return None
        x = lam * output * s
        b = x if x > 1.0 else 1.0
        d = s * (1 - rho)
        x = chunk - b
        service = alone + ceil(prompt / (x if x > 1.0 else 1.0)) * d
        u = lam * service
        mean = service + (inf if u >= 1 else u * service / (2 * (1 - u)))
        flight = lam * (mean + output * s) if lam > 0 else 1.0
        return rho, s, b, d, service, u, mean, flight, u < 1 and isfinite(mean)
    return solve


def within(core: tuple | None, cap: float | None) -> bool:
    """A solved state (`solver`) is stable: it has a step, its lane keeps up, the KV pool holds it."""
    return core is not None and core[8] and (cap is None or core[7] <= cap + 1e-9)
