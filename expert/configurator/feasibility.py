"""Evaluate one candidate (source × precision × TP × count): every constraint, the operating point and
the objective. A constraint that fails is a `Violation` with a ratio (> 1: how far it misses), so the
search can name the tightest one when nothing fits.

Constraints:
- memory: weights + KV (context × sequences) + runtime per GPU within the usable share, with the
  growth reserve (`profile.py`, 000 M5);
- latency (docs/slo.md): the workload's targets (`expert.slo.targets`: TTFT p95 with queueing, TPOT,
  end to end where the answer is consumed whole) hold at the operating batch of each replica, within
  the estimate's tolerance (`expert.slo.SLO_TOLERANCE`), so a 0.2 % miss of a point estimate does not
  decide the choice;
- capacity: the replicas serve the peak load at the target utilisation, at the same batch the latency
  check uses: Little's law with 000 D3's utilisation (the estimated time in system at that batch, or
  the workload's `inference_time_s`) and the token-level work (prefill + decode GPU-seconds per
  request) within the utilisation (`profile.ReplicaProfile.point`);
- fine-tuning (issue 12): the run is a job with its own GPUs (`training_plan.py`): on the serving
  GPUs in their idle hours when memory and time allow (cost 0, T1 already prices them 24/7), else the
  cheapest of GPUs rented for the run's hours and dedicated training GPUs; that cost is added to the
  objective as its own line. A configuration fails (`ft_plan`) only when no option runs the job.
  Team time (000 M2) is opt-in (`fine_tuning.team_waits`) and counts attended hours only;
- budget: GPU cost + training cost over the horizon within `budget_limit_chf` (team time is not spent
  money).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

from expert.catalog.loader import Catalog
from expert.catalog.models import Gpu, LlmModel
from expert.configurator.agent_demand import (AgentDemand, held_per_replica, shared_prefix_tokens, step_prefill,
                                              with_held)
from expert.configurator.availability import domain_count, domain_gpus, domains_cost
from expert.configurator.candidates import Source, precisions, tp_degrees
from expert.configurator.idle_nights import gpu_hour_chf
from expert.configurator.keys import inputs
from expert.configurator.objective import sort_key
from expert.configurator.pairs import Horizon, price
from expert.configurator.profile import ReplicaProfile, Sizing, sized, with_target
from expert.sizing.architecture import generic_model
from expert.sizing.constants import Assumptions
from expert.inputs.slo import targets
from expert.inputs.workload import Workload


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
    train_monthly: float = 0.0
    ft_option: object = None
    ttft: float | None = None
    tpot: float | None = None
    rho: float | None = None
    key: tuple = ()
    closeness: tuple = ()
    op: object = None          # the operating point (serving.OperatingPoint): the regime of ttft/tpot

    def __post_init__(self):
        self.key = sort_key(self.objective, self.precision, self.latency, self.count, self.source, self.tp)
        if self.violations:  # infeasible: fewer failed constraints, then smaller total miss (log ratios)
            self.closeness = (len(self.violations),
                              round(sum(math.log(max(v.ratio, 1.0)) for v in self.violations), 9), self.key)

    @property
    def feasible(self) -> bool:
        return not self.violations


@inputs
class Demand:
    """What `ordered._needed` reads besides the GPU, column, precision and TP: the replicas' sizing (the
    key of their profiles), the load and targets it must carry, and whether an agent loop holds
    sessions through tool waits (then only the capacity term bounds the replicas)."""

    sizing: Sizing
    peak_rps: float
    concurrency: float
    util: float
    t_inf: float | None
    agent_loop: bool


@inputs
class Offered:
    """What `ordered._options` reads besides the source and count: the model (its heads bound the TP
    degrees) and the workload's precision choice (`candidates.precisions`)."""

    model: LlmModel
    precision: str
    precision_open: bool
    allow_int4: bool


