"""The search: enumerate every admissible candidate, evaluate it, keep the optimum, the best of each
(gpu, source) group, the Pareto front, and — when nothing fits — the closest candidate.

Enumeration: for each admissible source (cloud offer, 004 package, purchase), each precision the GPU
supports, each count the source allows and each valid TP degree of that count. Each distinct
(GPU, precision, TP, column) is sized once (`profile.py`, shared by every source and count).
Pruning (exact): without fine-tuning the objective grows strictly with the count, so for one
(source, precision, TP) no count above the first feasible one can win and the rest are skipped; with
fine-tuning more GPUs shorten the runs (less team time), so every count is evaluated.
`tests/configurator/test_exactness.py` checks the optimum against a plain brute force.

The entry point `search()` (in `configure.py`, above this module) adds the documents' view, the
sensitivity and multi-agent pools; those modules use the helpers here, so nothing here imports them.
"""

from __future__ import annotations

from expert.catalog.loader import Catalog
from expert.configurator import explain
from expert.configurator.agent_demand import is_closed_loop
from expert.configurator.candidates import (QUALITY_NOTE, Source, admissible_sources, catalog_sources,
                                            interconnect_label, precisions)
from expert.configurator.availability import domain_names
from expert.configurator.closed_loop import settle
from expert.configurator.feasibility import Candidate, Context, build, check, closeness, evaluate, ha_layout
from expert.configurator.ordered import best_only, enumerate_ordered
from expert.configurator.outcome import Outcome
from expert.configurator.models import ConfiguredAlternative, ConfiguredChoice
from expert.configurator.objective import cost_line
from expert.facts.input_facts import gpu_family
from expert.messages import t as msg
from expert.report.build import rounded
from expert.sizing.kernels import quantised_kernel
from expert.sizing.constants import Assumptions
from expert.inputs.workload import Workload

MAX_ALTERNATIVES = 8


def default_assumptions(catalog: Catalog) -> Assumptions:
    """The sizing defaults with the cost constants of the catalog's tariffs (kept with the catalog)."""
    return Assumptions.of_catalog(catalog)


def as_workload(workload) -> Workload:
    """A `Workload` as is, or validated from its dict form."""
    return workload if isinstance(workload, Workload) else Workload.model_validate(workload)


def enumerate_candidates(ctx: Context, sources: list[Source]) -> Outcome:
    """Evaluate every admissible candidate (module docstring). An infeasible candidate is only built
    while its (gpu, source) group has no feasible one: otherwise it can be neither the group's entry
    among the alternatives nor the closest candidate of a search where nothing fits."""
    out = Outcome()
    prune = not ctx.tuned and not ctx.w.high_availability  # highly available: more GPUs may cost less
    profiles: dict = {}
    for source in sources:
        gpu = source.gpu
        group = source.group
        for precision in precisions(gpu, ctx.w):
            done_tp: set[int] = set()
            for count in source.counts:
                for tp in ctx.tp_degrees(count, source):
                    if tp in done_tp:
                        continue
                    pk = (gpu.id, precision, tp, source.column)
                    prof = profiles.get(pk)
                    if prof is None:
                        prof = profiles[pk] = ctx.profile(gpu, precision, tp, source.column)
                    checked = check(ctx, source, prof, tp, count)
                    out.evaluated += 1
                    if checked[0]:
                        if group in out.group_best:
                            continue
                        k = closeness(ctx, source, precision, tp, count, checked)
                        g = out.group_closest.get(group)
                        to_group = g is None or k < g.closeness
                        if not (to_group or out.closest is None or k < out.closest.closeness):
                            continue                      # neither entry would take it: not built
                        c = build(ctx, source, prof, precision, tp, count, checked)
                        if to_group:
                            out.group_closest[group] = c
                        if out.closest is None or k < out.closest.closeness:
                            out.closest = c
                        continue
                    c = build(ctx, source, prof, precision, tp, count, checked)
                    out.feasible.append(c)
                    if prune:
                        done_tp.add(tp)
                    k = c.key
                    if out.best is None or k < out.best.key:
                        out.best = c
                    g = out.group_best.get(group)
                    if g is None or k < g.key:
                        out.group_best[group] = c
    return out


