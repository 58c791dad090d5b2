"""The latency-limited batch of a replica profile (`with_target`): the most sequences one replica may
decode together while a request alone still meets the targets (`Serving.misses` at that batch: TTFT =
prefill + TPOT, TPOT, end to end = TTFT + (output − 1) × TPOT, no queueing).

Latency grows with the batch, so the batches that meet the targets are 1 … `seq_lat`, and a bisection
over [1, seq_mem] finds `seq_lat`.
"""

from __future__ import annotations

import copy

from expert.inputs.slo import Targets

MOST = 100_000  # batches looked at, at most


def with_target(base, slo: Targets):
    """A copy of a `profile.ReplicaProfile` for one set of latency targets (shares the speed caches of
    `base`), with its latency-limited batch `seq_lat` (0 when one sequence misses a target)."""
    p = copy.copy(base)
    p.slo = slo
    p.seq_lat = 0
    if p.seq_mem >= 1 and not p.misses(1):
        lo, hi = 1, min(p.seq_mem, MOST)
        while lo < hi:  # latency grows with the batch: last batch meeting the targets
            mid = (lo + hi + 1) // 2
            if not p.misses(mid):
                lo = mid
            else:
                hi = mid - 1
        p.seq_lat = lo
    return p

