"""Evaluate one candidate (source × precision × TP × count): every constraint, the operating point and
the objective. A constraint that fails is a `Violation` with a ratio (> 1: how far it misses), so the
search can name the tightest one when nothing fits.

Constraints:
- memory: weights + KV (context × sequences) + runtime per GPU within the usable share, with the
  growth reserve (`profile.py`, 000 M5);
- latency (docs/slo.md): the workload's targets (`expert.inputs.slo.targets`: TTFT p95 with queueing, TPOT,
  end to end where the answer is consumed whole) hold at the operating batch of each replica, within
  the estimate's tolerance (`expert.inputs.slo.SLO_TOLERANCE`), so a 0.2 % miss of a point estimate does not
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
from dataclasses import dataclass, field

from expert.catalog.loader import Catalog
from expert.catalog.models import Gpu, LlmModel
from expert.configurator.agent_demand import AgentDemand, held_per_replica, shift_of, ttft_terms, with_held
from expert.configurator.candidates import Source, precisions, tp_allowed
from expert.configurator.objective import gpu_cost, sort_key
from expert.configurator.profile import ReplicaProfile, build_profile, shifted, with_target
from expert.sizing.architecture import generic_model
from expert.sizing.constants import Assumptions
from expert.sizing.finetune import finetune_states_gb
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


class Context:
    """Everything fixed for one search: workload numbers, resolved model, caches."""

    def __init__(self, w: Workload, catalog: Catalog, a: Assumptions, model: LlmModel,
                 profiles: dict | None = None, ft_cache: dict | None = None, serving: dict | None = None,
                 agent: AgentDemand | None = None, memo: dict | None = None):
        self.w, self.catalog, self.a, self.model = w, catalog, a, model
        self.agent = agent  # an agent loop (`w` is then its per-step equivalent, agent_demand.py)
        self.offload_searched = False  # its offload share chosen by searching (`enumeration.context`)
        self.model_key = (model.id, model.params_b, model.layers, model.heads, model.kv_heads, model.head_dim)
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
        self.profiles = {} if profiles is None else profiles
        self.ft_cache = {} if ft_cache is None else ft_cache
        self.serving = {} if serving is None else serving
        self._ft_state = None
        self._planner = None
        self.memo = {} if memo is None else memo  # value-keyed results shared by searches (`search._pairs`)
        # By (GPU, precision, TP, column[, count]): the sized profiles, their value keys in `profiles`, the
        # replica bounds (`ordered._needed`) and serving checks. The rest of their key is `_view_key`:
        # searches that agree on it (the sensitivity's horizon, fine-tuning, budget, hosting and precision
        # changes) share them through the memo. The TP degrees (by count, source kind, GPU, column), the
        # precisions (by GPU and `precision_key`) and `ordered._options` (by both) read of the search only
        # the model's heads: shared by every search of the model.
        view = ("view", self._view_key())
        if view not in self.memo:
            self.memo[view] = ({}, {}, {}, {})
        self._fast, self.profile_keys, self.needed, self._served = self.memo[view]
        options = ("options", self.model_key, model.generic)
        if options not in self.memo:
            self.memo[options] = ({}, {}, {})
        self._tps, self._precs, self.pair_options = self.memo[options]
        self.precision_key = (w.precision, w.precision_open, w.allow_int4)  # all `precisions` reads of `w`
        self.memo_local: dict = {}  # this search's own results (`ordered._cheapest`'s count floors)
        self._tuned: dict = {}   # `_tuning` by (GPU, count)
        self.ft_key = None
        if self.tuning.enabled:
            t = self.tuning
            # the external options depend on where and how the workload may rent or buy: all of it is in the key
            self.ft_key = ("ft", self.model_key, t.method, t.dataset_tokens, t.epochs, t.frequency, t.team_waits,
                           t.idle_hours_per_day, w.team_hourly_rate_chf, w.hosting, w.deployment, w.budget,
                           w.horizon_months, w.critical, w.allow_consumer_gpus, w.allow_non_nvidia, w.data,
                           w.sector, a.key)
            key = ("ftmem", self.model_key, self.tuning.method, a.key)
            if key not in self.ft_cache:
                weights, grads, optim, act, over = finetune_states_gb(model, self.tuning.method, "bf16", a)
                self.ft_cache[key] = (weights + grads + optim, act + over)
            self._ft_state = self.ft_cache[key]

    def _view_key(self) -> tuple:
        """Everything the per-(GPU, precision, TP, column) caches depend on besides those four: the
        profile's value key but for them (`_profile`), the load, and the sessions an agent holds."""
        w, m, agent = self.w, self.model, self.agent
        return (self.model_key, m.generic, None if self.growth is None else self.growth.params_b, w.prompt_tokens,
                w.output_tokens, self.context, self.a.key, None if agent is None else (agent.key, agent.held_peak),
                w.engine, w.kv_precision, self.slo.ttft_s, self.slo.tpot_ms, self.slo.e2e_s, self.peak_rps,
                self.concurrency, self.util, self.t_inf)

    def profile(self, gpu: Gpu, precision: str, tp: int, column: str) -> ReplicaProfile:
        """The sized replica (cached: memory and speed per model/GPU/precision/TP/tokens, then the
        latency-limited batch per target)."""
        fast = (gpu.id, precision, tp, column)
        p = self._fast.get(fast)
        if p is None:
            p = self._fast[fast] = self._profile(gpu, precision, tp, column)
        return p

    def _base_key(self, gpu: Gpu, precision: str, tp: int, column: str, agent_key) -> tuple:
        """The value key of a profile without targets (`agent_key`: the agent loop's, None without)."""
        w = self.w
        return (self.model_key, None if self.growth is None else self.growth.params_b, gpu.id, precision, tp,
                column, w.prompt_tokens, w.output_tokens, self.context, self.a.key, agent_key, w.engine,
                w.kv_precision)

    def _profile(self, gpu: Gpu, precision: str, tp: int, column: str) -> ReplicaProfile:
        base_key = self._base_key(gpu, precision, tp, column, self.agent.key if self.agent else None)
        key = (base_key, self.slo.ttft_s, self.slo.tpot_ms, self.slo.e2e_s)
        self.profile_keys[(gpu.id, precision, tp, column)] = key
        p = self.profiles.get(key)
        if p is None:
            p = self.profiles[key] = with_target(self._base(gpu, precision, tp, column, base_key), self.slo)
        return p

    def base_profile(self, gpu: Gpu, precision: str, tp: int, column: str) -> ReplicaProfile:
        """The sized replica without targets, of which `profile` is the copy at this search's targets."""
        return self._base(gpu, precision, tp, column,
                          self._base_key(gpu, precision, tp, column, self.agent.key if self.agent else None))

    def _base(self, gpu: Gpu, precision: str, tp: int, column: str, base_key: tuple) -> ReplicaProfile:
        base = self.profiles.get(base_key)
        if base is None:
            base = self.profiles[base_key] = self._sized(gpu, precision, tp, column, base_key)
        return base

    def _sized(self, gpu: Gpu, precision: str, tp: int, column: str, base_key: tuple) -> ReplicaProfile:
        """`build_profile` without targets. An agent loop's profiles differ from the profile of the same
        key without an agent (`base_key` with None for the agent's) only in their `ttft_shift` (each
        demand and offload share its own): they are `shifted` copies of it, and the parts of the shift
        that no share changes (`ttft_terms`) are computed once."""
        w, d = self.w, self.agent
        core_key = base_key if d is None else self._base_key(gpu, precision, tp, column, None)
        core = self.profiles.get(core_key)
        if core is None:
            core = self.profiles[core_key] = build_profile(
                self.model, gpu, precision, tp, column, w.prompt_tokens, w.output_tokens, self.context, None,
                self.a, self.growth, w.engine, 0.0, w.kv_precision)
        if d is None:
            return core
        terms_key = ("ttft", core_key, d.shape.mean_uncached, d.shape.mean_input, d.kv_precision,
                     d.kv_during_tools, d.affinity)
        terms = self.profiles.get(terms_key)
        if terms is None:
            terms = self.profiles[terms_key] = ttft_terms(d, self.model, gpu, tp, precision, column,
                                                          w.prompt_tokens, self.a)
        return shifted(core, shift_of(d, terms))

    def precisions(self, gpu: Gpu) -> tuple[str, ...]:
        """`candidates.precisions` of this search's workload on `gpu` (memoised: a function of the GPU and
        the three workload fields of `precision_key`, the only ones it reads)."""
        key = (gpu.id, self.precision_key)
        hit = self._precs.get(key)
        if hit is None:
            hit = self._precs[key] = precisions(gpu, self.w)
        return hit

    def tp_degrees(self, count: int, source: Source) -> tuple[int, ...]:
        """`candidates.tp_degrees` of this search's model (memoised: it depends on the source only
        through its kind, GPU and column; the degrees the model and the source allow once per source kind,
        GPU and column, the count's divisors among them per count)."""
        key = (count, source.kind, source.gpu.id, source.column)
        hit = self._tps.get(key)
        if hit is None:
            allowed = self._tps.get(key[1:])   # `tp_allowed`: the degrees the model and the source allow
            if allowed is None:
                allowed = self._tps[key[1:]] = tp_allowed(self.model, source)
            hit = self._tps[key] = tuple([t for t in allowed if count % t == 0])   # as `tp_degrees` filters them
        return hit

    def planner(self):
        """The training-sourcing planner of this workload's runs (issue 12), built on first use."""
        if self._planner is None:
            from expert.configurator.candidates import catalog_sources
            from expert.configurator.training_plan import TrainingPlanner
            from expert.sizing.constants import resolve as _resolve
            t, w = self.tuning, self.w
            tokens = t.dataset_tokens if t.dataset_tokens is not None else _resolve(self.a).default_dataset_tokens.value
            # shared by the sensitivity sub-searches and later advice: everything the planner reads is in the key
            key = ("planner", self.model_key, t.method, tokens, t.epochs, t.runs_per_year, t.team_waits,
                   t.idle_hours_per_day, w.team_hourly_rate_chf, w.hosting, w.deployment, w.budget,
                   w.horizon_months, w.critical, w.allow_consumer_gpus, w.allow_non_nvidia, w.data, w.sector,
                   self.a.key)
            planner = self.ft_cache.get(key)
            if planner is None:
                planner = self.ft_cache[key] = TrainingPlanner(w, self.model, t, self.catalog, self.a,
                                                               catalog_sources(self.catalog), tokens, self.ft_cache)
            self._planner = planner
        return self._planner


