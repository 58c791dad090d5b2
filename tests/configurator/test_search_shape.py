"""The search's shape (issue 21): the lazily priced (source, count) pairs are the sorted list of every
pair; the document-pick rule base is the one its pack compiles to; a pool keeps the best plans of every
(precision, TP) plan and evaluates a given pool alike on a search's plans; a `cpu` agent loop offloading
nothing sizes as the same loop with its KV on the GPU."""

from __future__ import annotations

import random
import threading

import pytest

from expert.catalog import load_catalog
from expert.configurator.candidates import admissible_sources, catalog_sources
from expert.configurator.objective import SOURCE_ORDER, gpu_cost
from expert.configurator.pairs import PricedPairs
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
        lazy = PricedPairs(sources, months, A)
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


def test_a_cpu_loop_offloading_nothing_sizes_as_the_gpu_loop():
    """A `cpu` demand at offload share 0 has the `gpu` demand's step (`step_prefill`, part of the profile
    cache's key) and sessions held, so it shares its profiles; any other share, or no affinity, does not."""
    from expert.configurator.agent_demand import demand, step_prefill, step_ttft
    gpu = CAT.gpus["h100-sxm"]
    model = CAT.model("llama-3.1-8b")
    for kind in ("coding", "conversational"):
        base = {"model": "llama-3.1-8b", "agent": {"kind": kind, "tasks_per_day": 3000}}
        on_gpu = demand(Workload.model_validate({**base, "agent": {**base["agent"], "kv_during_tools": "gpu"}}), model)
        cpu = demand(Workload.model_validate({**base, "agent": {**base["agent"], "kv_during_tools": "cpu"}}), model)
        none = cpu.offloading(0.0)
        assert step_prefill(none) == step_prefill(on_gpu) and none.held_peak == on_gpu.held_peak
        for tp, precision in ((1, "fp16"), (2, "fp8")):
            assert step_ttft(none, model, gpu, tp, precision, "sxm", A) == step_ttft(on_gpu, model, gpu, tp, precision,
                                                                                   "sxm", A)
        quarter = cpu.offloading(0.25)
        assert step_prefill(quarter) != step_prefill(on_gpu)
        assert step_ttft(quarter, model, gpu, 1, "fp16", "sxm", A) > step_ttft(on_gpu, model, gpu, 1, "fp16", "sxm", A)
