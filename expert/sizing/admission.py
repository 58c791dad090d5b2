"""The wait for a free KV slot: admission to a replica whose KV pool holds `c` sequences (`load.Replica.cap`).

A request holds one of the pool's c slots from its admission to its last token, T = its mean TTFT + O × step
(`load.steady`'s `in_flight` = λ·T, Little's law); arrivals that find every slot taken wait before admission.
With Poisson arrivals this is the M/G/c queue of the requests, offered load a = λ·T erlangs (a < c: stable):

- the chance an arrival waits is Erlang C, C(c, a) = c·B / (c − a·(1 − B)), with Erlang B from its recursion
  B(0) = 1, B(k) = a·B(k − 1) / (k + a·B(k − 1)) (Erlang 1917; Kleinrock, Queueing Systems I, §3.5);
- its mean wait is M/M/c's C·T / (c − a) times (1 + C_S²)/2 for a service of squared coefficient of
  variation C_S² (Lee & Longton 1959, the Allen-Cunneen approximation); requests of one shape hold their slot
  for a fixed time (M/D/c, C_S² = 0): C·T / (2(c − a)). With c = 1 this is exactly the M/D/1 wait
  (Pollaczek-Khinchine), ρ·T / (2(1 − ρ)), ρ = a;
- its p95 follows the exponential tail P(W > t) = C·exp(−2(c − a)·t / T) (M/M/c's tail, scaled as the
  mean): T·ln(C / 0.05) / (2(c − a)) when C > 0.05, else 0 (95 % of arrivals find a slot). With c = 1 this
  is `load.wait_p95`'s Kingman tail of the whole request time.

70B int8 on one A100 80 GB holds 1 sequence of 8 192 tokens: at 0.05 req/s and T = 13.3 s, a = 0.665, an
arrival waits 66.5 % of the time, 13.2 s on average and 51 s at the p95 (QA 47 #3: the steady state had
counted 0 s and called a p95 first-words time of 0.89 s).
"""

from __future__ import annotations

import math

from expert.sizing.load_solver import tail_p95

NEGLIGIBLE_SIGMAS = 8.0  # a + 8·√a + 8 < c: the Poisson tail beyond c is below 1e-12, Erlang C taken as 0


def erlang_c(c: int, a: float) -> float:
    """Probability that an arrival waits for one of `c` servers at offered load `a` erlangs (1: a ≥ c)."""
    if c < 1 or a >= c:
        return 1.0
    if a <= 0 or a + NEGLIGIBLE_SIGMAS * (math.sqrt(a) + 1) < c:
        return 0.0
    b = 1.0
    for k in range(1, c + 1):
        b = a * b / (k + a * b)
    return c * b / (c - a * (1 - b))


def admission_waits(slots: float | None, offered: float, hold_s: float) -> tuple[float, float]:
    """(mean, p95) wait for a free KV slot, s, of `slots` slots (None or ∞: unlimited, no wait) at
    `offered` = λ·T erlangs, each request holding its slot `hold_s` = T (module docstring); inf when
    a ≥ c (the queue grows)."""
    if slots is None or not math.isfinite(slots) or offered <= 0:
        return 0.0, 0.0
    c = int(math.floor(slots + 1e-9))
    if offered >= c:
        return math.inf, math.inf
    waits = erlang_c(c, offered)
    if waits <= 0:
        return 0.0, 0.0
    mean = waits * hold_s / (2 * (c - offered))
    return mean, tail_p95(waits, hold_s, c - offered)


__all__ = ["erlang_c", "admission_waits"]