def to_choice(c: Candidate, ctx: Context, cls=ConfiguredChoice, **extra):
    """A candidate as the report's choice shape (rounded for stable output)."""
    s, months = c.source, ctx.months
    owned_extra, country = {}, s.country
    gpus = ha_layout(ctx, ctx.profile(s.gpu, c.precision, c.tp, s.column), c.tp, c.count)[1] \
        if ctx.w.high_availability and c.feasible else None
    if s.kind != "cloud":                      # bought: a complete system at the organisation's own site
        country = ctx.w.site_country
        parts = gpus or [c.count]               # highly available: one system per failure domain
        lines = [cost_line(s, g, months, ctx.a) for g in parts]
        systems = [s.system(g) for g in parts]
        chassis = " + ".join(x[2] for x in systems if x[2])
        owned_extra = {"upfront_chf": round(sum(x.upfront for x in lines), 2),
                       "resale_chf": round(sum(x.resale for x in lines), 2),
                       "chassis": chassis or None, "system_power_w": round(sum(x[1] for x in systems), 1)}
    spent = c.gpu_cost + c.train_monthly * months  # money: GPU TCO + fine-tuning GPUs (team time apart)
    note = None
    if c.precision in QUALITY_NOTE:
        note = {lang: msg(f"configurator.quality.{c.precision}", lang) for lang in ("en", "de")}
    return cls(
        gpu=s.gpu.id, count=c.count, source=s.kind, package=s.package,
        offer=s.key if s.kind != "package" else None, provider=s.provider,
        precision=c.precision, interconnect=interconnect_label(s.gpu, c.tp, s.column),
        country=country,
        tensor_parallel=c.tp, replicas=c.replicas,
        attention=ctx.profile(s.gpu, c.precision, c.tp, s.column).attention if ctx.model.kv_lora_rank else None,
        failure_domains=domain_names(s, gpus) if gpus else None, monthly_cost_chf=round(spent / months, 2),
        tco_chf=round(spent, 2), horizon_months=months, fits=c.feasible,
        headroom=round(c.headroom, 4), latency_p95_s=round(c.latency, 4),
        memory_per_gpu_gb=round(c.memory_per_gpu, 3), usable_per_gpu_gb=round(c.usable_per_gpu, 3),
        gpu_cost_chf=round(c.gpu_cost, 2), team_cost_chf=round(c.team_monthly * months, 2),
        condition=s.condition, batch_per_replica=c.batch, concurrent_inferences=round(c.concurrency, 3),
        finetune_hours_per_run=None if c.ft_hours is None else round(c.ft_hours, 3),
        finetune_memory_per_gpu_gb=None if c.ft_memory is None else round(c.ft_memory, 3),
        training_cost_chf=round(c.train_monthly * months, 2), objective_chf=round(c.objective, 2),
        training_source=getattr(c.ft_option, "kind", None), t1_cost_chf=round(c.gpu_cost, 2), quality_note=note,
        ttft_p95_s=None if c.ttft is None else round(c.ttft, 4),
        tpot_ms=None if c.tpot is None else round(c.tpot * 1000, 3),
        tpot_rate_rps=None if c.op is None else rounded(c.op.rate_rps),
        tpot_batch=None if c.op is None else round(c.op.decoding, 2),
        rate_unit="steps/s" if ctx.agent is not None else None,  # the per-step equivalent's rate (agent_demand)
        kernel=quantised_kernel(s.gpu, c.precision.split(",")[0], ctx.w.engine),
        kv_cache_precision=ctx.w.kv_precision_at(c.precision.split(",")[0]), **{**extra, **owned_extra})


def alternatives(out: Outcome, ctx: Context) -> list[ConfiguredAlternative]:
    """Best candidate of each (gpu, source) group other than the recommendation's, feasible ones
    first (by objective), then the closest infeasible ones (by closeness)."""
    best = out.best
    skip = best.source.group if best else None
    feas = sorted((c for g, c in out.group_best.items() if g != skip), key=lambda c: c.key)
    infeas = [] if len(feas) >= MAX_ALTERNATIVES else sorted(  # enough feasible ones: no closest shown
        (c for g, c in out.group_closest.items() if g != skip and g not in out.group_best),
        key=lambda c: c.closeness)
    picked = (feas + infeas)[:MAX_ALTERNATIVES]
    return [_alternative(c, best, ctx) for c in picked]