class Context:
    """Everything fixed for one search: the workload's numbers, the resolved model and the caches
    (`caches`, which the searches of one catalog share: the profiles, the replica bounds, the options,
    the prices, the fine-tuning layouts, each under a key made of the inputs it reads)."""

    def __init__(self, w: Workload, catalog: Catalog, a: Assumptions, model: LlmModel,
                 caches: dict | None = None, agent: AgentDemand | None = None):
        self.w, self.catalog, self.a, self.model = w, catalog, a, model
        self.agent = agent  # an agent loop (`w` is then its per-step equivalent, agent_demand.py)
        self.offload_searched = False  # its offload share chosen by searching (`search.context`)
        self.growth = generic_model(w.growth_params_b) if w.growth_params_b else None
        self.context = min(w.context, model.max_context)
        self.average_rps = w.average_rps
        self.peak_rps = w.peak_rps
        self.slo = targets(w)
        self.concurrency = float(w.concurrency or 0)
        self.util = w.target_utilization
        self.t_inf = w.inference_time_s
        self.months = w.horizon_months
        self.tuning = w.tuning
        self.tuned = self.tuning.enabled
        self.sizing = Sizing(model, self.growth, w.prompt_tokens, w.output_tokens, self.context, w.engine,
                             w.kv_cache_precision, a, None if agent is None else step_prefill(agent), self.slo,
                             0 if agent is None else shared_prefix_tokens(agent), w.prompt_cv)
        self.untargeted = replace(self.sizing, slo=None)
        self.caches = {} if caches is None else caches
        self.profiles = self.caches.setdefault("profiles", {})
        # `ordered._needed` by its arguments, shared by the searches that agree on what it reads (`Demand`)
        self.needed: dict = self.caches.setdefault(
            Demand(self.sizing, self.peak_rps, self.concurrency, self.util, self.t_inf, agent is not None), {})
        # `ordered._options` by source and count, shared likewise (`Offered`)
        self.options: dict = self.caches.setdefault(
            Offered(model, w.precision, w.precision_open, w.allow_int4), {})
        # GPU costs by source key and count, shared by the searches at one horizon (`Horizon`, `pairs.price`)
        self.prices: dict = self.caches.setdefault(Horizon(self.months, a), {})
        self._planner = None

    def profile(self, gpu: Gpu, precision: str, tp: int, column: str) -> ReplicaProfile:
        """The sized replica at this search's targets: a copy (`with_target`) of `base_profile`. Both are
        kept in `profiles` under their inputs (`profile.Sizing`) and the GPU (by its catalog id: the
        cache belongs to one catalog), precision, TP degree and column."""
        key = (self.sizing, gpu.id, precision, tp, column)
        p = self.profiles.get(key)
        if p is None:
            p = self.profiles[key] = with_target(self.base_profile(gpu, precision, tp, column), self.slo)
        return p

    def base_profile(self, gpu: Gpu, precision: str, tp: int, column: str) -> ReplicaProfile:
        """The sized replica without targets (`profile.sized`), kept in `profiles` (`profile`)."""
        key = (self.untargeted, gpu.id, precision, tp, column)
        p = self.profiles.get(key)
        if p is None:
            p = self.profiles[key] = sized(self.untargeted, gpu, precision, tp, column)
        return p

    def gpu_cost(self, source: Source, count: int) -> float:
        """`objective.gpu_cost` of `count` GPUs of `source` over this search's horizon (`pairs.price`)."""
        return price(self.prices, source, count, self.months, self.a)

    def precisions(self, gpu: Gpu) -> tuple[str, ...]:
        """`candidates.precisions` of this search's workload on `gpu`."""
        return precisions(gpu, self.w)

    def tp_degrees(self, count: int, source: Source) -> tuple[int, ...]:
        """`candidates.tp_degrees` of this search's model."""
        return tp_degrees(self.model, count, source)

    def planner(self):
        """The training-sourcing planner of this workload's runs (issue 12), built on first use."""
        if self._planner is None:
            from expert.configurator.candidates import catalog_sources
            from expert.configurator.training_plan import TrainingPlanner
            from expert.sizing.constants import resolve as _resolve
            t = self.tuning
            tokens = t.dataset_tokens if t.dataset_tokens is not None else _resolve(self.a).default_dataset_tokens.value
            self._planner = TrainingPlanner(self.w, self.model, t, self.catalog, self.a, catalog_sources(self.catalog),
                                            tokens, self.caches)
        return self._planner