def _serving(ctx: Context, prof: ReplicaProfile, tp: int, count: int) -> tuple:
    """The source-independent serving part of a candidate:
    (violations, batch, latency, concurrency, operating point or None)."""
    local = (prof.gpu.id, prof.precision, tp, prof.column, count)  # the rest of the key is this search's
    entry = ctx._served.get(local)
    if entry is not None and entry[0] is prof:
        return entry[1]
    hit = _serving_shared(ctx, prof, tp, count)
    ctx._served[local] = (prof, hit)
    return hit


def _serving_shared(ctx: Context, prof: ReplicaProfile, tp: int, count: int) -> tuple:
    """`_serving` through the cache the searches share."""
    key = (id(prof), count, ctx.peak_rps, ctx.concurrency, ctx.util, ctx.t_inf,
           ctx.agent.held_peak if ctx.agent else 0.0)
    entry = ctx.serving.get(key)
    if entry is not None and entry[0] is prof:  # the entry holds its profile: an id is never reused for it
        return entry[1]
    profile = prof
    replicas = count // tp
    prof = _held(ctx, prof, replicas)  # agent sessions waiting on tools
    violations = []
    batch, latency, op = 1, prof.e2e_1, None
    if prof.seq_mem < 1:
        violations.append(Violation("memory", prof.memory_ratio(1), {
            "need_gb": prof.need_gb(1) * tp, "limit_gb": prof.limit_gb * tp, "usable_gb": prof.usable_gb * tp,
            "reserve": prof.reserve, "weights_gb": prof.weights_gb * tp,
            "weights_limit_gb": prof.gpu.memory_gb * (1 - prof.reserve) * tp,
            "growth_gb": prof.growth_need_gb(1) * tp if prof.growth else None}))
    misses = prof.misses(1) if prof.seq_lat < 1 else []
    if misses:
        kind, value, target = max(misses, key=lambda m: m[1] / m[2])
        violations.append(Violation("latency", value / target, {"latency_s": value, "target_s": target,
                                                                "metric": kind}))
    concurrency = 0.0
    if not violations:
        needed = prof.replicas_needed(ctx.peak_rps, ctx.concurrency, ctx.util, ctx.t_inf)
        op = prof.point(replicas, ctx.peak_rps, ctx.concurrency, ctx.util, ctx.t_inf) if replicas >= needed > 0 \
            else None
        if op is None or not op.ok:
            top = min(prof.seq_mem, prof.seq_lat)
            batch, latency = top, prof.e2e(top)
            needed = max(needed, replicas + 1)
            violations.append(Violation("capacity", needed / replicas, {
                "replicas_needed": needed, "replicas": replicas, "gpus_needed": needed * tp, "count": count}))
            op = None
        else:
            batch, latency = op.batch, op.e2e_s
        t = ctx.t_inf if ctx.t_inf is not None else latency
        concurrency = max(ctx.concurrency, ctx.peak_rps * t / ctx.util)
    hit = (tuple(violations), batch, latency, concurrency, op)
    ctx.serving[key] = (profile, hit)
    return hit