NO_ANSWER = dict.fromkeys(("latency_p95_s", "ttft_p95_s", "tpot_ms", "tpot_rate_rps", "tpot_batch"))
"""The answer-time fields an alternative that cannot hold the model leaves empty (QA 44 D12)."""


def _alternative(c: Candidate, best: Candidate | None, ctx: Context) -> ConfiguredAlternative:
    """One alternative with its `why_not`; one that does not fit in memory has no answer times to show."""
    alt = to_choice(c, ctx, ConfiguredAlternative, why_not=explain.why_not(c, best, ctx.months), feasible=c.feasible)
    return alt.model_copy(update=NO_ANSWER) if any(v.kind == "memory" for v in c.violations) else alt


def context(w: Workload, catalog: Catalog, a: Assumptions, shared: dict, routed_replicas: int | None = None,
            task_rate: float | None = None, share: float | None = None) -> tuple[Context, list[Source]]:
    """The context of a single-model workload's search and its admissible sources (an agent loop's
    offload share chosen by `_offload_where_it_pays`, which `Context.offload_searched` records, unless
    `share` states it; a closed loop's task rate `task_rate` (its upper bound where None) and a loop
    without affinity's hit rate at `routed_replicas`, `agent_demand.demand`)."""
    model = catalog.resolve_model(w.model, w.params_b)
    w = w.at_native(model.native_precision)  # gpt-oss: MXFP4 unless a precision is stated
    agent, searched = None, False
    if w.agent is not None:  # an agent loop: size its per-step equivalent (agent_demand.py)
        w, agent = _loop_view(w, model, routed_replicas, task_rate)
        if searches_shares(agent):
            agent, searched = (_offload_where_it_pays(w, catalog, a, shared, model, agent) if share is None
                               else agent.offloading(share)), True
    ctx = _context(w, catalog, a, shared, model, agent)
    ctx.offload_searched = searched
    return ctx, admissible_sources(catalog_sources(catalog), w)


def _loop_view(w: Workload, model, routed_replicas: int | None = None,
               task_rate: float | None = None) -> tuple[Workload, object]:
    """(per-step equivalent workload, demand) of the agent loop `w` (`agent_demand.py`)."""
    from expert.configurator.agent_demand import demand, equivalent
    agent = demand(w, model, routed_replicas, task_rate)
    return equivalent(w, agent), agent


def _context(w: Workload, catalog: Catalog, a: Assumptions, shared: dict, model, agent) -> Context:
    return Context(w, catalog, a, model, shared, agent)


def searches_shares(agent) -> bool:
    """Whether an agent loop's offload share is searched (`_offload_where_it_pays`): `cpu` with session
    affinity and sessions waiting on tools."""
    return agent.kv_during_tools == "cpu" and agent.affinity and agent.idle_peak > 0


def run(w: Workload, catalog: Catalog, a: Assumptions, shared: dict | None = None,
        optimum_only: bool = False, detail: bool = True,
        routed_replicas: int | None = None) -> tuple[Context, Outcome, list]:
    """One enumeration for a single-model workload; `shared` carries caches between searches.
    With `optimum_only` only `Outcome.best` is filled (`best_only`); without `detail` the cost-ordered
    enumeration fills all but the full `feasible` list (`ordered.enumerate_ordered`). A highly available
    workload always takes the full enumeration without pruning (`availability.py`). An agent loop without
    affinity is sized at the hit rate of `routed_replicas` replicas in turn (`_routed`)."""
    shared = {} if shared is None else shared

    def searched(task_rate: float | None = None, share: float | None = None) -> tuple[Context, Outcome, list]:
        ctx, sources = context(w, catalog, a, shared, routed_replicas, task_rate, share)
        if w.high_availability:  # the domains' price is no function of (source, count) alone: visit all
            return ctx, enumerate_candidates(ctx, sources), sources
        if optimum_only:
            out = Outcome()
            out.best = optimum(ctx, sources)
            return ctx, out, sources
        return ctx, (enumerate_candidates if detail else enumerate_ordered)(ctx, sources), sources

    def step_of(c: Candidate, task_rate: float, share: float) -> float | None:
        """One candidate's step at a task rate; None where it has no operating point (it does not serve
        the rate: beyond it the search states the step at its largest batch, which is shorter)."""
        at = evaluate(context(w, catalog, a, shared, routed_replicas, task_rate, share)[0],
                      c.source, c.precision, c.tp, c.count)
        return at.latency if at.op is not None else None

    found = searched()
    found = settle(found, searched, step_of) if is_closed_loop(w) else found
    if routed_replicas is not None:
        return found
    found = _single_replica_affine(w, found, lambda v: run(v, catalog, a, shared, optimum_only, detail))
    return _routed(found, lambda r: run(w, catalog, a, shared, optimum_only, detail, r))


