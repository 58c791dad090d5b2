"""Fast closed forms of the sizing core for the search: one `ReplicaProfile` per (model, GPU,
precision, TP, interconnect column), cached inside one search.

The sizing core (`expert.sizing.memory.inference_memory`, `expert.sizing.speed.performance`) builds
pydantic results with provenance and three speed scenarios per call (≈ 70-130 µs). A search needs
thousands of such numbers, so this module evaluates the *same* formulas at the point values only:

- per-GPU memory at `b` sequences = weights/TP + KV per sequence per GPU × b + activation + overhead
  (`memory.inference_memory`), usable = memory × 0.9 (vLLM);
- TPOT at batch `b` and the prefill of one request: the core's own point scenario
  (`speed._scenario`, as `performance` calls it) at batches 1 and 2; for dense models the memory
  time is affine and the compute time linear in the batch, so every other batch follows exactly from
  those two (MoE models call the core per batch). `e2e(b)` = prefill + output × TPOT(b), without
  queueing, as the core's `e2e_latency_s`.

The operating point of a replica (`point`, docs/slo.md): at the arrival rate λ per replica the batch
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

`tests/configurator/test_profile.py` checks both against the core on many combinations (equal to
1e-9 relative). Nothing here is a new formula.

Growth reserve (000 M5, "Fehler 5"): without `growth_params_b`, the model (weights, activation,
runtime) may use at most (1 − 30 %) of the usable memory per GPU (the low end of M5's 30-50 % band,
`vram_reserve.low`; M5's own example puts a 14 GB model on a 24 GB card), and the model with the KV
cache of the operating batch must fit the usable memory. The KV pool is what the engine takes from
the memory left after the model (vLLM), so the reserve is room for the model to grow, not a cap on
the sequences served today;
with `growth_params_b`, the replica must fit in the usable memory *and* the grown model (generic
dense shape, same precision, same sequences) must fit too — the reserve is then the room the growth
model needs instead of a flat share.
"""

from __future__ import annotations

import copy
import math
from dataclasses import dataclass, field

from expert.catalog.models import Gpu, LlmModel
from expert.sizing.constants import GIB, Assumptions
from expert.sizing.memory import bytes_per_param, kv_cache_gb, kv_heads_per_gpu
from expert.sizing.parallel import tp_efficiency
from expert.sizing import speed as core_speed
from expert.slo import SLO_TOLERANCE, Targets

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


@dataclass
class ReplicaProfile:
    """Memory and speed of one TP replica of `model` on `gpu` at `precision` (point values)."""

    model: LlmModel
    gpu: Gpu
    precision: str
    tp: int
    column: str
    prompt: int
    output: int
    context: int
    slo: Targets | None
    a: Assumptions
    growth: LlmModel | None = None
    base_gb: float = 0.0            # per GPU without KV: weights/TP + activation + overhead
    kv_seq_gb: float = 0.0          # KV per sequence per GPU
    usable_gb: float = 0.0          # memory × 0.9
    limit_gb: float = 0.0           # what the replica may use per GPU (reserve applied)
    reserve: float = 0.0            # flat reserve share (0 when the growth model decides)
    growth_base_gb: float = 0.0
    growth_kv_seq_gb: float = 0.0
    seq_mem: int = 0                # most sequences memory allows (with reserve)
    seq_lat: int = 0                # most sequences the latency targets allow without queueing (≤ seq_mem)
    e2e_1: float = 0.0              # latency at batch 1
    prefill_1: float = 0.0          # prefill of one request alone, s
    _e2e: dict = field(default_factory=dict, repr=False)
    _tpot: dict = field(default_factory=dict, repr=False)
    _points: dict = field(default_factory=dict, repr=False)

    # --- speed ---
    def _point(self, batch: int) -> dict:
        """The core's point scenario (`speed._scenario`, as `performance` calls it for the point)."""
        a, g = self.a, self.gpu
        wo = a.weight_only_efficiency.value if core_speed.weight_only(g, self.precision) else 1.0
        return core_speed._scenario(self.model, g, self.tp, self.precision, batch, self.prompt, self.output,
                                    "fp16", a.mbu.value, a.mfu.value, self._eta, a, wo)

    def _setup_speed(self) -> None:
        self._eta = tp_efficiency(self.tp, self.column, self.a)[0]
        self._moe = self.model.is_moe and bool(self.model.active_params_b)
        s1 = self._point(1)
        self._ttft = s1["ttft_s"]
        if not self._moe:  # dense: memory time is affine in the batch, compute time linear
            s2 = self._point(2)
            self._mem_b = s2["mem"] - s1["mem"]
            self._mem_a = s1["mem"] - self._mem_b
            self._comp_1 = s1["comp"]
        self._e2e[1] = s1["e2e_latency_s"]

    def tpot(self, batch: int) -> float:
        """Time per output token at `batch` sequences per replica, s."""
        hit = self._tpot.get(batch)
        if hit is not None:
            return hit
        if self._moe:
            value = self._point(batch)["tpot_s"]
        else:
            value = max(self._mem_a + self._mem_b * batch, self._comp_1 * batch) / self._eta
        self._tpot[batch] = value
        return value

    def e2e(self, batch: int) -> float:
        """End-to-end latency without queueing (prefill + output × TPOT) at `batch`, s."""
        hit = self._e2e.get(batch)
        if hit is not None:
            return hit
        value = self._point(batch)["e2e_latency_s"] if self._moe else self._ttft + self.output * self.tpot(batch)
        self._e2e[batch] = value
        return value

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

    # --- memory ---
    def need_gb(self, batch: int) -> float:
        """Per-GPU memory of the replica holding `batch` sequences, GB."""
        return self.base_gb + self.kv_seq_gb * batch

    def growth_need_gb(self, batch: int) -> float:
        """Per-GPU memory of the grown model (M5) at `batch` sequences, GB."""
        return self.growth_base_gb + self.growth_kv_seq_gb * batch

    def model_headroom(self) -> float:
        """The share of usable memory the model (weights, activation, runtime) leaves: 000 M5's
        reserve is room for the model to grow; the KV pool takes what the load needs of the rest."""
        return (self.usable_gb - self.base_gb) / self.usable_gb

    def memory_ratio(self, batch: int) -> float:
        """Needed over allowed per GPU at `batch` sequences (> 1: does not fit)."""
        r = self.need_gb(batch) / self.usable_gb
        if self.growth is None:
            r = max(r, self.base_gb / self.limit_gb)
        else:
            r = max(r, self.growth_need_gb(batch) / self.usable_gb)
        return r

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