def _serving(ctx: Context, prof: ReplicaProfile, tp: int, count: int) -> tuple:
    """The source-independent serving part of a candidate:
    (violations, batch, latency, concurrency, operating point or None, replicas the peak needs: 0 where
    the replica cannot serve it, more than the candidate's where they are too few)."""
    replicas = count // tp
    prof = _held(ctx, prof, replicas)  # agent sessions waiting on tools
    violations = []
    batch, latency, op = 1, prof.e2e_1, None
    if prof.seq_mem < 1:
        violations.append(Violation("memory", prof.memory_ratio(1), {
            "need_gb": prof.need_gb(1) * tp, "limit_gb": prof.limit_gb * tp, "usable_gb": prof.usable_gb * tp,
            "reserve": prof.reserve, "weights_gb": prof.weights_gb * tp,
            "weights_limit_gb": prof.gpu.memory_gb * (1 - prof.reserve) * tp,
            "growth_gb": prof.growth_need_gb(1) * tp if prof.growth else None, "tp": tp, "count": count}))
    misses = prof.misses(1) if prof.seq_lat < 1 else []
    if misses:
        kind, value, target = max(misses, key=lambda m: m[1] / m[2])
        violations.append(Violation("latency", value / target, {"latency_s": value, "target_s": target,
                                                                "metric": kind}))
    concurrency, needed = 0.0, 0
    if not violations:
        needed = prof.replicas_needed(ctx.peak_rps, ctx.concurrency, ctx.util, ctx.t_inf)
        op = prof.point(replicas, ctx.peak_rps, ctx.concurrency, ctx.util, ctx.t_inf) if replicas >= needed > 0 \
            else None
        if op is None or not op.ok:
            top = min(prof.seq_mem, prof.seq_lat)
            batch, latency = top, prof.e2e(top)
            known = needed > 0  # 0: no count the search tries serves the peak within the targets
            needed = max(needed, replicas + 1)
            violations.append(Violation("capacity", needed / replicas, {
                "replicas_needed": needed if known else None, "replicas": replicas,
                "gpus_needed": needed * tp if known else None, "count": count}))
            op = None
        else:
            batch, latency = op.batch, op.e2e_s
        t = ctx.t_inf if ctx.t_inf is not None else latency
        concurrency = max(ctx.concurrency, ctx.peak_rps * t / ctx.util)
    return tuple(violations), batch, latency, concurrency, op, needed


def _held(ctx: Context, prof: ReplicaProfile, replicas: int) -> ReplicaProfile:
    """`prof` holding the agent sessions each of `replicas` replicas keeps while they wait on tools."""
    return with_held(prof, held_per_replica(ctx.agent, replicas))


def _tuning(ctx: Context, gpu: Gpu, count: int, cost: float) -> tuple:
    """The fine-tuning part: (violations, team CHF per month, hours per run, memory per GPU, training
    CHF per month, the chosen `TrainingOption`). `cost`: the configuration's GPU cost over the horizon,
    which prices the idle nights' degraded service. The run goes where `TrainingPlanner.choose` puts it
    (module docstring)."""
    if not ctx.tuned:
        return NO_TUNING
    planner = ctx.planner()
    idle = planner.idle(gpu, count, gpu_hour_chf(cost, count, ctx.months, ctx.a))
    chosen = planner.choose(idle, planner.best_external())
    violations = []
    if chosen is None:
        ratio = max(1.0 + 1e-9, (idle.memory_per_gpu_gb or 0) / max(1e-9, gpu.memory_gb))
        violations.append(Violation("ft_plan", ratio, {"need_gb": idle.memory_per_gpu_gb, "reason": idle.reason,
                                                         "reason_de": idle.reason_de}))
        chosen = idle
    months = ctx.months
    return (tuple(violations), chosen.team_horizon_chf / months, chosen.hours_per_run, idle.memory_per_gpu_gb,
            chosen.cost_horizon_chf / months, chosen)