def optimum(ctx: Context, sources: list[Source]) -> Candidate | None:
    """The optimum alone, for the main search and every sub-search (sensitivity, offload share, quantised
    options): a highly available workload visits every candidate (the domains' price is no function of
    (source, count) alone, `availability.py`), so no sub-search returns a pick the per-candidate check
    of failure domains would reject or undercut; otherwise the cost-ordered `best_only`."""
    if ctx.w.high_availability:
        return enumerate_candidates(ctx, sources).best
    return best_only(ctx, sources)


def _single_replica_affine(w: Workload, found: tuple, rerun) -> tuple:
    """Session affinity as a consequence (issue 31 item 4): a loop without affinity routing is sized as if
    no step found its cache, but on a single replica every step reaches the engine that holds it. The
    search with affinity is taken where its pick is one replica and beats the spread pick."""
    spec = w.agent
    if spec is None or spec.session_affinity or spec.kv_during_tools == "drop":
        return found
    affine = rerun(w.model_copy(update={"agent": spec.model_copy(update={"session_affinity": True})}))
    best, spread = affine[1].best, found[1].best
    if best is not None and best.replicas == 1 and (spread is None or best.key < spread.key):
        return affine
    return found


ROUTED_ROUNDS = 4  # own bound: the loops tried here settle in 2-3 rounds


def _routed(found: tuple, rerun) -> tuple:
    """Round-robin hits as the search's own (issue 31 leftover 1): a loop without affinity, first sized as
    if no step found its cache, is sized again at the hit rate of its pick's R replicas in turn (1/R,
    `agent_loop.routed_share`), so that the search and the report (`agent_report.figures`) use one hit
    rate. A rerun's pick is taken when it holds at most the R replicas it was sized at (it hits at least
    1/R of the time: the sizing is never optimistic) and costs no more than the pick before; the next
    round sizes at the replicas of the rerun's pick, until a count repeats or the rounds end."""
    d, best = found[0].agent, found[1].best
    if d is None or d.affinity or d.kv_during_tools == "drop" or best is None:
        return found
    replicas, tried = best.replicas, set()
    for _ in range(ROUTED_ROUNDS):
        if replicas in tried:
            break
        tried.add(replicas)
        again = rerun(replicas)
        pick = again[1].best
        if pick is None:
            break
        if pick.replicas <= replicas and pick.key <= found[1].best.key:
            found = again
        replicas = pick.replicas
    return found


def _pick(c: Candidate) -> tuple:
    return c.source.key, c.count, c.precision, c.tp


OFFLOAD_SHARES = (1.0, 0.75, 0.5, 0.25, 0.0)  # own grid: how much of the idle KV `cpu` may move


def _offload_where_it_pays(w, catalog, a, shared, model, agent):
    """`kv_during_tools: cpu` is the operator's option to offload, not an obligation: the share of
    tool-waiting sessions offloaded (`OFFLOAD_SHARES`) whose optimum costs least, ties to the larger
    share (the copy-back costs TTFT, the residency costs GPU memory; either may decide); a later share
    must cost less by more than 0.5 CHF. Returns the share's demand (`agent` when no share has an
    optimum)."""
    best, chosen = None, agent
    sources = admissible_sources(catalog_sources(catalog), w)
    for share in OFFLOAD_SHARES:
        d = agent.offloading(share)
        c = optimum(_context(w, catalog, a, shared, model, d), sources)
        if c is not None and (best is None or c.objective < best.objective - 0.5):
            best, chosen = c, d
    return chosen


def family_best(out: Outcome, family: str) -> Candidate | None:
    """Cheapest feasible candidate of a GPU family (for the document comparison)."""
    best = None
    for c in out.group_best.values():
        if gpu_family(c.source.gpu) == family and (best is None or c.key < best.key):
            best = c
    return best