def _held(ctx: Context, prof: ReplicaProfile, replicas: int) -> ReplicaProfile:
    """`with_held` of the agent sessions each of `replicas` replicas holds, one profile per (profile value
    key, held) in the shared serving cache: the counts whose replicas hold as many sessions share its
    operating points and replica counts (a pure function of the profile's values and `held`)."""
    held = held_per_replica(ctx.agent, replicas)
    if held <= 0:
        return prof
    key = ("held", ctx.profile_keys[(prof.gpu.id, prof.precision, prof.tp, prof.column)], held)
    hit = ctx.serving.get(key)
    if hit is None:
        hit = ctx.serving[key] = with_held(prof, held)
    return hit


def _tuning(ctx: Context, gpu: Gpu, count: int) -> tuple:
    """The fine-tuning part: (violations, team CHF per month, hours per run, memory per GPU, training
    CHF per month, the chosen `TrainingOption`). The run goes where it costs least (module docstring)."""
    if ctx._ft_state is None:
        return NO_TUNING
    local = ctx._tuned.get((gpu.id, count))  # the rest of the key is this search's
    if local is None:
        local = ctx._tuned[(gpu.id, count)] = _tuning_shared(ctx, gpu, count)
    return local


NO_TUNING = ((), 0.0, None, None, 0.0, None)


