"""Multi-agent workloads on shared infrastructure (000 U4, R3, T3): a homogeneous pool against a hybrid
one (inference GPUs + fine-tuning GPUs).

Each agent takes the workload's shared settings (tokens, latency target, peak ratio, utilisation,
hosting, deployment, budget, horizon, team rate) with its own model, request volume and fine-tuning.

Placement model (documented simplification):
- Per agent and GPU type, a *plan*: the precision and TP degree with the fewest GPUs for its load
  (replicas from 000 D3 as in the single search); ties → better quality, then less memory. A second
  plan per agent uses the smallest-memory precision (it packs better); the packing keeps the better.
- TP 1 replicas of *different* agents may share a GPU when their memory (each its own runtime
  overhead, at its operating batch) fits within what the serving engine holds of the GPU (`engines.budget`;
  models under 20B keep 000 M5's reserve on their weights, as in the single search) and their busy
  shares (load / capacity at the target utilisation) add up to ≤ 1; replicas of one agent go on
  different GPUs (fault tolerance, R3). First-fit decreasing by memory. TP > 1 replicas get whole
  GPUs. Interference between co-located models beyond the busy share is not modelled.
- Fine-tuning (issue 12) runs on the pool's training group: every GPU of a homogeneous pool and the
  fine-tuning GPUs of a "split" hybrid in their idle hours (`idle_hours_per_day`), the second group of
  a "train-only" hybrid around the clock. Each run is a job (`ft_job.layout_on`: memory with the states
  sharded over the group, hours); all runs of a year must fit half the group's training hours and each
  run half its period, and a serving group's nights must save more than the minimum after the serving
  capacity they hold (`idle_nights.py`). A run the group does not take is rented for its hours
  (`training_plan`), priced as its own line; team time (000 M2) only when opted in (`fine_tuning.team_waits`).
- Pools: homogeneous = one source (1-16 GPUs; SXM purchases in 4s); hybrid = two sources of
  different GPUs, both rented or both bought, in two variants: "split" (pure-inference agents on the
  inference GPUs; fine-tuned agents served *and* trained on the fine-tuning GPUs, R3's L40S + A100)
  and "train-only" (all inference on the first group, the second only trains).
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

from expert.catalog.loader import Catalog
from expert.configurator.explain import where_words
from expert.configurator.candidates import QUALITY_ORDER, Source, admissible_sources, precisions, tp_degrees
from expert.messages import LANGS, t
from expert.report.build import rounded
from expert.report.numbers import grouped
from expert.configurator.feasibility import Context
from expert.configurator.models import ConfiguredAlternative, ConfiguredChoice, SearchResult
from expert.configurator.objective import gpu_cost
from expert.configurator.pool_counts import PoolOption, _option, pool_options, ranked
from expert.inputs.pools import agent_workloads
from expert.sizing.constants import Assumptions
from expert.sizing.engines import device_memory_gb
from expert.sizing.memory import weights_gb
from expert.inputs.workload import Workload

@dataclass
class Plan:
    """How one agent runs on one GPU type."""

    precision: str
    tp: int
    replicas: int
    memory_gb: float      # per GPU of one replica at its operating batch
    share: float          # busy share of one replica (≤ 1)
    latency: float        # end-to-end (complete answer) at the operating point, s
    limit_gb: float
    ttft_s: float | None = None   # p95 first words at the operating point (queueing included)
    tpot_ms: float | None = None
    rate_rps: float | None = None  # the steady state the TPOT is for: arrival rate per replica at the peak,
    decoding: float | None = None  # and the sequences decoding then (issue 22: every TPOT names its regime)


def by_quality(p: Plan) -> tuple:
    """Plan order: fewest GPUs, then better quality, then less memory."""
    return p.tp * p.replicas, QUALITY_ORDER[p.precision], p.memory_gb


def by_memory(p: Plan) -> tuple:
    """Plan order that packs better: fewest GPUs, then less memory, then better quality."""
    return p.tp * p.replicas, p.memory_gb, QUALITY_ORDER[p.precision]


class PoolSearch:
    """Per-agent contexts (sharing one profile cache) of one multi-agent search, and its plans."""

    def __init__(self, w: Workload, catalog: Catalog, a: Assumptions):
        self.w, self.catalog, self.a = w, catalog, a
        self.ws = agent_workloads(w)
        caches: dict = {}
        models = [catalog.resolve_model(wi.model, wi.params_b) for wi in self.ws]
        self.ctxs = [Context(wi.at_native(m.native_precision), catalog, a, m, caches)
                     for wi, m in zip(self.ws, models)]
        self.tuned = tuple(i for i, wi in enumerate(self.ws) if wi.tuning.enabled)
        self.pure = tuple(i for i, wi in enumerate(self.ws) if not wi.tuning.enabled)

    def plans(self, i: int, source: Source) -> list[Plan]:
        """Best plans of agent i on this GPU type: (fewest GPUs, smallest memory); [] if none fits."""
        options = self._options(i, source)
        result = []
        if options:
            result.append(min(options, key=by_quality))
            small = min(options, key=by_memory)
            if small is not result[0]:
                result.append(small)
        return result

    def _options(self, i: int, source: Source) -> list[Plan]:
        """Agent i's plans on this GPU type that may be fewest-GPU ones, in (precision, TP) order.

        Both plan orders (`by_quality`, `by_memory`) rank by GPUs (TP × replicas ≥ TP) first, so once a
        plan needs g GPUs no plan of a TP degree above g can be first in either: TP degrees are sized
        in ascending order and those are left out. The list keeps the (precision, TP) order of the full
        one, so `min` picks the same plan among equals."""
        found: dict = {}
        fewest = math.inf
        precs = precisions(source.gpu, self.ctxs[i].w)
        degrees = tp_degrees(self.ctxs[i].model, 8, source)
        for tp in degrees:
            if tp > fewest:
                break
            for precision in precs:
                p = self.plan(i, source.gpu, source.column, precision, tp)
                if p is not None:
                    found[(precision, tp)] = p
                    fewest = min(fewest, p.tp * p.replicas)
        return [found[(precision, tp)] for precision in precs for tp in degrees if (precision, tp) in found]

    def plan(self, i: int, gpu, column: str, precision: str, tp: int, replicas: int | None = None) -> Plan | None:
        """Agent i on `gpu` at this precision and TP: `replicas` replicas (default: the fewest that serve
        its peak within the targets) at their operating point; None when none serves (default) or one
        replica cannot hold a sequence. Given replicas that cannot carry the peak are each full and busy."""
        ctx = self.ctxs[i]
        if weights_gb(ctx.model, precision, self.a) / tp > device_memory_gb(gpu, self.a):
            return None  # no free memory, so `seq_mem` is 0 (`ordered._needed`): not sized
        prof = ctx.profile(gpu, precision, tp, column)
        r = replicas or prof.replicas_needed(ctx.peak_rps, ctx.concurrency, ctx.util, ctx.t_inf)
        if r < 1 or prof.seq_mem < 1:
            return None
        op = prof.point(r, ctx.peak_rps, ctx.concurrency, ctx.util, ctx.t_inf)
        if op is None:
            return Plan(precision, tp, r, prof.need_gb(prof.seq_mem), 1.0, math.inf, prof.limit_gb)
        top = min(prof.seq_mem, prof.seq_lat)
        t = ctx.t_inf if ctx.t_inf is not None else prof.e2e(top)
        need = max(ctx.concurrency, ctx.peak_rps * t / ctx.util)
        # busy share: the larger of the slot share (D3) and the token-level work share
        share = min(1.0, max(need / (r * top), op.rho / ctx.util)) if top else 1.0
        return Plan(precision, tp, r, prof.need_gb(op.batch), share, op.e2e_s, prof.limit_gb, op.ttft_s,
                    op.tpot_s * 1000, op.rate_rps, op.decoding)

    def bins(self, agents: tuple[int, ...], source: Source) -> tuple[int, dict] | None:
        """GPUs needed to serve `agents` on this GPU type, and the plan per agent; None if one cannot run."""
        if not agents:
            return 0, {}
        per_agent = [self.plans(i, source) for i in agents]
        if any(not p for p in per_agent):
            return None
        best = None
        for policy in (0, 1):
            chosen = {i: (p[policy] if len(p) > policy else p[0]) for i, p in zip(agents, per_agent)}
            n = _pack(chosen)
            if best is None or n < best[0]:
                best = (n, chosen)
        return best

    def ft_team(self, agents, source: Source, k: int, around_the_clock: bool = False) -> tuple:
        """(fits, team CHF per month, rented-training CHF per month, problems) for the runs of `agents`
        on k GPUs of this kind (module docstring)."""
        if not agents:
            return True, 0.0, 0.0, []
        return self._ft_team(agents, source, k, around_the_clock)

    def _ft_team(self, agents, source: Source, k: int, around_the_clock: bool) -> tuple:
        from expert.configurator.pool_runs import pool_runs
        months = self.w.horizon_months
        runs = pool_runs(self, agents, source, k, around_the_clock)
        problems = [r.problem for r in runs if r.problem]
        rented = sum(r.rented_horizon_chf for r in runs) / months
        team = sum(r.waits_h_per_month for r in runs if self.ctxs[r.agent].tuning.team_waits) \
            * self.w.team_hourly_rate_chf
        yearly = sum(r.hours * self.ctxs[r.agent].tuning.runs_per_year for r in runs if r.where in ("idle", "around"))
        if yearly > 0.5 * 365 * (24.0 if around_the_clock else max(
                (self.ctxs[i].tuning.idle_hours_per_day for i in agents), default=0)):
            problems.append(f"all runs take {yearly:.0f} h a year, over half the group's training hours")
        return not problems, team, rented, problems


def _pack(chosen: dict[int, Plan]) -> int:
    """First-fit decreasing of TP-1 replicas by memory; TP > 1 replicas take whole GPUs."""
    gpus = 0
    items = []
    for i, p in chosen.items():
        if p.tp > 1:
            gpus += p.tp * p.replicas
        else:
            items += [(p.memory_gb, p.share, i, p.limit_gb)] * p.replicas
    bins: list[list] = []  # [memory, share, agents]
    for mem, share, i, limit in sorted(items, key=lambda x: (-x[0], x[2])):
        for b in bins:
            if i not in b[2] and b[0] + mem <= limit + 1e-9 and b[1] + share <= 1 + 1e-9:
                b[0] += mem
                b[1] += share
                b[2].add(i)
                break
        else:
            bins.append([mem, share, {i}])
    return gpus + len(bins)


def _group_choice(ps: PoolSearch, opt: PoolOption, g, cls=ConfiguredChoice, **extra):
    """The pool as a report choice: GPU, count and plans of its first group (`g`), costs over the WHOLE
    pool (every group, rented runs, team time), so `tco_chf` and `why_not` price the same thing; TP is
    the group's common degree (1 when its agents differ; each agent's TP is in `pool`)."""
    from expert.configurator.candidates import interconnect_label
    s, n, role, agents, plans = g
    months = ps.w.horizon_months
    plan_list = [plans[i] for i in agents]
    precision = ",".join(sorted({p.precision for p in plan_list})) or "bf16"
    tps = {p.tp for p in plan_list}
    tp = tps.pop() if len(tps) == 1 else 1
    latency = max((p.latency for p in plan_list), default=None)
    ttft = max((p.ttft_s for p in plan_list if p.ttft_s is not None), default=None)
    slowest = max((p for p in plan_list if p.tpot_ms is not None), key=lambda p: p.tpot_ms, default=None)
    tpot = None if slowest is None else slowest.tpot_ms
    regime = {} if slowest is None or slowest.rate_rps is None else {   # the slowest agent's steady state
        "tpot_rate_rps": rounded(slowest.rate_rps), "tpot_batch": round(slowest.decoding, 2)}
    tco = opt.gpu_cost + opt.train_monthly * months
    return cls(gpu=s.gpu.id, count=n, source=s.kind, package=s.package,
               offer=s.key if s.kind != "package" else None, provider=s.provider, country=s.country,
               precision=precision, interconnect=interconnect_label(s.gpu, tp, s.column), tensor_parallel=tp,
               replicas=sum(p.replicas for p in plan_list) or 0,
               monthly_cost_chf=round(tco / months, 2), tco_chf=round(tco, 2),
               horizon_months=months, fits=True, latency_p95_s=None if latency is None else round(latency, 4),
               ttft_p95_s=None if ttft is None else round(ttft, 4), tpot_ms=None if tpot is None else round(tpot, 3),
               gpu_cost_chf=round(opt.gpu_cost, 2), team_cost_chf=round(opt.team_monthly * months, 2),
               training_cost_chf=round(opt.train_monthly * months, 2), objective_chf=round(opt.objective, 2),
               pool=describe(opt), t1_cost_chf=round(gpu_cost(s, n, months, ps.a), 2), condition=s.condition,
               **regime, **extra)


def describe(opt: PoolOption, lang: str | None = None) -> str:
    """'2× l40s (hikube-l40s) + 2× a100-80gb-pcie (hikube-a100-80gb)' for the JSON; with `lang`, as a
    sentence names them: '2× l40s (Hikube) + 2× a100-80gb-pcie (Hikube)' (`explain.where_words`)."""
    return " + ".join(f"{n}× {s.gpu.id} ({s.key if lang is None else where_words(s, lang)})"
                      for s, n, *_ in opt.groups)


def pool_kind(kind: str, lang: str) -> str:
    """A pool's kind in `lang` words (`homogeneous` → `homogener`)."""
    return t(f"configurator.pool.kind.{kind}", lang)


