"""The arithmetic of `load.py`'s steady state: λ ↦ the numbers of one replica's steady state, as a
closure over the replica's fields (`load.Replica.solve`), so that the bisections of `load.py` and the
configurator's searches solve it without building an object per rate. The model and its formulas are
`load.py`'s docstring; nothing here is a new formula.
"""

from __future__ import annotations

import math
from typing import Callable

MAX_SEQUENCES = 10**6  # no KV cap given: more sequences than this is no steady state


P95_TAIL = 0.05


def tail_p95(p_wait: float, scale_s: float, gap: float) -> float:
    """p95 of a wait whose tail is exponential, P(W > t) = p_wait · exp(−2 · gap · t / scale_s) (Kingman's
    heavy-traffic tail; `gap` the distance of the load from saturation): scale_s · ln(p_wait / 0.05) / (2 · gap)
    where more than 5 % wait at all, else 0. M/D/1 (`load.wait_p95`): p_wait = the busy share u, gap 1 − u,
    scale the service; M/D/c (`admission.admission_waits`): Erlang C, c − a, the request's time."""
    return scale_s * math.log(p_wait / P95_TAIL) / (2 * gap) if p_wait > P95_TAIL else 0.0


def wait_mean(u: float, service_s: float) -> float:
    """Mean M/D/1 wait at busy share `u` (Pollaczek-Khinchine); infinite at u ≥ 1."""
    return float("inf") if u >= 1 else u * service_s / (2 * (1 - u))


def variability(prompt_cv: float, per_prompt_s: float, service_s: float) -> float:
    """Pollaczek-Khinchine's M/G/1 wait over M/D/1's, 1 + CV_S²: the lane's service varies with the prompt's
    length through its compute `per_prompt_s` (P·c), CV_S = `prompt_cv` · P·c / S; 1 for fixed lengths."""
    if prompt_cv <= 0 or service_s <= 0:
        return 1.0
    return 1 + (prompt_cv * per_prompt_s / service_s) ** 2


def moe_step(r, lam: float, rho: float) -> float:
    """The step's fixed point without affine pieces (MoE); inf when unstable. decode(b) is concave in b
    (expert coverage saturates), so g(b) = λ·O·decode(b)/(1 − ρ) − b is positive up to its first root:
    doubling, then bisection on whole sequences."""
    if rho >= 1:
        return float("inf")
    limit = int(r.cap) if r.cap is not None and math.isfinite(r.cap) else MAX_SEQUENCES  # whole sequences

    def over(b: int) -> bool:
        s = r.decode(b) / (1 - rho)
        return not math.isfinite(s) or lam * r.output * s > b + 1e-9

    hi = 1
    while over(hi):
        if hi >= limit:
            return float("inf")
        hi = min(2 * hi, limit)
    lo = max(1, hi // 2)
    while lo < hi:
        mid = (lo + hi) // 2
        lo, hi = (mid + 1, hi) if over(mid) else (lo, mid)
    return r.decode(hi) / (1 - rho)


def solver(r) -> Callable[[float], tuple | None]:
    """λ ↦ (ρ, step, batch, decode, service S, lane share u, mean TTFT, in flight, lane stable, the wait's
    M/G/1 factor `variability`) of
    replica `r` (`load.py`'s docstring), None when the step has no fixed point; the KV pool's cap is
    the callers' check (`within`). For affine pieces the step is the closed form
    s = max(max_i a_i / (1 − ρ − c_i·λ·O), decode(1) / (1 − ρ)) (at least the request's own sequence
    decodes)."""
    prompt, c_prefill, output, chunk, pieces = r.prompt, r.c_prefill, r.output, r.chunk, r.pieces
    alone = max(r.prefill_1, prompt * c_prefill)
    request, per_prompt, cv = r.request_s, prompt * c_prefill, r.prompt_cv
    floor_1 = r.decode(1.0) if pieces is not None else 0.0

    def solve(lam: float) -> tuple | None:
        rho = lam * prompt * c_prefill
        if pieces is None:
            s = moe_step(r, lam, rho)
        elif rho >= 1:
            return None
        else:
            s = floor_1 / (1 - rho)
            for a, c in pieces:
                denom = 1 - rho - c * lam * output
                if denom <= 0:
                    return None
                s = max(s, a / denom)
        if not math.isfinite(s):
            return None
        b = max(1.0, lam * output * s)
        d = s * (1 - rho)
        service = alone + math.ceil(prompt / max(1.0, chunk - b)) * d
        u = lam * service
        g = variability(cv, per_prompt, service)
        mean = service + g * wait_mean(u, service) + request
        flight = lam * (mean + output * s) if lam > 0 else 1.0
        return rho, s, b, d, service, u, mean, flight, u < 1 and math.isfinite(mean), g
    return solve


def within(core: tuple | None, cap: float | None) -> bool:
    """A solved state (`solver`) is stable: it has a step, its lane keeps up, the KV pool holds it."""
    return core is not None and core[8] and (cap is None or core[7] <= cap + 1e-9)
