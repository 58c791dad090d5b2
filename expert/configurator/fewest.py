"""The fewest replicas that serve a peak (`Serving.replicas_needed`): why a search over the replica
count may skip counts, and the search.

`replicas_needed` wants the first count r of `first, first + 1, …, first + SPAN − 1` whose operating
point serves the peak (`Serving.point`: not None and `ok`). Walking them one by one costs one steady
state per count, up to 512 when no count serves. For a dense replica (the step is the maximum of affine
pieces, `load._step`'s closed form) serving is monotone in r — once a count serves, every larger one
does — so `first_serving` gallops and bisects instead (at most about 20 counts looked at).

Why serving is monotone in r. Each count gives every replica λ = peak / r, which falls as r grows, so
it suffices that each quantity `point` tests rises (weakly) with λ, every target being an upper bound:

- ρ = λ·P·c rises; each piece's a_i / (1 − ρ − c_i·λ·O) and the floor decode(1) / (1 − ρ) rise (a_i,
  c_i ≥ 0: floor, memory, compute; `profile.replica`), so the step s does, and the set of λ with a
  fixed point is an interval from 0;
- b = max(1, λ·O·s) rises, the chunk's room max(1, chunk − b) falls, ⌈P / room⌉ rises; the decode
  d = s·(1 − ρ) = max(max_i a_i / (1 − c_i·λ·O / (1 − ρ)), decode(1)) rises;
- so the service S = max(prefill, P·c) + ⌈P / room⌉·d, the lane share u = λ·S, the mean and p95 waits
  (increasing in u and S), TTFT, the flight λ·(mean + O·s) and e2e = TTFT + (O − 1)·s rise;
- stability (u < 1, finite mean, flight ≤ the KV pool) therefore holds on an interval from 0, as do
  λ ≤ U × `rate_max` (a constant) and the batch max(1, ⌈λ·t/U − ε⌉, ⌈N / r − ε⌉) ≤ top (t = the
  measured time or mean + O·s; N / r falls as r grows); and each latency ≤ its target.

In floating point every step above is a correctly rounded +, −, ×, ÷, a max, a ceiling or a comparison,
each monotone in its arguments, with two exceptions: d = s × (1 − ρ) multiplies a rising by a falling
factor, and `math.log` (the p95) is faithfully, not provably monotonically, rounded. Both stay within
a few units in the last place of their exact, monotone values (the waits' 1/(1 − u) magnifies that
near u = 1), so the computed point can differ from a monotone one only where a compared quantity lies
within that error of its threshold: a latency at its target + 1e-9 s, the sequences in flight at the
KV pool + 1e-9, λ·t/U − 1e-9 at an integer, u at 1. MoE replicas solve the step by a search on whole
sequences whose result is not shown monotone here: they keep the plain walk.
`tests/configurator/test_fewest_replicas.py` checks on random profiles, loads and targets (hypothesis)
that the count found serves and one fewer does not, besides the brute force of
`test_configurator_exactness.py`.
"""

from __future__ import annotations

from typing import Callable

SPAN = 512  # counts looked at from the lower bound on; none of them serving means 0 ("impossible")


def first_walking(serves: Callable[[int], bool], first: int) -> int:
    """The first count of `first … first + SPAN − 1` that `serves`, one by one; 0 when none does."""
    return next((r for r in range(first, first + SPAN) if serves(r)), 0)


def first_serving(serves: Callable[[int], bool], first: int) -> int:
    """`first_walking` for a monotone `serves` (module docstring): `first`, then counts at growing
    distances (1, 2, 4, …) up to the last one, then bisection between the last count that does not
    serve and the first that does. The common answers, `first` and `first + 1`, cost one and two calls."""
    if serves(first):
        return first
    last = first + SPAN - 1
    bad, step = first, 1
    while True:
        probe = min(bad + step, last)
        if serves(probe):
            good = probe
            break
        if probe == last:
            return 0
        bad, step = probe, step * 2
    while good - bad > 1:
        mid = (bad + good) // 2
        if serves(mid):
            good = mid
        else:
            bad = mid
    return good