def pool_summary(ps: PoolSearch, opt: PoolOption) -> dict:
    """A JSON-friendly description of a pool option."""
    from expert.configurator.pool_runs import option_runs, run_dict
    from expert.sizing.finetune import checkpoint_gb
    names = [wi.name for wi in ps.ws]
    months = ps.w.horizon_months
    return {"kind": opt.kind, "description": describe(opt),
            "tco_chf": round(opt.gpu_cost + opt.train_monthly * months, 2),
            "gpu_cost_chf": round(opt.gpu_cost, 2), "training_cost_chf": round(opt.train_monthly * months, 2),
            "team_cost_chf": round(opt.team_monthly * months, 2), "objective_chf": round(opt.objective, 2),
            "gpus": sum(n for _, n, *_ in opt.groups),
            "runs": [run_dict(r, names[r.agent], checkpoint_gb(ps.ctxs[r.agent].model, ps.ctxs[r.agent].tuning.method,
                                                               ps.a)[1]) for r in option_runs(ps, opt)],
            "groups": [{"gpu": s.gpu.id, "source": s.key, "count": n, "role": role,
                        "agents": {names[i]: {"precision": plans[i].precision, "tp": plans[i].tp,
                                              "replicas": plans[i].replicas} for i in agents}}
                       for s, n, role, agents, plans in opt.groups]}


