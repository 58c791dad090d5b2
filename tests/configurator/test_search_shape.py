"""The search's shared work (issue 21) gives exactly what the plain computation gives: the lazily priced
(source, count) pairs, the training planner's shared layouts, the memoised U2 facts and the
document-pick rule base built from the main base's compiled rules."""

from __future__ import annotations

import random
import threading

import pytest

from expert.catalog import load_catalog
from expert.configurator.candidates import admissible_sources, catalog_sources
from expert.configurator.objective import SOURCE_ORDER, gpu_cost
from expert.configurator.pairs import PricedPairs, pairs
from expert.configurator.enumeration import default_assumptions
from expert.inputs.workload import Workload

CAT = load_catalog()
A = default_assumptions(CAT)
SOURCES = catalog_sources(CAT)


def eager(sources, months):
    """The pairs as the search listed them before: all priced, sorted, then split by group."""
    out = []
    for s in sources:
        for count in s.counts:
            cost = gpu_cost(s, count, months, A)
            out.append((round(cost, 2), SOURCE_ORDER[s.kind], s.order, count, s, cost))
    out.sort(key=lambda p: p[:4])
    groups: dict = {}
    for p in out:
        groups.setdefault(p[4].group, []).append(p)
    return out, groups


@pytest.mark.parametrize("months", [1, 6, 12, 18, 36, 60, 120])
def test_priced_pairs_equal_the_sorted_list(months):
    rng = random.Random(months)
    for sources in (SOURCES, rng.sample(SOURCES, len(SOURCES) // 3), SOURCES[:1], []):
        full, groups = eager(sources, months)
        lazy = pairs({}, sources, months, A)
        lazy_groups = lazy.by_group()
        assert list(lazy) == full
        assert list(lazy) == full                                   # replayed from the kept entries
        assert list(lazy_groups) == list(groups)                    # groups in the order of their cheapest pair
        assert {g: list(p) for g, p in lazy_groups.items()} == groups


def test_priced_pairs_read_in_turns_and_from_threads():
    full, _ = eager(SOURCES, 36)
    lazy = PricedPairs(SOURCES, 36, A)
    first, second = iter(lazy), iter(lazy)
    taken = [next(first) for _ in range(5)] + [next(second) for _ in range(9)]
    assert taken == full[:5] + full[:9]
    assert list(first) == full[5:] and list(second) == full[9:]
    lazy = PricedPairs(SOURCES, 24, A)
    results: list = []
    threads = [threading.Thread(target=lambda: results.append(list(lazy))) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == [eager(SOURCES, 24)[0]] * 4


def test_pairs_are_kept_per_sources_and_horizon():
    memo: dict = {}
    w = Workload.model_validate({"model": "llama-3.1-8b", "requests_per_day": 1000, "hosting": "ch"})
    some = admissible_sources(SOURCES, w)
    assert pairs(memo, some, 36, A) is pairs(memo, list(some), 36, A)
    assert pairs(memo, some, 12, A) is not pairs(memo, some, 36, A)


def planner_of(wd: dict, jobs=None):
    from expert.configurator.training_plan import TrainingPlanner
    w = Workload.model_validate(wd)
    model = CAT.resolve_model(w.model, w.params_b)
    return TrainingPlanner(w, model, w.tuning, CAT, A, SOURCES, w.tuning.dataset_tokens or 100e6, jobs)


def test_planners_sharing_layouts_plan_as_fresh_ones():
    """Planners of the sensitivity's variations (horizon, hosting, budget, frequency) share one `jobs`
    memo; each plans every option exactly as a planner of its own."""
    rng = random.Random(5)
    gpus = [CAT.gpus[g] for g in ("a100-80gb-sxm", "h100-sxm", "l40s")]
    for _ in range(6):
        base = {"model": rng.choice(["llama-3.1-8b", "llama-2-13b", "llama-3.1-70b"]), "requests_per_day": 5000,
                "fine_tuning": {"frequency": rng.choice(["weekly", "monthly", "quarterly"]),
                                "method": rng.choice(["lora", "qlora", "full"]), "team_waits": True,
                                "dataset_tokens": rng.choice([5_000_000, 50_000_000, 415_000_000])}}
        jobs: dict = {}
        for upd in ({}, {"horizon_months": 12}, {"hosting": "ch"}, {"budget": "capex", "horizon_months": 60},
                    {"fine_tuning": {**base["fine_tuning"], "frequency": "yearly"}}):
            shared, fresh = planner_of({**base, **upd}, jobs), planner_of({**base, **upd})
            assert shared.external() == fresh.external()
            for gpu in gpus:
                for count in (1, 2, 8, 16):
                    assert shared.options_for(gpu, count) == fresh.options_for(gpu, count)
        assert jobs                                         # the memo was used


def test_u2_facts_memo_equals_the_plain_computation():
    from expert.configurator.document import _u2_facts, u2_facts
    for wd in ({"model": "llama-2-13b", "requests_per_day": 100, "fine_tuning": "quarterly"},
               {"model": "codellama-34b", "requests_per_day": 100, "team_hourly_rate_chf": 150,
                "fine_tuning": {"frequency": "monthly", "method": "full", "dataset_tokens": 40_000_000}},
               {"params_b": 20, "requests_per_day": 100, "fine_tuning": "weekly"}):
        w = Workload.model_validate(wd)
        model = CAT.resolve_model(w.model, w.params_b)
        first, again = u2_facts(w, CAT, A, model), u2_facts(w, CAT, A, model)
        assert first == again == _u2_facts(w, w.most_frequent_tuning, CAT, A, model) and first
        first[0]["chf_month"] = -1.0                         # a caller's change stays its own
        assert u2_facts(w, CAT, A, model) == again


def test_the_pick_rule_base_equals_its_own_compilation():
    from expert.configurator.document import PICK_PACK, _pick_rules
    from expert.engine.compiler import RuleBase
    from expert.engine.rule_base import rule_base
    base = rule_base()
    own = RuleBase.from_packs([p for p in base.packs if p.pack == PICK_PACK])
    assert _pick_rules(base) == own and _pick_rules(base).name == own.name


def pool_workloads():
    import yaml
    from pathlib import Path
    root = Path(__file__).resolve().parents[2]
    out = [yaml.safe_load((root / "examples" / "agent-pool-t3.yaml").read_text(encoding="utf-8"))]
    for name in ("advise-u4-t3-five-agents-hybrid", "advise-r1-agent-inventory-incomplete"):
        scenario = root / "tests" / "scenarios" / f"{name}.scenario.yaml"
        out.append(yaml.safe_load(scenario.read_text(encoding="utf-8"))["workload"])
    return out


def test_pool_plans_equal_the_plans_of_every_precision_and_tp():
    """`PoolSearch.plans` sizes TP degrees only up to the fewest GPUs found; the plans it keeps are
    those of the full list of every (precision, TP) plan."""
    from expert.configurator.agents import PoolSearch, by_memory, by_quality
    from expert.configurator.candidates import precisions, tp_degrees
    for wd in pool_workloads():
        ps = PoolSearch(Workload.model_validate(wd), CAT, A)
        plain = PoolSearch(Workload.model_validate(wd), CAT, A)
        for source in SOURCES[::3]:
            for i in range(len(ps.ws)):
                every = [p for precision in precisions(source.gpu, plain.ctxs[i].w)
                         for tp in tp_degrees(plain.ctxs[i].model, 8, source)
                         if (p := plain.plan(i, source.gpu, source.column, precision, tp)) is not None]
                expected = [] if not every else [min(every, key=by_quality)]
                if every and min(every, key=by_memory) is not expected[0]:
                    expected.append(min(every, key=by_memory))
                assert ps.plans(i, source) == expected


def test_pool_options_and_documents_equal_those_of_fresh_searches():
    from expert.configurator.agents import PoolSearch, evaluate_pool, pool_options
    for wd in pool_workloads():
        w = Workload.model_validate(wd)
        ps = PoolSearch(w, CAT, A)
        sources = admissible_sources(SOURCES, w)
        options = pool_options(ps, sources)
        assert options
        for opt in options[::7]:
            groups = [{"offer": s.key, "count": n} for s, n, *_ in opt.groups]
            variant = opt.kind if opt.kind != "homogeneous" else "hybrid-split"
            assert evaluate_pool(w, CAT, groups, variant, A, search=ps) == evaluate_pool(w, CAT, groups, variant, A)


def _cpu_loops(seed: int, n: int) -> list[Workload]:
    """n random agent loops that offload idle sessions' KV to CPU memory where it pays."""
    rng = random.Random(seed)
    return [Workload.model_validate({
        "model": rng.choice(["llama-3.1-8b", "qwen2.5-14b", "qwen2.5-32b"]),
        "agent": {"kind": rng.choice(["coding", "conversational"]), "kv_during_tools": "cpu",
                  "tasks_per_day": rng.choice([500, 5000, 50000])},
        "latency_target_s": rng.choice([2.0, 6.0]), "hosting": rng.choice(["any", "ch"])}) for _ in range(n)]


def test_offload_share_chosen_with_bounds_equals_the_unbounded_choice(monkeypatch):
    """`_offload_where_it_pays` stops a later share's search at the objective it must beat; the share it
    picks, and the optimum at each, are those of unbounded searches."""
    from expert.configurator import ordered
    from expert.configurator.agent_demand import demand, equivalent
    search_module = __import__("expert.configurator.enumeration", fromlist=["_offload_where_it_pays"])
    for w in _cpu_loops(3, 5):
        model = CAT.resolve_model(w.model, w.params_b)
        d = demand(w, model)
        bounded = search_module._offload_where_it_pays(equivalent(w, d), CAT, A, {}, model, d)
        with monkeypatch.context() as m:
            m.setattr(search_module, "best_only", lambda ctx, sources, below=None: ordered.best_only(ctx, sources))
            plain = search_module._offload_where_it_pays(equivalent(w, d), CAT, A, {}, model, d)
        assert bounded == plain


def test_optimum_found_while_choosing_the_share_is_the_contexts_own(monkeypatch):
    """`run(..., optimum_only=True)` of an offload-searching loop takes the chosen share's optimum from
    `_offload_where_it_pays` (`searched_context`); it equals `best_only` on a fresh context of that share,
    on fresh caches, and run's whole answer equals that of a run that searches again."""
    from expert.configurator import ordered
    search_module = __import__("expert.configurator.enumeration", fromlist=["run"])
    for w in _cpu_loops(5, 8):
        ctx, out, sources = search_module.run(w, CAT, A, {}, optimum_only=True)
        assert ctx.offload_searched
        fresh, fresh_sources = search_module._context(ctx.w, CAT, A, {}, ctx.model, ctx.agent), sources
        again = ordered.best_only(fresh, fresh_sources)
        assert (out.best is None) == (again is None)
        if again is not None:
            assert out.best.key == again.key and out.best == again
        with monkeypatch.context() as m:
            m.setattr(search_module, "_offload_where_it_pays",
                      lambda *args, f=search_module._offload_where_it_pays: (f(*args)[0], None))
            _, plain, _ = search_module.run(w, CAT, A, {}, optimum_only=True)
        assert (plain.best is None) == (out.best is None)
        if plain.best is not None:
            assert plain.best == out.best


def test_agent_candidates_with_shared_held_profiles_equal_fresh_ones(monkeypatch):
    """`feasibility._held` shares one profile per (profile, sessions held); every candidate of an agent
    loop evaluates as with a fresh `with_held` copy each time."""
    from expert.configurator import feasibility
    from expert.configurator.agent_demand import held_per_replica, with_held
    from expert.configurator.enumeration import context
    wd = {"model": "llama-3.1-8b", "latency_target_s": 2,
          "agent": {"kind": "conversational", "tasks_per_day": 144000, "kv_during_tools": "gpu"}}

    def all_candidates():
        ctx, sources = context(Workload.model_validate(wd), CAT, A, {})
        return [feasibility.evaluate(ctx, s, p, tp, n) for s in sources[:12] for n in s.counts[:10]
                for p in ("fp16", "int8") for tp in ctx.tp_degrees(n, s)]

    shared = all_candidates()
    with monkeypatch.context() as m:
        m.setattr(feasibility, "_held", lambda ctx, prof, replicas: with_held(
            prof, held_per_replica(ctx.agent, replicas)))
        fresh = all_candidates()
    assert shared == fresh and any(c.feasible for c in shared)


def test_a_cpu_loop_offloading_nothing_sizes_as_the_gpu_loop():
    """`AgentDemand.key` lets a `cpu` demand at offload share 0 share the `gpu` demand's replicas: its
    step TTFT and sessions held are the same numbers; any other share, or no affinity, keys apart."""
    from expert.configurator.agent_demand import demand, step_ttft
    model = CAT.model("llama-3.1-8b")
    gpu = CAT.gpus["h100-sxm"]
    for kind in ("coding", "conversational"):
        base = {"model": "llama-3.1-8b", "agent": {"kind": kind, "tasks_per_day": 3000}}
        on_gpu = demand(Workload.model_validate({**base, "agent": {**base["agent"], "kv_during_tools": "gpu"}}), model)
        cpu = demand(Workload.model_validate({**base, "agent": {**base["agent"], "kv_during_tools": "cpu"}}), model)
        none = cpu.offloading(0.0)
        assert none.key == on_gpu.key and none.held_peak == on_gpu.held_peak
        for tp, precision in ((1, "fp16"), (2, "fp8")):
            assert step_ttft(none, model, gpu, tp, precision, "sxm", A) == step_ttft(on_gpu, model, gpu, tp, precision,
                                                                                   "sxm", A)
        assert cpu.offloading(0.25).key != on_gpu.key