def _tuning_shared(ctx: Context, gpu: Gpu, count: int) -> tuple:
    """`_tuning` through the cache the searches share."""
    key = (ctx.ft_key, gpu.id, count)
    hit = ctx.ft_cache.get(key)
    if hit is not None:
        return hit
    planner = ctx.planner()
    idle = planner.idle(gpu, count)
    ext = planner.best_external()
    fitting = [o for o in (idle, ext) if o is not None and o.fits]
    violations = []
    if not fitting:
        ratio = max(1.0 + 1e-9, (idle.memory_per_gpu_gb or 0) / max(1e-9, gpu.memory_gb))
        violations.append(Violation("ft_plan", ratio, {"need_gb": idle.memory_per_gpu_gb, "reason": idle.reason,
                                                         "reason_de": idle.reason_de}))
        chosen = idle
    else:
        from expert.configurator.training_plan import KINDS
        chosen = min(fitting, key=lambda o: (round(o.total, 2), KINDS.index(o.kind)))
    months = ctx.months
    hit = (tuple(violations), chosen.team_horizon_chf / months, chosen.hours_per_run, idle.memory_per_gpu_gb,
           chosen.cost_horizon_chf / months, chosen)
    ctx.ft_cache[key] = hit
    return hit


def tuning_rank(ctx: Context, gpu: Gpu, count: int) -> tuple[bool, float, float]:
    """(fails, team CHF per month, training CHF per month) of `_tuning(ctx, gpu, count)`: what the cost
    order of `ordered.in_order` reads, without building the serving-idle option and its reasons where
    `_tuning` has not run yet.

    Why the same numbers: `_tuning_shared` chooses among the fitting ones of (idle, best external) the
    least (rounded total, kind order); idle's total is its cost (0.0) + its team time
    (`TrainingPlanner.idle_team`, the same value `idle` stores) and its kind comes first, so it is chosen
    when it fits and no fitting external option has a smaller rounded total. The chosen option gives
    team / months and cost / months; with none fitting, the (non-fitting) idle option, whose team time
    and cost are both 0.0. `tests/configurator/test_tuning_rank.py` compares it with `_tuning`."""
    if ctx._ft_state is None:
        return False, 0.0, 0.0
    full = ctx._tuned.get((gpu.id, count))
    if full is None:
        full = ctx.ft_cache.get((ctx.ft_key, gpu.id, count))
    if full is not None:
        return bool(full[0]), full[1], full[4]
    planner = ctx.planner()
    team = planner.idle_team(gpu, count)
    ext = planner.best_external()
    fitting_ext = ext is not None and ext.fits
    months = ctx.months
    if team is None:
        if not fitting_ext:
            return True, 0.0, 0.0
    elif not fitting_ext or round(team, 2) <= round(ext.total, 2):   # idle's total: 0.0 + team, exactly team
        return False, team / months, 0.0
    return False, ext.team_horizon_chf / months, ext.cost_horizon_chf / months