def evaluate_pool(workload, catalog: Catalog, groups: list[dict], variant: str = "hybrid-split",
                  assumptions: Assumptions | None = None, search: PoolSearch | None = None) -> dict:
    """Cost and feasibility of a given pool, e.g. T3's 2× L40S + 2× A100 at the Swiss provider:
    groups = [{"offer": "hikube-l40s", "count": 2}, {"offer": "hikube-a100-80gb", "count": 2}]
    (one group = homogeneous; two = hybrid, `variant` split or train-only). `search`: a `PoolSearch` of
    this workload, catalog and assumptions whose plans to reuse (they depend on nothing else)."""
    from expert.configurator.enumeration import as_workload, catalog_sources, default_assumptions
    w = as_workload(workload)
    a = assumptions or default_assumptions(catalog)
    ps = search if search is not None else PoolSearch(w, catalog, a)
    by_key = {s.key: s for s in catalog_sources(catalog)}
    srcs = [(by_key[g["offer"]], g["count"]) for g in groups]
    every = tuple(range(len(ps.ws)))
    problems = []
    if len(srcs) == 1:
        (s, n), = srcs
        packed = ps.bins(every, s)
        ok, team, train, p = ps.ft_team(ps.tuned, s, n)
        problems += p
        if packed is None or packed[0] > n:
            problems.append(f"inference needs {'more' if packed is None else packed[0]} GPUs, has {n}")
        plans = packed[1] if packed else {}
        opt = _option(ps, "homogeneous", [(s, n, "serve+train", every if packed else (), plans)], team, train)
    else:
        (sg, ng), (sf, nf) = srcs
        inf_agents, ft_serve = (tuple(ps.pure), tuple(ps.tuned)) if variant == "hybrid-split" else (every, ())
        pg, pf = ps.bins(inf_agents, sg), ps.bins(ft_serve, sf)
        ok, team, train, p = ps.ft_team(ps.tuned, sf, nf, around_the_clock=variant != "hybrid-split")
        problems += p
        for packed, n, what in ((pg, ng, "inference"), (pf, nf, "fine-tuning group")):
            if packed is None or packed[0] > n:
                problems.append(f"{what} needs {'more' if packed is None else packed[0]} GPUs, has {n}")
        opt = _option(ps, variant, [(sg, ng, "inference", inf_agents if pg else (), pg[1] if pg else {}),
                                    (sf, nf, "serve+train", ft_serve if pf else (), pf[1] if pf else {})], team, train)
    return {**pool_summary(ps, opt), "fits": not problems, "problems": problems}