def _free_sequences(free_gb: float, per_seq: float) -> int:
    if free_gb <= 0:
        return 0
    if per_seq <= 0:
        return 10**9
    return int(math.floor(free_gb / per_seq + EPS))


def build_profile(model: LlmModel, gpu: Gpu, precision: str, tp: int, column: str, prompt: int, output: int,
                  context: int, slo: Targets | None, a: Assumptions,
                  growth: LlmModel | None = None) -> ReplicaProfile:
    """Compute the profile (memory limits, latency-limited batch) once."""
    p = ReplicaProfile(model, gpu, precision, tp, column, prompt, output, context, slo, a, growth)
    act_c = a.activation_moe_gib if model.is_moe else a.activation_dense_gib
    over_c = a.non_torch_tp1_gib if tp == 1 else a.non_torch_tpn_gib
    act, over = act_c.value * GIB, over_c.value * GIB
    bpp = bytes_per_param(precision, a).value
    p.base_gb = model.params_b * bpp / tp + act + over
    p.kv_seq_gb = kv_cache_gb(model, context, 1, "fp16", a) * kv_heads_per_gpu(model, tp) / model.kv_heads
    p.usable_gb = gpu.memory_gb * a.gpu_memory_utilization.value
    if growth is None:
        p.reserve = a.vram_reserve.low
        p.limit_gb = p.usable_gb * (1 - p.reserve)
        p.seq_mem = _free_sequences(p.usable_gb - p.base_gb, p.kv_seq_gb) if p.base_gb <= p.limit_gb + EPS else 0
    else:
        p.reserve = 0.0
        p.limit_gb = p.usable_gb
        g_act = (a.activation_moe_gib if growth.is_moe else a.activation_dense_gib).value * GIB
        p.growth_base_gb = growth.params_b * bpp / tp + g_act + over
        g_ctx = min(context, growth.max_context)
        p.growth_kv_seq_gb = kv_cache_gb(growth, g_ctx, 1, "fp16", a) * kv_heads_per_gpu(growth, tp) \
            / growth.kv_heads
        p.seq_mem = min(_free_sequences(p.usable_gb - p.base_gb, p.kv_seq_gb),
                        _free_sequences(p.usable_gb - p.growth_base_gb, p.growth_kv_seq_gb))
    p._setup_speed()
    p.prefill_1 = p._ttft
    p.e2e_1 = p.e2e(1)
    return p if slo is None else with_target(p, slo)


def with_target(base: ReplicaProfile, slo: Targets) -> ReplicaProfile:
    """A copy of a profile for one set of latency targets (shares the speed caches of `base`)."""
    p = copy.copy(base)
    p.slo = slo
    p._points = {}
    p.seq_lat = 0
    if p.seq_mem >= 1 and not p.misses(1):
        lo, hi = 1, min(p.seq_mem, 100_000)
        while lo < hi:  # latency grows with the batch: last batch meeting the targets
            mid = (lo + hi + 1) // 2
            if not p.misses(mid):
                lo = mid
            else:
                hi = mid - 1
        p.seq_lat = lo
    return p
