"""The latency-limited batch of a replica profile (`with_target`): the most sequences one replica may
decode together while a request alone still meets the targets (`Serving.misses` at that batch: TTFT =
prefill + TPOT, TPOT, end to end = TTFT + (output − 1) × TPOT, no queueing).

Latency grows with the batch, so the batches that meet the targets are 1 … `seq_lat`, and a bisection
finds `seq_lat` from any bracket that holds it. For a dense replica this holds in floating point too:
TPOT(b) = max(max(m_a + m_b·b, c·b) / η + r·b, floor) + host (`profile.tpot`) with m_b, c, r ≥ 0, η > 0,
every operation monotone in b, and TTFT and end to end add non-negative multiples of it to constants.
So a dense replica's bracket starts at the batch where TPOT reaches the tightest target (`_guess`,
closed form); the checks at the guess and the batch after it usually leave nothing to bisect. MoE
replicas (TPOT from the core per batch) bisect from [1, seq_mem] as before.
`tests/configurator/test_fewest_replicas.py` compares both with the plain bisection.
"""

from __future__ import annotations

import copy

from expert.inputs.slo import SLO_TOLERANCE, Targets

LIMIT = 1 + SLO_TOLERANCE
MOST = 100_000  # batches looked at, at most


def with_target(base, slo: Targets):
    """A copy of a `profile.ReplicaProfile` for one set of latency targets (shares the speed caches of
    `base`), with its latency-limited batch `seq_lat` (0 when one sequence misses a target)."""
    p = copy.copy(base)
    p.slo = slo
    p._points = {}
    p.seq_lat = 0
    if p.seq_mem >= 1 and not p.misses(1):
        lo, hi = 1, min(p.seq_mem, MOST)
        if not p._moe:
            lo, hi = _bracket(p, lo, hi)
        while lo < hi:  # latency grows with the batch: last batch meeting the targets
            mid = (lo + hi + 1) // 2
            if not p.misses(mid):
                lo = mid
            else:
                hi = mid - 1
        p.seq_lat = lo
    return p


def _bracket(p, lo: int, hi: int) -> tuple[int, int]:
    """[lo, hi] narrowed around the guess: still holding the last batch that meets the targets."""
    guess = _guess(p, lo, hi)
    if p.misses(guess):
        return lo, guess - 1
    if guess == hi or p.misses(guess + 1):
        return guess, guess
    return guess + 1, hi


def _guess(p, lo: int, hi: int) -> int:
    """The batch in [lo, hi] at which a dense replica's TPOT reaches the tightest target's TPOT (TTFT
    and end to end turned into a TPOT), by the closed form of `profile.tpot`; approximate."""
    t, limit = p.slo, float("inf")
    if t is None:
        return hi
    if t.tpot_s is not None:
        limit = t.tpot_s * LIMIT
    if t.ttft_s is not None:
        limit = min(limit, t.ttft_s * LIMIT - p.prefill_1)
    if t.e2e_s is not None:
        limit = min(limit, (t.e2e_s * LIMIT - p.prefill_1) / p.output)
    batch = float(hi)
    for a, c in ((p._mem_a / p._eta, p._mem_b / p._eta + p._comm_b), (0.0, p._comp_1 / p._eta + p._comm_b)):
        if c > 0:
            batch = min(batch, (limit - a - p._host) / c)
    return max(lo, min(hi, int(batch)))
