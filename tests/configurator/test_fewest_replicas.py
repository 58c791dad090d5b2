"""A replica profile's serving figures as properties (hypothesis, random profiles, loads and targets): the
monotone search finds the first count that serves; the fewest replicas serve the peak, one fewer does
not, and they do not shrink when the load grows; the latency-limited batch is the last batch that meets
the targets; a profile's copy shares every attribute."""

from __future__ import annotations

import copy
import math

from hypothesis import given, settings
from hypothesis import strategies as st

from expert.catalog.loader import load_catalog
from expert.configurator.candidates import column_of
from expert.configurator.fewest import SPAN, first_serving
from expert.configurator.latency_limit import MOST
from expert.configurator.profile import build_profile, with_target
from expert.configurator.enumeration import default_assumptions
from expert.inputs.slo import Targets

CAT = load_catalog()
A = default_assumptions(CAT)
MODELS = ["llama-3.1-8b", "llama-2-13b", "mixtral-8x7b", "qwen2.5-32b", "llama-3.3-70b", "llama-3.1-405b"]
GPUS = ["l40s", "a100-80gb-pcie", "a100-80gb-sxm", "h100-sxm", "h200", "mi300x", "rtx-4090"]

targets = st.builds(lambda ttft, tpot, e2e: Targets(ttft, tpot, e2e, True, {}),
                    st.one_of(st.none(), st.floats(0.05, 60.0)), st.one_of(st.none(), st.floats(5.0, 400.0)),
                    st.one_of(st.none(), st.floats(1.0, 600.0)))
layouts = st.tuples(st.sampled_from(MODELS), st.sampled_from(GPUS), st.sampled_from(["fp16", "fp8", "int8", "int4"]),
                    st.sampled_from([1, 2, 4, 8]), st.sampled_from([150, 1500, 6000, 20000]),
                    st.sampled_from([60, 500]), st.sampled_from(["vllm", "sglang", "llama.cpp"]))


def _profile(layout, slo):
    model_id, gpu_id, precision, tp, prompt, output, engine = layout
    m, g = CAT.model(model_id), CAT.gpu(gpu_id)
    if m.kv_heads % tp or m.heads % tp or (precision == "fp8" and not g.fp8_tflops) or \
            prompt + output > m.max_context:
        return None
    return build_profile(m, g, precision, tp, column_of(g), prompt, output, prompt + output, slo, A, engine=engine)


def _serves(p, replicas, peak, concurrency, utilization, inference_time) -> bool:
    op = p.point(replicas, peak, concurrency, utilization, inference_time)
    return op is not None and op.ok


@settings(max_examples=200, deadline=None)
@given(first=st.integers(1, 5000), threshold=st.integers(1, 6000))
def test_monotone_search_finds_the_first_count_that_serves(first, threshold):
    calls = []

    def serves(r):
        calls.append(r)
        return r >= threshold

    want = max(first, threshold) if threshold < first + SPAN else 0
    assert first_serving(serves, first) == want
    assert len(calls) <= 2 * math.log2(SPAN) + 2


@settings(max_examples=150, deadline=None)
@given(layout=layouts, slo=targets, peak=st.floats(0.001, 2000.0), concurrency=st.floats(0.0, 5000.0),
       utilization=st.sampled_from([0.5, 0.7, 0.9]), inference_time=st.one_of(st.none(), st.floats(0.2, 120.0)))
def test_fewest_replicas_serve_and_grow_with_the_load(layout, slo, peak, concurrency, utilization, inference_time):
    p = _profile(layout, slo)
    if p is None:
        return
    load = (concurrency, utilization, inference_time)
    r = p.replicas_needed(peak, *load)
    heavier = p.replicas_needed(peak * 1.5, *load)
    if r > 0:
        assert _serves(p, r, peak, *load)
        assert r == 1 or not _serves(p, r - 1, peak, *load)
    if heavier > 0:
        assert _serves(p, heavier, peak * 1.5, *load)
    # dense replicas (affine decode pieces) serve fewer counts under more load; MoE ones are not shown to
    if r > 0 and heavier > 0 and p.replica().pieces is not None:
        assert heavier >= r


@settings(max_examples=100, deadline=None)
@given(layout=layouts, factor=st.floats(0.95, 1.6), peak=st.floats(0.1, 500.0), utilization=st.sampled_from([0.7, 0.9]))
def test_fewest_replicas_serve_near_the_ttft_floor(layout, factor, peak, utilization):
    # a TTFT target just above (or below) what a replica reaches with nothing queued: many counts miss it
    base = _profile(layout, None)
    if base is None or base.seq_mem < 1:
        return
    floor = base.steady(0.0).ttft_p95_s
    p = with_target(base, Targets(floor * factor / 1.1, None, None, True, {}))
    r = p.replicas_needed(peak, 0.0, utilization, None)
    heavier = p.replicas_needed(peak * 1.5, 0.0, utilization, None)
    if r > 0:
        assert _serves(p, r, peak, 0.0, utilization, None)
        if heavier > 0 and p.replica().pieces is not None:
            assert heavier >= r


@settings(max_examples=150, deadline=None)
@given(layout=layouts, slo=st.one_of(st.none(), targets))
def test_latency_limited_batch_is_the_last_that_meets_the_targets(layout, slo):
    p = _profile(layout, None)
    if p is None:
        return
    q = with_target(p, slo)
    if q.seq_lat == 0:
        assert q.seq_mem < 1 or q.misses(1)
        return
    assert 1 <= q.seq_lat <= min(q.seq_mem, MOST) and not q.misses(q.seq_lat)
    if q.seq_lat < min(q.seq_mem, MOST):
        assert q.misses(q.seq_lat + 1)


def test_profile_copy_is_a_shallow_copy():
    p = build_profile(CAT.model("llama-3.1-8b"), CAT.gpu("l40s"), "fp16", 1, "pcie", 1500, 250, 1750, None, A)
    q = copy.copy(p)
    assert q is not p and type(q) is type(p) and q.__dict__ == p.__dict__
    assert all(q.__dict__[k] is v for k, v in p.__dict__.items())
