"""The serving side of a replica profile (docs/slo.md): its operating point at an arrival rate, the
latency targets at that point, and the fewest replicas that serve a peak.

The operating point of a replica (`point`): at the arrival rate λ per replica the batch
is the smallest `b` for which (i) Little's law with 000 D3's utilisation holds, b × U ≥ λ × time in
system (the measured `inference_time_s` where given, which holds only at the concurrency it was
measured at, else `e2e(b)`), and (ii) the token-level work fits, λ × (prefill + output × TPOT(b)/b)
≤ U (prefill and decode GPU-seconds per request at that batch). At that same batch the latency
targets are checked: TPOT(b), TTFT = queueing wait (p95) + prefill + one decode step, end to end =
TTFT + (output − 1) × TPOT(b). The queueing wait is an M/D/1 approximation of the replica's prefill:
a new request joins the next iteration of the running batch (continuous batching: a memory-bound
decode step rides on the weights the prefill reads anyway) and waits for the prefills ahead of it,
busy share ρ = λ × s with s the prefill of one request: mean wait ρ·s / (2(1 − ρ))
(Pollaczek-Khinchine), p95 = s·ln(ρ/0.05) / (2(1 − ρ)) for ρ > 0.05 (the waiting time's exponential
tail, Kingman), else 0. Waits for a free sequence slot are kept rare by (i)'s 30 % slot headroom.
`OperatingPoint.rho` reports the token-level busy share of (ii). Targets are met within
`expert.slo.SLO_TOLERANCE`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from expert.slo import SLO_TOLERANCE

EPS = 1e-9
P95_TAIL = 0.05
LIMIT = 1 + SLO_TOLERANCE


def wait_p95(rho: float, service_s: float) -> float:
    """p95 queueing wait of an M/D/1 server at busy share `rho` with service time `service_s`
    (module docstring); infinite at rho ≥ 1."""
    if rho <= P95_TAIL:
        return 0.0
    if rho >= 1:
        return float("inf")
    return service_s * math.log(rho / P95_TAIL) / (2 * (1 - rho))


@dataclass(frozen=True)
class OperatingPoint:
    """One replica at its operating batch: the latencies the targets are checked against."""

    batch: int
    rho: float
    ttft_s: float
    tpot_s: float
    e2e_s: float
    ok: bool


class Serving:
    """Mixin of `profile.ReplicaProfile`: needs `slo`, `prefill_1`, `output`, `seq_mem`, `seq_lat`,
    `_points`, `tpot(b)` and `e2e(b)`."""

    def work(self, batch: int) -> float:
        """GPU-seconds one request costs the replica at `batch`: its prefill + its share of the decode steps."""
        return self.prefill_1 + self.output * self.tpot(batch) / batch

    def latencies(self, batch: int, rho: float) -> tuple[float, float, float]:
        """(TTFT p95, TPOT, end to end) at `batch` and prefill busy share `rho` (module docstring)."""
        tpot = self.tpot(batch)
        ttft = wait_p95(rho, self.prefill_1) + self.prefill_1 + tpot
        return ttft, tpot, ttft + (self.output - 1) * tpot

    def meets(self, ttft: float, tpot: float, e2e: float) -> bool:
        """The latency targets hold within the tolerance."""
        t = self.slo
        if t is None:
            return True
        return ((t.ttft_s is None or ttft <= t.ttft_s * LIMIT + EPS)
                and (t.tpot_s is None or tpot <= t.tpot_s * LIMIT + EPS)
                and (t.e2e_s is None or e2e <= t.e2e_s * LIMIT + EPS))

    def misses(self, batch: int = 1) -> list[tuple[str, float, float]]:
        """The targets missed at `batch` without queueing: (kind, estimate, target)."""
        t, (ttft, tpot, e2e) = self.slo, self.latencies(batch, 0.0)
        out = []
        if t is None:
            return out
        for kind, value, target in (("ttft", ttft, t.ttft_s), ("tpot", tpot, t.tpot_s), ("e2e", e2e, t.e2e_s)):
            if target is not None and value > target * LIMIT + EPS:
                out.append((kind, value, target))
        return out

    def batch_for(self, replicas: int, peak_rps: float, concurrency: float, utilization: float,
                  inference_time: float | None) -> int:
        """Smallest batch per replica with which `replicas` replicas serve the peak (Little's law at
        000 D3's utilisation and the token-level work, module docstring) and hold `concurrency`
        sequences; 0 when not even `seq_lat` suffices. Monotone, so bisection."""
        top = min(self.seq_mem, self.seq_lat)
        if top < 1:
            return 0
        lam = peak_rps / replicas

        def ok(b: int) -> bool:
            if replicas * b < concurrency - EPS:
                return False
            t = inference_time if inference_time is not None else self.e2e(b)
            return b * utilization >= lam * t - EPS and lam * self.work(b) <= utilization + EPS

        if not ok(top):
            return 0
        lo, hi = 1, top
        while lo < hi:
            mid = (lo + hi) // 2
            if ok(mid):
                hi = mid
            else:
                lo = mid + 1
        return lo

    def point(self, replicas: int, peak_rps: float, concurrency: float, utilization: float,
              inference_time: float | None) -> OperatingPoint | None:
        """The operating point of `replicas` replicas at the peak; None when they cannot serve it."""
        key = (replicas, peak_rps, concurrency, utilization, inference_time)
        if key in self._points:
            return self._points[key]
        b = self.batch_for(replicas, peak_rps, concurrency, utilization, inference_time)
        op = None
        if b >= 1:
            lam = peak_rps / replicas
            rho = lam * self.work(b)
            ttft, tpot, e2e = self.latencies(b, lam * self.prefill_1)
            op = OperatingPoint(b, rho, ttft, tpot, e2e, self.meets(ttft, tpot, e2e))
        self._points[key] = op
        return op

    def replicas_needed(self, peak_rps: float, concurrency: float, utilization: float,
                        inference_time: float | None) -> int:
        """Fewest replicas whose operating point serves the peak within the targets, 0 when impossible."""
        top = min(self.seq_mem, self.seq_lat)
        if top < 1:
            return 0
        t = inference_time if inference_time is not None else self.e2e(top)
        need = max(concurrency / top, peak_rps * t / (utilization * top), peak_rps * self.work(top) / utilization)
        r = max(1, math.ceil(need - EPS))
        for r in range(r, r + 512):
            op = self.point(r, peak_rps, concurrency, utilization, inference_time)
            if op is not None and op.ok:
                return r
        return 0