NO_TUNING = ((), 0.0, None, None, 0.0, None)


def check(ctx: Context, source: Source, prof: ReplicaProfile, tp: int, count: int,
          serving: tuple | None = None) -> tuple:
    """The constraints of one candidate without building it: (violations, serving, tuning, GPU cost);
    `serving`: its `_serving` part where the caller has it already."""
    serving = _serving(ctx, prof, tp, count) if serving is None else serving
    cost = ctx.gpu_cost(source, count)
    tuning = _tuning(ctx, source.gpu, count, cost)
    limit = ctx.w.budget_limit_chf
    violations = serving[0] + tuning[0]
    if ctx.w.high_availability and not serving[0]:  # it serves: `needed` replicas of its own, at least 1
        needed = serving[5]
        gpus = ha_domains(needed, tp, count)
        if gpus is None:
            violations = violations + (Violation("availability", (needed + 1) / (count // tp), {
                "replicas_needed": needed + 1, "replicas": count // tp}),)
        else:
            cost = domains_cost(source, gpus, ctx.gpu_cost)
    spent = cost + tuning[4] * ctx.months
    if limit is not None and spent > limit:
        violations = violations + (Violation("budget", spent / limit, {"cost_chf": spent, "limit_chf": limit}),)
    return violations, serving, tuning, cost


def ha_layout(ctx: Context, prof: ReplicaProfile, tp: int, count: int) -> tuple[int, list[int] | None]:
    """(replicas the peak needs, GPUs per failure domain or None) of a highly available candidate
    (`availability.py`): N + 1 replicas over at least two servers or instances."""
    replicas = count // tp
    needed = max(1, _held(ctx, prof, replicas).replicas_needed(ctx.peak_rps, ctx.concurrency, ctx.util, ctx.t_inf))
    return needed, ha_domains(needed, tp, count)


def ha_domains(needed: int, tp: int, count: int) -> list[int] | None:
    """GPUs per failure domain of `count` GPUs in replicas of `tp` when the peak needs `needed` replicas
    (N + 1 over at least two servers or instances, `availability.py`), None where they cannot be spread so."""
    replicas = count // tp
    d = domain_count(replicas, needed, tp)
    return None if d is None else domain_gpus(replicas, tp, d)


def build(ctx: Context, source: Source, prof: ReplicaProfile, precision: str, tp: int, count: int,
          checked: tuple) -> Candidate:
    """The candidate from `check`'s result."""
    violations, (_, batch, latency, concurrency, op, _), (_, team_monthly, ft_hours, ft_mem, train, option), cost = checked
    prof = _held(ctx, prof, count // tp)
    need = prof.need_gb(batch)
    return Candidate(source, precision, tp, count, count // tp, batch, latency, cost, team_monthly,
                     cost + (team_monthly + train) * ctx.months, list(violations), need, prof.usable_gb,
                     prof.model_headroom(), ft_hours, ft_mem, concurrency, train, option,
                     op and op.ttft_s, op and op.tpot_s, op and op.rho, op=op)


def closeness(ctx: Context, source: Source, precision: str, tp: int, count: int, checked: tuple) -> tuple:
    """`Candidate.closeness` of `check`'s infeasible result without building the candidate (the same
    expressions as `build` and `Candidate.__post_init__`, so the same floats)."""
    violations, (_, _, latency, _, _, _), (_, team_monthly, _, _, train, _), cost = checked
    objective = cost + (team_monthly + train) * ctx.months
    return (len(violations), round(sum(math.log(max(v.ratio, 1.0)) for v in violations), 9),
            sort_key(objective, precision, latency, count, source, tp))


def evaluate(ctx: Context, source: Source, precision: str, tp: int, count: int) -> Candidate:
    """All constraints and the objective of one candidate."""
    prof = ctx.profile(source.gpu, precision, tp, source.column)
    return build(ctx, source, prof, precision, tp, count, check(ctx, source, prof, tp, count))
