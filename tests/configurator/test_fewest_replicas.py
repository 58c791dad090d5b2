"""The replica profile's fast paths (issue 21) give what the plain paths gave: the fewest replicas by the
monotone search (`fewest.py`) against the walk over every count, the latency-limited batch from a
guessed bracket (`latency_limit.py`) against the plain bisection, the speed set-up from `speed.Roofline`
against two calls of the plain scenario, and a profile's copy against `copy`'s reduce protocol."""

from __future__ import annotations

import copy
import math
import sys
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from expert.catalog.loader import load_catalog
from expert.configurator.candidates import column_of
from expert.configurator.fewest import SPAN, first_serving, first_walking
from expert.configurator.profile import build_profile, with_target
from expert.configurator.enumeration import default_assumptions
from expert.sizing import speed
from expert.inputs.slo import Targets

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "sizing"))
import plain_paths as plain  # noqa: E402 - the sizing tests' plain paths

CAT = load_catalog()
A = default_assumptions(CAT)
EPS = 1e-9
MODELS = ["llama-3.1-8b", "llama-2-13b", "mixtral-8x7b", "qwen2.5-32b", "llama-3.3-70b", "llama-3.1-405b"]
GPUS = ["l40s", "a100-80gb-pcie", "a100-80gb-sxm", "h100-sxm", "h200", "mi300x", "rtx-4090"]


def plain_needed(p, peak_rps: float, concurrency: float, utilization: float, inference_time) -> int:
    """`Serving.replicas_needed` as it was: every count from the lower bound on, one by one."""
    top = min(p.seq_mem, p.seq_lat)
    if top < 1:
        return 0
    t = inference_time if inference_time is not None else p.e2e(1)
    need = max(concurrency / top, peak_rps * t / (utilization * top), peak_rps / (utilization * p.rate_max()))
    r = max(1, math.ceil(need - EPS))
    for r in range(r, r + SPAN):
        op = p.point(r, peak_rps, concurrency, utilization, inference_time)
        if op is not None and op.ok:
            return r
    return 0


def plain_seq_lat(p) -> int:
    """`with_target`'s latency-limited batch as it was: bisection over [1, min(seq_mem, 100 000)]."""
    if p.seq_mem < 1 or p.misses(1):
        return 0
    lo, hi = 1, min(p.seq_mem, 100_000)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if not p.misses(mid):
            lo = mid
        else:
            hi = mid - 1
    return lo


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


@settings(max_examples=200, deadline=None)
@given(first=st.integers(1, 5000), threshold=st.integers(1, 6000))
def test_monotone_search_equals_the_walk(first, threshold):
    calls = []

    def serves(r):
        calls.append(r)
        return r >= threshold

    assert first_serving(serves, first) == first_walking(lambda r: r >= threshold, first)
    assert len(calls) <= 2 * math.log2(SPAN) + 2


@settings(max_examples=250, deadline=None)
@given(layout=layouts, slo=targets, peak=st.floats(0.001, 2000.0), concurrency=st.floats(0.0, 5000.0),
       utilization=st.sampled_from([0.5, 0.7, 0.9]), inference_time=st.one_of(st.none(), st.floats(0.2, 120.0)))
def test_fewest_replicas_equal_the_walk(layout, slo, peak, concurrency, utilization, inference_time):
    fast, walked = _profile(layout, slo), _profile(layout, slo)
    if fast is None:
        return
    want = plain_needed(walked, peak, concurrency, utilization, inference_time)
    assert fast.replicas_needed(peak, concurrency, utilization, inference_time) == want


@settings(max_examples=250, deadline=None)
@given(layout=layouts, slo=st.one_of(st.none(), targets))
def test_latency_limited_batch_equals_the_bisection(layout, slo):
    p = _profile(layout, None)
    if p is None:
        return
    q = with_target(p, slo)
    assert q.seq_lat == plain_seq_lat(q)


def test_speed_set_up_equals_two_plain_scenarios():
    for model_id, gpu_id, precision, tp in (
            ("llama-3.1-8b", "l40s", "fp16", 1), ("llama-3.3-70b", "h100-sxm", "fp8", 2),
            ("qwen2.5-32b", "a100-80gb-pcie", "int8", 2), ("llama-3.1-405b", "mi300x", "fp16", 8),
            ("mixtral-8x7b", "h200", "fp16", 2)):
        m, g = CAT.model(model_id), CAT.gpu(gpu_id)
        p = build_profile(m, g, precision, tp, column_of(g), 1500, 250, 1750, None, A, ttft_shift=-0.01)
        wo = A.weight_only_efficiency.value if speed.weight_only(g, precision) else 1.0
        link = "nvlink" if column_of(g) == "sxm" else "pcie"

        def scenario(batch):
            return plain.scenario(m, g, tp, precision, batch, 1500, 250, "fp16", A.mbu.value, A.mfu.value, p._eta, A,
                                  wo, speed.step_floor_s(m, tp, A), link)

        s1 = scenario(1)
        assert p.prefill_1 == s1["ttft_s"] - 0.01
        assert p._prefill_full == s1["prefill_compute_s"]
        assert p.e2e(1) == s1["e2e_latency_s"] - 0.01
        for batch in (1, 2, 9, 130):
            assert p.tpot(batch) == (scenario(batch)["tpot_s"] if p._moe else p.tpot(batch))
            assert p.e2e(batch) == (scenario(batch)["e2e_latency_s"] - 0.01 if p._moe else p.e2e(batch))
        if not p._moe:
            mem_b = scenario(2)["mem"] - s1["mem"]
            assert (p._mem_a, p._mem_b, p._comp_1) == (s1["mem"] - mem_b, mem_b, s1["comp"])


def test_profile_copy_is_a_shallow_copy():
    p = build_profile(CAT.model("llama-3.1-8b"), CAT.gpu("l40s"), "fp16", 1, "pcie", 1500, 250, 1750, None, A)
    q = copy.copy(p)
    assert q is not p and type(q) is type(p) and q.__dict__ == p.__dict__
    assert q._shared is p._shared and q._steady is p._steady


@settings(max_examples=150, deadline=None)
@given(layout=layouts, factor=st.floats(0.95, 1.6), peak=st.floats(0.1, 500.0), utilization=st.sampled_from([0.7, 0.9]))
def test_fewest_replicas_equal_the_walk_near_the_ttft_floor(layout, factor, peak, utilization):
    # a TTFT target just above (or below) what a replica reaches with nothing queued: many counts miss it
    base = _profile(layout, None)
    if base is None or base.seq_mem < 1:
        return
    floor = base.steady(0.0).ttft_p95_s
    slo = Targets(floor * factor / 1.1, None, None, True, {})
    fast, walked = with_target(base, slo), with_target(_profile(layout, None), slo)
    assert fast.replicas_needed(peak, 0.0, utilization, None) == plain_needed(walked, peak, 0.0, utilization, None)