def search_agents(w: Workload, catalog: Catalog, a: Assumptions) -> SearchResult:
    """The cheapest pool for a multi-agent workload, with the best homogeneous and hybrid designs."""
    from expert.configurator.enumeration import catalog_sources
    ps = PoolSearch(w, catalog, a)
    sources = admissible_sources(catalog_sources(catalog), w)
    options = ranked(ps, sources)   # `sorted(pool_options(…), key=key)`, an option built when read
    result = SearchResult(evaluated=len(options), feasible=len(options))
    if not options:
        result.nothing_fits = {lang: t("configurator.pool.nothing_fits", lang) for lang in LANGS}
        result.tightest_constraint = "pool"
        return result
    best = options[0]
    result.recommendation = _group_choice(ps, best, best.groups[0])
    result.pool = pool_summary(ps, best)
    homo, hyb = options.first(homogeneous=True), options.first(homogeneous=False)
    if homo is not None and hyb is not None:
        diff = homo.objective - hyb.objective
        result.pool_comparison = {
            "homogeneous": pool_summary(ps, homo), "hybrid": pool_summary(ps, hyb),
            "text": {lang: t("configurator.pool.compare", lang, homo=describe(homo, lang), homo_chf=grouped(homo.objective),
                             hybrid=describe(hyb, lang), hybrid_chf=grouped(hyb.objective), months=w.horizon_months,
                             saver=t("configurator.pool." + ("hybrid_saves" if diff > 0 else "homogeneous_saves"), lang),
                             diff_chf=grouped(abs(diff))) for lang in LANGS}}
    from expert.configurator.pool_document import document_pools
    doc = document_pools(ps, sources, best, describe, evaluate_pool)
    if doc is not None:
        result.pool_comparison = {**(result.pool_comparison or {}), "document": doc}
    from expert.configurator.pool_view import pool_lines
    result.pool_lines = pool_lines(ps, best, result.pool_comparison)
    seen, alts = {best.key}, []
    for o in itertools.islice(options, 1, None):
        sig = (o.kind, tuple(s.gpu.id for s, *_ in o.groups))
        if sig in seen:
            continue
        seen.add(sig)
        diff = o.objective - best.objective
        if round(diff) > 0:
            why = {lang: t("configurator.pool.costlier", lang, kind=pool_kind(o.kind, lang), pool=describe(o, lang), diff_chf=grouped(diff),
                           months=w.horizon_months) for lang in LANGS}
        else:
            why = {lang: t("configurator.pool.tie", lang, kind=pool_kind(o.kind, lang), pool=describe(o, lang)) for lang in LANGS}
        alts.append(_group_choice(ps, o, o.groups[0], ConfiguredAlternative, why_not=why))
        if len(alts) >= 8:
            break
    result.alternatives = alts
    return result

