"""The sizing core's fast paths (issue 21) give the same floats as the plain paths they replaced
(`plain_paths.py`), bit for bit: the steady state from the per-replica solver, its bisections
(`rate_max`, `closed_loop`), the point scenario from `speed.Roofline`, the engines' sizes without
provenance."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import plain_paths as plain
from expert.catalog import load_catalog
from expert.sizing import load, speed
from expert.sizing.constants import DEFAULT
from expert.sizing.engine_names import ENGINES
from expert.sizing.engines import budget, budget_sizes
from expert.sizing.steady import core_replica

CAT = load_catalog()
MODELS = ["llama-3.1-8b", "llama-3.3-70b", "mixtral-8x7b", "qwen2.5-32b", "llama-3.1-405b"]
GPUS = ["h100-sxm", "a100-80gb-sxm", "a100-80gb-pcie", "l40s", "h200", "mi300x", "rtx-4090"]


def _fields(state: load.SteadyState) -> tuple:
    return tuple(state)


positive = st.floats(1e-6, 1e-1)
dense_replicas = st.builds(
    lambda floor, mem_a, mem_c, comp_c, c_prefill, prefill_1, prompt, output, chunk, cap: load.Replica(
        lambda b, p=[(floor, 0.0), (mem_a, mem_c), (0.0, comp_c)]: max(a + c * b for a, c in p),
        [(floor, 0.0), (mem_a, mem_c), (0.0, comp_c)], c_prefill, prefill_1, prompt, output, chunk, cap),
    positive, positive, st.floats(0.0, 1e-3), st.floats(0.0, 1e-3), st.floats(0.0, 1e-4),
    st.floats(1e-4, 5.0), st.integers(1, 200_000), st.integers(1, 4000), st.sampled_from([2048, 8192, 16384]),
    st.one_of(st.none(), st.floats(1.0, 5000.0)))


@settings(max_examples=300, deadline=None)
@given(r=dense_replicas, share=st.floats(0.0, 1.5))
def test_steady_state_equals_the_plain_path(r, share):
    top = plain.rate_max(r)
    assert load.rate_max(r) == top
    lam = top * share
    assert _fields(load.steady(r, lam)) == plain.steady(r, lam)


@settings(max_examples=60, deadline=None)
@given(model=st.sampled_from(MODELS), gpu=st.sampled_from(GPUS), prompt=st.sampled_from([100, 1500, 9000]),
       output=st.sampled_from([50, 400]), cap=st.sampled_from([None, 40, 700]), share=st.floats(0.0, 1.2),
       concurrency=st.floats(0.5, 400.0))
def test_core_replicas_equal_the_plain_path(model, gpu, prompt, output, cap, share, concurrency):
    m, g = CAT.model(model), CAT.gpu(gpu)
    tp = 8 if m.params_b > 300 else 2 if m.params_b > 40 else 1
    r = core_replica(m, g, tp, "fp8" if g.fp8_tflops else "fp16", prompt, output, "fp16", "vllm", cap)
    top = plain.rate_max(r)
    assert load.rate_max(r) == top
    assert _fields(load.steady(r, top * share)) == plain.steady(r, top * share)
    assert _fields(load.closed_loop(r, concurrency, top)) == plain.closed_loop(r, concurrency, top)


@pytest.mark.parametrize("model", MODELS)
@pytest.mark.parametrize("gpu", GPUS)
def test_scenario_equals_the_plain_path(model, gpu):
    m, g, a = CAT.model(model), CAT.gpu(gpu), DEFAULT
    for tp, precision, batch, link, host in ((1, "fp16", 1, None, 0.0), (2, "int8", 7, "pcie", 0.0),
                                             (4, "fp8", 33, "nvlink", 0.0035), (8, "int4", 2, None, 0.0)):
        if m.kv_heads % tp:
            continue
        wo = a.weight_only_efficiency.value if speed.weight_only(g, precision) else 1.0
        floor = speed.step_floor_s(m, tp, a)
        args = (m, g, tp, precision, batch, 1200, 180, "fp16", a.mbu.value, a.mfu.value, 0.9, a, wo, floor, link,
                host)
        try:
            want = plain.scenario(*args)
        except AssertionError:
            with pytest.raises(AssertionError):
                speed._scenario(*args)
            continue
        assert speed._scenario(*args) == want


@pytest.mark.parametrize("engine", ENGINES)
def test_budget_sizes_equal_the_budget(engine):
    for model, gpu, tp in (("llama-3.1-8b", "l40s", 1), ("mixtral-8x7b", "h100-sxm", 2),
                           ("llama-3.3-70b", "mi300x", 4), ("qwen2.5-32b", "rtx-4090", 1)):
        m, g = CAT.model(model), CAT.gpu(gpu)
        w = m.params_b * 2 / tp
        sizes = budget_sizes(engine, m, g, tp, w, 9000, DEFAULT)
        assert sizes == plain.budget_sizes(engine, m, g, tp, w, 9000, DEFAULT)
        b = budget(engine, m, g, tp, w, 9000, DEFAULT)
        assert (b.device_gb, b.activation_gb, b.overhead_gb, b.kv_pool_gb) == sizes


@settings(max_examples=40, deadline=None)
@given(model=st.sampled_from(MODELS), gpu=st.sampled_from(GPUS), cap=st.sampled_from([3, 40, 700]))
def test_a_replica_without_or_with_another_cap_equals_the_plain_path(model, gpu, cap):
    m, g = CAT.model(model), CAT.gpu(gpu)
    tp = 8 if m.params_b > 300 else 2 if m.params_b > 40 else 1
    r = core_replica(m, g, tp, "fp16", 3000, 300, "fp16", "vllm", cap)
    free = r.capped(None)
    assert load.rate_max(free) == plain.rate_max(dataclasses.replace(r, cap=None))
    top = plain.rate_max(r)
    assert load.rate_max(r) == top
    again = free.capped(cap)  # a dense replica keeps the uncapped one's solver
    assert (again.solve is free.solve) == (r.pieces is not None)
    for share in (0.3, 0.9, 1.0, 1.1):
        assert _fields(load.steady(again, top * share)) == plain.steady(r, top * share)


@settings(max_examples=300, deadline=None)
@given(model=st.sampled_from(MODELS + ["llama-2-13b", "gemma-2-9b"]), gpu=st.sampled_from(GPUS + ["l4"]),
       tp=st.sampled_from([1, 2, 4, 8]), precision=st.sampled_from(["fp16", "int8", "int4"]),
       prompt=st.sampled_from([50, 300, 1500, 5000, 20000, 100000]), output=st.sampled_from([20, 250, 2000]),
       engine=st.sampled_from(ENGINES))
def test_capacity_from_the_checked_bracket_equals_the_bisection(model, gpu, tp, precision, prompt, output, engine):
    m, g = CAT.model(model), CAT.gpu(gpu)
    if m.kv_heads % tp or m.heads % tp or prompt + output > m.max_context:
        return
    r = core_replica(m, g, tp, precision, prompt, output, "fp16", engine, None)
    assert load.rate_max(r) == plain.rate_max(r)


def test_the_bracket_is_checked_where_the_threshold_is_smooth():
    from expert.sizing.load_capacity import bracket
    r = core_replica(CAT.model("llama-3.1-8b"), CAT.gpu("l40s"), 1, "fp16", 1500, 250, "fp16", "vllm", None)
    low, high = bracket(r, r.solve)
    assert r.solve(low)[8] and r.solve(high)[5] >= 1 and high / low < 1 + 3e-9
    assert low * (1 - 1e-6) <= load.rate_max(r) <= high   # the bisection stops within 1e-6


def test_prefill_from_its_rates_equals_the_plain_prefill():
    """`agent_loop.prefill_s` (and `prefill_with` on one `prefill_rates`, as `agent_demand.ttft_terms`
    uses it) equals the plain expression bit for bit on every catalog GPU, for dense and MoE models,
    every precision, TP degree (interpolated ones too) and column."""
    from expert.sizing import agent_loop
    from expert.sizing.constants import resolve
    cat = load_catalog()
    checked = 0
    for model_id in ("llama-3.1-8b", "qwen2.5-32b", "mixtral-8x7b", "llama-3.1-70b"):
        model = cat.model(model_id)
        for gpu in cat.gpus.values():
            for precision in ("fp16", "bf16", "fp8", "int8", "int4"):
                for tp in (1, 2, 3, 4, 8):
                    for column in ("sxm", "pcie"):
                        for a in (None, DEFAULT, resolve(DEFAULT).override(mfu=0.31)):
                            rates = agent_loop.prefill_rates(model, gpu, tp, precision, column, a)
                            for new, cached in ((1, 0), (317.5, 2048.25), (4000, 0), (96, 120000)):
                                want = plain.prefill_s(model, gpu, tp, precision, column, new, cached, a)
                                assert agent_loop.prefill_s(model, gpu, tp, precision, column, new, cached, a) == want
                                assert agent_loop.prefill_with(model, tp, rates, new, cached) == want
                                checked += 1
    assert checked > 1000


@pytest.mark.parametrize("model", sorted(CAT.models))
def test_the_weights_a_step_reads_equal_the_plain_path(model):
    m = CAT.models[model]
    for precision in ("fp32", "bf16", "fp16", "fp8", "int8", "int4"):
        for batch in (1, 2, 3, 7, 33, 100, 257, 4096):
            assert speed.decode_weight_gb(m, precision, batch, DEFAULT) == \
                plain.decode_weight_gb(m, precision, batch, DEFAULT)


@settings(max_examples=40, deadline=None)
@given(model=st.sampled_from(["mixtral-8x7b", "deepseek-v3"]), gpu=st.sampled_from(GPUS + ["b200"]),
       tp=st.sampled_from([1, 2, 4, 8]), precision=st.sampled_from(["fp16", "fp8", "int8", "int4"]),
       prompt=st.sampled_from([100, 1500, 9000]), output=st.sampled_from([20, 250, 2000]),
       cap=st.sampled_from([None, 3, 40, 700]), share=st.floats(0.0, 1.2))
def test_moe_profiles_solve_as_the_plain_path(model, gpu, tp, precision, prompt, output, cap, share):
    """The configurator's MoE replica (memoised decode, `moe_step` written out) against the plain step
    search on the decode the profile had before (`tpot` of the rounded batch, per call)."""
    from expert.configurator.candidates import column_of
    from expert.configurator.profile import build_profile
    m, g = CAT.model(model), CAT.gpu(gpu)
    if m.kv_heads % tp or m.heads % tp or (precision == "fp8" and not g.fp8_tflops):
        return
    p = build_profile(m, g, precision, tp, column_of(g), prompt, output, prompt + output, None, DEFAULT)
    fast = p.replica(capped=False).capped(cap)
    was = dataclasses.replace(fast, decode=lambda b: p.tpot(max(1, int(round(b)))))
    top = plain.rate_max(was)
    assert load.rate_max(fast) == top
    assert _fields(load.steady(fast, top * share)) == plain.steady(was, top * share)