def check(ctx: Context, source: Source, prof: ReplicaProfile, tp: int, count: int) -> tuple:
    """The constraints of one candidate without building it: (violations, serving, tuning, GPU cost)."""
    serving = _serving(ctx, prof, tp, count)
    tuning = _tuning(ctx, source.gpu, count)
    cost = gpu_cost(source, count, ctx.months, ctx.a)
    limit = ctx.w.budget_limit_chf
    violations = serving[0] + tuning[0]
    spent = cost + tuning[4] * ctx.months
    if limit is not None and spent > limit:
        violations = violations + (Violation("budget", spent / limit, {"cost_chf": spent, "limit_chf": limit}),)
    return violations, serving, tuning, cost


def build(ctx: Context, source: Source, prof: ReplicaProfile, precision: str, tp: int, count: int,
          checked: tuple) -> Candidate:
    """The candidate from `check`'s result."""
    violations, (_, batch, latency, concurrency, op), (_, team_monthly, ft_hours, ft_mem, train, option), cost = checked
    prof = _held(ctx, prof, count // tp)
    need = prof.need_gb(batch)
    return Candidate(source, precision, tp, count, count // tp, batch, latency, cost, team_monthly,
                     cost + (team_monthly + train) * ctx.months, list(violations), need, prof.usable_gb,
                     prof.model_headroom(), ft_hours, ft_mem, concurrency, train, option,
                     op and op.ttft_s, op and op.tpot_s, op and op.rho, op=op)


def closeness(ctx: Context, source: Source, precision: str, tp: int, count: int, checked: tuple) -> tuple:
    """`Candidate.closeness` of `check`'s infeasible result without building the candidate (the same
    expressions as `build` and `Candidate.__post_init__`, so the same floats)."""
    violations, (_, _, latency, _, _), (_, team_monthly, _, _, train, _), cost = checked
    objective = cost + (team_monthly + train) * ctx.months
    return (len(violations), round(sum(math.log(max(v.ratio, 1.0)) for v in violations), 9),
            sort_key(objective, precision, latency, count, source, tp))


def evaluate(ctx: Context, source: Source, precision: str, tp: int, count: int) -> Candidate:
    """All constraints and the objective of one candidate."""
    prof = ctx.profile(source.gpu, precision, tp, source.column)
    return build(ctx, source, prof, precision, tp, count, check(ctx, source, prof, tp, count))
