"""The serving side of a replica profile (docs/slo.md): its operating point at an arrival rate, the
latency targets at that point, and the fewest replicas that serve a peak.

The operating point of a replica (`point`) at arrival rate λ per replica is the continuous-batching
steady state of `expert.sizing.load` (the model `estimate --rate` and the accuracy report use): each
step carries the decode of the running batch and the chunked prefill of arrivals, step = decode(b) /
(1 − λ·P·c) with b = λ·O·step sequences decoding; TPOT = step, TTFT p95 = the M/D/1 wait of the
prefill lane + the prefill spread over the engine's chunks + the wait for a free KV slot where the pool
binds (M/D/c, Erlang C: `expert.sizing.admission`; one slot at ρ = 0.67 waits tens of seconds at the p95),
end to end = TTFT + (output − 1) × TPOT.
The batch the replica must hold (memory) follows Little's law with 000 D3's utilisation U over the
sequences in flight, b × U ≥ λ × time in system (the measured `inference_time_s` where given, which
holds only at the concurrency it was measured at, else the steady state's mean TTFT + output × TPOT),
and D3's U also caps the load at U × the replica's compute capacity (`rate_max`, the largest arrival
rate with a stable steady state: prefill compute and prefill lane; the KV pool is the batch's check). `OperatingPoint.rho` reports λ over that
capacity. The agent loop's cached prefixes shorten the uncached prompt (`ttft_shift`), so the prefill
share falls with them. Targets are met within `expert.inputs.slo.SLO_TOLERANCE`.
"""

from __future__ import annotations

import math
from typing import NamedTuple

from expert.configurator.fewest import first_serving, first_walking
from expert.sizing import load
from expert.sizing.load import wait_p95
from expert.inputs.slo import SLO_TOLERANCE

EPS = 1e-9
LIMIT = 1 + SLO_TOLERANCE


class OperatingPoint(NamedTuple):
    """One replica at its operating batch: the latencies the targets are checked against (immutable;
    a named tuple: cheaper to build than a frozen dataclass)."""

    batch: int
    rho: float
    ttft_s: float
    tpot_s: float
    e2e_s: float
    ok: bool
    decoding: float = 0.0       # sequences decoding in the steady state
    prefill_share: float = 0.0  # share of each step the prefill of arrivals takes
    rate_rps: float = 0.0       # arrival rate per replica

    def regime(self, lang: str = "en") -> str:
        """Which steady state the TPOT figure is for: 'at 0.69 req/s per replica, batch 3'."""
        from expert.report.numbers import dec
        word = "pro Replikat, Batch" if lang == "de" else "per replica, batch"
        return f"{dec(self.rate_rps, lang, 2)} req/s {word} {self.batch}"


class Serving:
    """Mixin of `profile.ReplicaProfile`: needs `slo`, `prefill_1`, `_request`, `output`, `seq_mem`, `seq_lat`,
    `_rate_max`, `replica()`, `tpot(b)` and `e2e(b)`."""

    def work(self, batch: int) -> float:
        """GPU-seconds one request costs the replica at `batch` as a static share: its prefill + its share
        of the decode steps (kept for callers; the operating point uses the steady state)."""
        return self.prefill_1 + self.output * self.tpot(batch) / batch

    def latencies(self, batch: int, rho: float) -> tuple[float, float, float]:
        """(TTFT p95, TPOT, end to end) at `batch` without arrivals beside it, the prefill lane busy
        `rho` (the latency-limited batch `seq_lat` uses rho 0)."""
        tpot = self.tpot(batch)
        ttft = wait_p95(rho, self.prefill_1) + self.prefill_1 + self._request + tpot
        return ttft, tpot, ttft + (self.output - 1) * tpot

    def steady(self, rate: float):
        """The continuous-batching steady state at `rate` requests/s per replica (`load.steady`)."""
        return load.steady(self.replica(), rate)

    def rate_max(self) -> float:
        """The largest arrival rate per replica whose steady state the GPU computes stably, requests/s
        (`load.rate_max` without the KV pool's cap, which Little's law with D3's headroom checks)."""
        if self._rate_max is None:
            self._rate_max = load.rate_max(self.replica(capped=False))
        return self._rate_max

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

    def batch_for(self, st, replicas: int, concurrency: float, utilization: float,
                  inference_time: float | None) -> int:
        """The batch per replica (sequences its memory holds) with which `replicas` replicas serve the
        peak, each in steady state `st` (`steady` at the peak's share λ, `st.rate_rps`): Little's law at
        000 D3's utilisation over the steady state's time in system, at least `concurrency` / replicas;
        0 when it exceeds `min(seq_mem, seq_lat)` or the steady state is unstable or above
        U × `rate_max` (module docstring)."""
        top = min(self.seq_mem, self.seq_lat)
        lam = st.rate_rps
        if top < 1 or not st.stable or lam > utilization * self.rate_max() + EPS:
            return 0
        # the time a request holds its KV slot: its wait for the slot (`st.admission_s`) holds none
        t = inference_time if inference_time is not None else st.ttft_mean_s - st.admission_s + self.output * st.step_s
        b = max(1, math.ceil(lam * t / utilization - EPS), math.ceil(concurrency / replicas - EPS))
        return b if b <= top else 0

    def point(self, replicas: int, peak_rps: float, concurrency: float, utilization: float,
              inference_time: float | None) -> OperatingPoint | None:
        """The operating point of `replicas` replicas at the peak; None when they cannot serve it. The
        steady state at the peak's share is solved once, for the batch and the latencies alike."""
        if min(self.seq_mem, self.seq_lat) < 1:
            return None
        lam = peak_rps / replicas
        st = self.steady(lam)
        b = self.batch_for(st, replicas, concurrency, utilization, inference_time)
        if b < 1:
            return None
        ttft, tpot = st.ttft_p95_s, st.step_s
        e2e = ttft + (self.output - 1) * tpot
        return OperatingPoint(b, lam / self.rate_max(), ttft, tpot, e2e, self.meets(ttft, tpot, e2e),
                              st.batch, st.prefill_share, lam)

    def capacity_floor(self, peak_rps: float, utilization: float) -> float:
        """Replicas the peak needs at D3's utilisation `utilization` of `rate_max` (not rounded): a lower
        bound on `replicas_needed` that the KV pool leaves alone (the uncapped replica's capacity)."""
        return peak_rps / (utilization * self.rate_max())

    def replicas_needed(self, peak_rps: float, concurrency: float, utilization: float,
                        inference_time: float | None) -> int:
        """Fewest replicas whose operating point serves the peak within the targets, 0 when impossible:
        the first of 512 counts from a lower bound on (Little's law on the batch, D3's U on `rate_max`),
        searched as `fewest.py` shows."""
        top = min(self.seq_mem, self.seq_lat)
        if top < 1:
            return 0
        t = inference_time if inference_time is not None else self.e2e(1)
        need = max(concurrency / top, peak_rps * t / (utilization * top), self.capacity_floor(peak_rps, utilization))

        def serves(r: int) -> bool:
            op = self.point(r, peak_rps, concurrency, utilization, inference_time)
            return op is not None and op.ok

        first = max(1, math.ceil(need - EPS))
        dense = self.replica().pieces is not None  # serving is monotone in the count (fewest.py)
        return first_serving(serves, first) if dense else first_walking(serves, first)
