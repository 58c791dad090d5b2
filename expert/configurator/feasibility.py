"""Evaluate one candidate (source × precision × TP × count): every constraint, the operating point and
the objective. A constraint that fails is a `Violation` with a ratio (> 1: how far it misses), so the
search can name the tightest one when nothing fits.

Constraints:
- memory: weights + KV (context × sequences) + runtime per GPU within the usable share, with the
  growth reserve (`profile.py`, 000 M5);
- latency: the estimated end-to-end latency at the batch each replica must run meets the p95 target
  (the estimate is the core's roofline latency; queueing is what the 70 % target utilisation leaves room for);
- capacity: the replicas serve the peak load at the target utilisation (000 D3, with the estimated
  inference time at the operating batch, or the workload's `inference_time_s`);
- fine-tuning memory: `finetune_memory` with the workload's method, model states sharded over the
  count (ZeRO-3/FSDP), per GPU within the usable 90 %;
- fine-tuning time: one run on all GPUs of the configuration takes at most half the period between
  runs (monthly: 365/12/2 ≈ 15.2 days), so a late or repeated run still fits before the next;
- budget: GPU cost over the horizon within `budget_limit_chf` (team time is not spent money).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from expert.catalog.loader import Catalog
from expert.catalog.models import Gpu, LlmModel
from expert.configurator.candidates import Source
from expert.configurator.objective import gpu_cost, sort_key
from expert.configurator.profile import ReplicaProfile, build_profile, with_target
from expert.sizing.architecture import generic_model
from expert.sizing.constants import Assumptions
from expert.sizing.finetune import finetune_memory
from expert.sizing.training import finetune_run
from expert.workload import Workload

FT_PERIOD_SHARE = 0.5
HOURS_PER_YEAR = 8760.0
PERIOD_WORD = {"en": {"yearly": "yearly", "quarterly": "quarterly", "monthly": "monthly", "weekly": "weekly"},
               "de": {"yearly": "jährlichen", "quarterly": "vierteljährlichen", "monthly": "monatlichen",
                      "weekly": "wöchentlichen"}}


@dataclass(slots=True)
class Violation:
    """One failed constraint: kind, how far it misses (ratio > 1) and the numbers for the text."""

    kind: str
    ratio: float
    facts: dict


@dataclass(slots=True)
class Candidate:
    """One evaluated configuration; `key` (tie-break order) and `closeness` are computed once."""

    source: Source
    precision: str
    tp: int
    count: int
    replicas: int
    batch: int
    latency: float
    gpu_cost: float
    team_monthly: float
    objective: float
    violations: list = field(default_factory=list)
    memory_per_gpu: float = 0.0
    usable_per_gpu: float = 0.0
    headroom: float = 0.0
    ft_hours: float | None = None
    ft_memory: float | None = None
    concurrency: float = 0.0
    key: tuple = ()
    closeness: tuple = ()

    def __post_init__(self):
        self.key = sort_key(self.objective, self.precision, self.latency, self.count, self.source, self.tp)
        if self.violations:  # infeasible: fewer failed constraints, then smaller total miss (log ratios)
            self.closeness = (len(self.violations),
                              round(sum(math.log(max(v.ratio, 1.0)) for v in self.violations), 9), self.key)

    @property
    def feasible(self) -> bool:
        return not self.violations


class Context:
    """Everything fixed for one search: workload numbers, resolved model, caches."""

    def __init__(self, w: Workload, catalog: Catalog, a: Assumptions, model: LlmModel,
                 profiles: dict | None = None, ft_cache: dict | None = None, serving: dict | None = None):
        self.w, self.catalog, self.a, self.model = w, catalog, a, model
        self.model_key = (model.id, model.params_b, model.layers, model.heads, model.kv_heads, model.head_dim)
        self.growth = generic_model(w.growth_params_b) if w.growth_params_b else None
        self.context = min(w.context, model.max_context)
        self.average_rps = w.average_rps
        self.peak_rps = self.average_rps * w.peak_to_average
        self.concurrency = float(w.concurrency or 0)
        self.util = w.target_utilization
        self.t_inf = w.inference_time_s
        self.months = w.horizon_months
        self.tuning = w.tuning
        self.profiles = {} if profiles is None else profiles
        self.ft_cache = {} if ft_cache is None else ft_cache
        self.serving = {} if serving is None else serving
        self._ft_state = None
        if self.tuning.enabled:
            self.period_hours = HOURS_PER_YEAR / self.tuning.runs_per_year
            key = ("ftmem", self.model_key, self.tuning.method, id(a))
            if key not in self.ft_cache:
                anygpu = next(iter(catalog.gpus.values()))
                m = finetune_memory(model, anygpu, 1, self.tuning.method, "bf16", assumptions=a)
                self.ft_cache[key] = (m.weights_gb + m.gradients_gb + m.optimizer_gb, m.activation_gb + m.overhead_gb)
            self._ft_state = self.ft_cache[key]

    def profile(self, gpu: Gpu, precision: str, tp: int, column: str) -> ReplicaProfile:
        """The sized replica (cached: memory and speed per model/GPU/precision/TP/tokens, then the
        latency-limited batch per target)."""
        w = self.w
        base_key = (self.model_key, None if self.growth is None else self.growth.params_b, gpu.id,
                    precision, tp, column, w.prompt_tokens, w.output_tokens, self.context, id(self.a))
        key = (base_key, w.latency_limit_s)
        p = self.profiles.get(key)
        if p is None:
            base = self.profiles.get(base_key)
            if base is None:
                base = self.profiles[base_key] = build_profile(
                    self.model, gpu, precision, tp, column, w.prompt_tokens, w.output_tokens, self.context, None,
                    self.a, self.growth)
            p = self.profiles[key] = with_target(base, w.latency_limit_s)
        return p

    def ft_hours_one(self, gpu: Gpu) -> float:
        """Hours of one fine-tuning run on one GPU of this kind (run time scales as 1/count)."""
        t = self.tuning
        key = ("fthours", self.model_key, gpu.id, t.method, t.dataset_tokens, t.epochs, id(self.a))
        h = self.ft_cache.get(key)
        if h is None:
            h = finetune_run(self.model, gpu, 1, t.method, t.dataset_tokens, t.epochs, assumptions=self.a).hours
            self.ft_cache[key] = h
        return h


def _serving(ctx: Context, prof: ReplicaProfile, tp: int, count: int) -> tuple:
    """The source-independent serving part of a candidate: (violations, batch, latency, concurrency)."""
    key = (id(prof), count, ctx.peak_rps, ctx.concurrency, ctx.util, ctx.t_inf)
    hit = ctx.serving.get(key)
    if hit is not None:
        return hit
    w = ctx.w
    replicas = count // tp
    violations = []
    batch, latency = 1, prof.e2e_1
    if prof.seq_mem < 1:
        violations.append(Violation("memory", prof.memory_ratio(1), {
            "need_gb": prof.need_gb(1) * tp, "limit_gb": prof.limit_gb * tp, "usable_gb": prof.usable_gb * tp,
            "reserve": prof.reserve, "weights_gb": prof.weights_gb * tp,
            "weights_limit_gb": prof.gpu.memory_gb * (1 - prof.reserve) * tp, "growth_gb": prof.growth_need_gb(1) * tp if prof.growth else None}))
    if prof.seq_lat < 1 and prof.e2e_1 > w.latency_limit_s:
        violations.append(Violation("latency", prof.e2e_1 / w.latency_limit_s,
                                    {"latency_s": prof.e2e_1, "target_s": w.latency_limit_s}))
    concurrency = 0.0
    if not violations:
        needed = prof.replicas_needed(ctx.peak_rps, ctx.concurrency, ctx.util, ctx.t_inf)
        if replicas < needed:
            top = min(prof.seq_mem, prof.seq_lat)
            batch, latency = top, prof.e2e(top)
            violations.append(Violation("capacity", needed / replicas, {
                "replicas_needed": needed, "replicas": replicas, "gpus_needed": needed * tp, "count": count}))
        else:
            batch = prof.batch_for(replicas, ctx.peak_rps, ctx.concurrency, ctx.util, ctx.t_inf)
            latency = prof.e2e(batch)
        t = ctx.t_inf if ctx.t_inf is not None else latency
        concurrency = max(ctx.concurrency, ctx.peak_rps * t / ctx.util)
    hit = (tuple(violations), batch, latency, concurrency)
    ctx.serving[key] = hit
    return hit


def _tuning(ctx: Context, gpu: Gpu, count: int) -> tuple:
    """The fine-tuning part: (violations, team CHF per month, hours per run, memory per GPU)."""
    if ctx._ft_state is None:
        return (), 0.0, None, None
    t, w = ctx.tuning, ctx.w
    key = ("ft", ctx.model_key, gpu.id, count, t.method, t.dataset_tokens, t.epochs, t.frequency,
           w.team_hourly_rate_chf, id(ctx.a))
    hit = ctx.ft_cache.get(key)
    if hit is not None:
        return hit
    violations = []
    states, per_gpu_fixed = ctx._ft_state
    ft_mem = states / count + per_gpu_fixed
    usable = gpu.memory_gb * ctx.a.gpu_memory_utilization.value
    if ft_mem > usable:
        violations.append(Violation("ft_memory", ft_mem / usable, {"need_gb": ft_mem, "usable_gb": usable}))
    ft_hours = ctx.ft_hours_one(gpu) / count
    limit = FT_PERIOD_SHARE * ctx.period_hours
    if ft_hours > limit:
        violations.append(Violation("ft_time", ft_hours / limit, {
            "hours": ft_hours, "limit_hours": limit, "frequency": t.frequency}))
    team = ft_hours * t.runs_per_year / 12 * w.team_hourly_rate_chf
    hit = (tuple(violations), team, ft_hours, ft_mem)
    ctx.ft_cache[key] = hit
    return hit


def check(ctx: Context, source: Source, prof: ReplicaProfile, tp: int, count: int) -> tuple:
    """The constraints of one candidate without building it: (violations, serving, tuning, GPU cost)."""
    serving = _serving(ctx, prof, tp, count)
    tuning = _tuning(ctx, source.gpu, count)
    cost = gpu_cost(source, count, ctx.months, ctx.a)
    limit = ctx.w.budget_limit_chf
    violations = serving[0] + tuning[0]
    if limit is not None and cost > limit:
        violations = violations + (Violation("budget", cost / limit, {"cost_chf": cost, "limit_chf": limit}),)
    return violations, serving, tuning, cost


def build(ctx: Context, source: Source, prof: ReplicaProfile, precision: str, tp: int, count: int,
          checked: tuple) -> Candidate:
    """The candidate from `check`'s result."""
    violations, (_, batch, latency, concurrency), (_, team_monthly, ft_hours, ft_mem), cost = checked
    need = prof.need_gb(batch)
    return Candidate(source, precision, tp, count, count // tp, batch, latency, cost, team_monthly,
                     cost + team_monthly * ctx.months, list(violations), need, prof.usable_gb,
                     (prof.usable_gb - need) / prof.usable_gb, ft_hours, ft_mem, concurrency)


def evaluate(ctx: Context, source: Source, precision: str, tp: int, count: int) -> Candidate:
    """All constraints and the objective of one candidate."""
    prof = ctx.profile(source.gpu, precision, tp, source.column)
    return build(ctx, source, prof, precision, tp, count, check(ctx, source, prof, tp, count))
