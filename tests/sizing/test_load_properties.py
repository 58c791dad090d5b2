"""Properties of the continuous-batching steady state (expert/sizing/load.py, steady.py) that can fail:
the replica's decode step is the roofline's TPOT at every batch, the capacity by hand and against a
scan of every rate on a grid, the step search of a mixture-of-experts replica against a scan of every
batch, and monotonicity — the step, the batch and TTFT rise with the load, the capacity falls with
longer prompts and outputs and with a smaller KV pool, the closed loop's rate rises with its
concurrency."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from expert.catalog import load_catalog
from expert.sizing import load
from expert.sizing.speed import performance
from expert.sizing.steady import core_replica

CAT = load_catalog()
MODELS = ["llama-3.1-8b", "llama-3.3-70b", "mixtral-8x7b", "qwen2.5-32b", "gemma-2-9b"]
GPUS = ["h100-sxm", "a100-80gb-sxm", "a100-80gb-pcie", "l40s", "h200", "mi300x", "rtx-4090"]
ENGINES = ["vllm", "tensorrt-llm", "sglang", "llama.cpp"]


def _toy(**kw) -> load.Replica:
    base = dict(decode=lambda b: 0.01 + 0.001 * b, pieces=[(0.01, 0.001)], c_prefill=1e-4, prefill_1=0.1,
                prompt=1000, output=100, chunk=8192, cap=None)
    return load.Replica(**{**base, **kw})


def _pieces_replica(floor, mem_a, mem_c, comp_c, c_prefill, prefill_1, prompt, output, chunk, cap) -> load.Replica:
    pieces = [(floor, 0.0), (mem_a, mem_c), (0.0, comp_c)]
    return load.Replica(lambda b: max(a + c * b for a, c in pieces), pieces, c_prefill, prefill_1, prompt, output,
                        chunk, cap)


positive = st.floats(1e-6, 1e-1)
dense_replicas = st.builds(_pieces_replica, positive, positive, st.floats(0.0, 1e-3), st.floats(0.0, 1e-3),
                           st.floats(0.0, 1e-4), st.floats(1e-4, 5.0), st.integers(1, 200_000), st.integers(1, 4000),
                           st.sampled_from([2048, 8192, 16384]), st.one_of(st.none(), st.floats(1.0, 5000.0)))


def _catalog_replica(model, gpu, prompt, output, engine="vllm", cap=None):
    m, g = CAT.model(model), CAT.gpu(gpu)
    tp = 8 if m.params_b > 300 else 2 if m.params_b > 40 else 1
    return core_replica(m, g, tp, "fp8" if g.fp8_tflops else "fp16", prompt, output, "fp16", engine, cap)


def _stable(r: load.Replica, lam: float) -> bool:
    return load.steady(r, lam).stable


@settings(max_examples=100, deadline=None)
@given(model=st.sampled_from(MODELS + ["llama-3.1-405b", "deepseek-v3"]), gpu=st.sampled_from(GPUS),
       tp=st.sampled_from([1, 2, 4, 8]), precision=st.sampled_from(["fp16", "fp8", "int8", "int4"]),
       engine=st.sampled_from(ENGINES), link=st.sampled_from([None, "pcie"]), batch=st.integers(1, 600))
def test_the_replicas_decode_is_the_rooflines_tpot(model, gpu, tp, precision, engine, link, batch):
    # dense: the three affine pieces from batches 1 and 2 give every other batch; MoE: the roofline per batch
    m, g = CAT.model(model), CAT.gpu(gpu)
    if m.kv_heads % tp or m.heads % tp:
        return
    tpot = performance(m, g, tp, tp, precision, batch, 2000, 300, interconnect=link, engine=engine).tpot_s
    r = core_replica(m, g, tp, precision, 2000, 300, "fp16", engine, None, link)
    assert r.decode(batch) == pytest.approx(tpot, rel=1e-9)


def test_capacity_by_hand():
    # decode(b) = 10 ms + 1 ms·b, P = 1 000 tokens at 0.1 ms, O = 100, one chunk: ρ = 0.1λ, the step
    # s = 0.01 / (1 − 0.2λ), the decode d = s·(1 − ρ), the prefill lane's service S = 0.1 + d. It fills
    # (u = λ·S = 1) where λ·(0.1·(1 − 0.2λ) + 0.01·(1 − 0.1λ)) = 1 − 0.2λ, i.e. 0.021λ² − 0.31λ + 1 = 0:
    # λ = (0.31 − 0.11) / 0.042 = 100/21 = 4.7619 req/s, before the step loses its fixed point at λ = 5
    top = load.rate_max(_toy())
    assert 100 / 21 * (1 - 2e-6) <= top <= 100 / 21
    assert _stable(_toy(), top) and not _stable(_toy(), 100 / 21)
    # a KV pool of 20 sequences binds first: in flight = λ·(TTFT + O·s) reaches 20 below 100/21
    capped = load.rate_max(_toy(cap=20))
    assert capped < top and load.steady(_toy(cap=20), capped).in_flight == pytest.approx(20, rel=1e-5)


@settings(max_examples=200, deadline=None)
@given(r=dense_replicas)
def test_capacity_is_the_edge_of_a_scan_of_every_rate(r):
    # every rate on a grid of 400 up to the bisection's ceiling: stable below the capacity, unstable beyond it
    top, ceiling = load.rate_max(r), load.rate_ceiling(r)
    grid = [ceiling * i / 400 for i in range(1, 401)]
    assert all(_stable(r, lam) for lam in grid if lam <= top)
    assert not any(_stable(r, lam) for lam in grid if lam >= top * (1 + 2e-6))


@settings(max_examples=60, deadline=None)
@given(model=st.sampled_from(MODELS), gpu=st.sampled_from(GPUS), prompt=st.sampled_from([100, 1500, 9000]),
       output=st.sampled_from([50, 400]), engine=st.sampled_from(ENGINES), cap=st.sampled_from([None, 3, 40, 700]))
def test_catalog_capacity_is_the_edge_of_a_scan_of_every_rate(model, gpu, prompt, output, engine, cap):
    r = _catalog_replica(model, gpu, prompt, output, engine, cap)
    top, ceiling = load.rate_max(r), load.rate_ceiling(r)
    grid = [ceiling * i / 100 for i in range(1, 101)]
    assert all(_stable(r, lam) for lam in grid if lam <= top)
    assert not any(_stable(r, lam) for lam in grid if lam >= top * (1 + 2e-6))


@settings(max_examples=200, deadline=None)
@given(r=dense_replicas, a=st.floats(1e-3, 1.0), b=st.floats(1e-3, 1.0))  # λ = 0 counts its one request in flight
def test_step_batch_and_ttft_rise_with_the_load(r, a, b):
    top = load.rate_max(r)
    low, high = (load.steady(r, top * x) for x in sorted((a, b)))
    assert low.stable and high.stable
    for field in ("step_s", "batch", "in_flight", "prefill_share", "ttft_mean_s", "ttft_p95_s"):
        assert getattr(low, field) <= getattr(high, field) * (1 + 1e-9), field


@settings(max_examples=60, deadline=None)
@given(model=st.sampled_from(MODELS), gpu=st.sampled_from(GPUS), p1=st.integers(50, 20_000),
       p2=st.integers(50, 20_000), output=st.sampled_from([50, 400]), engine=st.sampled_from(ENGINES))
def test_capacity_falls_with_longer_prompts(model, gpu, p1, p2, output, engine):
    short, long = sorted((p1, p2))
    assert load.rate_max(_catalog_replica(model, gpu, short, output, engine)) >= \
        load.rate_max(_catalog_replica(model, gpu, long, output, engine)) * (1 - 2e-6)


@settings(max_examples=60, deadline=None)
@given(model=st.sampled_from(MODELS), gpu=st.sampled_from(GPUS), o1=st.integers(1, 4000), o2=st.integers(1, 4000),
       prompt=st.sampled_from([100, 1500, 9000]), engine=st.sampled_from(ENGINES))
def test_capacity_falls_with_longer_outputs(model, gpu, o1, o2, prompt, engine):
    short, long = sorted((o1, o2))
    assert load.rate_max(_catalog_replica(model, gpu, prompt, short, engine)) >= \
        load.rate_max(_catalog_replica(model, gpu, prompt, long, engine)) * (1 - 2e-6)


@settings(max_examples=60, deadline=None)
@given(model=st.sampled_from(MODELS), gpu=st.sampled_from(GPUS), c1=st.floats(1.0, 2000.0), c2=st.floats(1.0, 2000.0))
def test_a_smaller_kv_pool_never_raises_the_capacity(model, gpu, c1, c2):
    free = _catalog_replica(model, gpu, 3000, 300)
    small, large = sorted((c1, c2))
    assert load.rate_max(free.capped(small)) <= load.rate_max(free.capped(large)) * (1 + 2e-6)
    assert load.rate_max(free.capped(large)) <= load.rate_max(free) * (1 + 2e-6)
    built = _catalog_replica(model, gpu, 3000, 300, cap=small)    # the same replica built with its cap
    for share in (0.3, 0.9):
        lam = load.rate_max(free) * share
        assert load.steady(free.capped(small), lam) == load.steady(built, lam)


@settings(max_examples=200, deadline=None)
@given(lam=st.floats(0.0, 50.0), prompt=st.integers(1, 4000), output=st.integers(1, 2000),
       cap=st.sampled_from([None, 5, 40.5, 64, 1000]), saturation=st.floats(0.5, 0.99))
def test_moe_step_is_the_least_batch_a_scan_finds(lam, prompt, output, cap, saturation):
    # a concave decode (expert coverage saturates): the step holds the least whole batch b ≤ cap with
    # λ·O·decode(b) / (1 − ρ) ≤ b; scanned here one batch at a time (a cap of 40.5 sequences once made the
    # search double towards it for ever)
    def decode(b):
        return 0.004 + 0.006 * (1 - saturation ** b)
    r = load.Replica(decode, None, 2e-6, 0.02, prompt, output, 8192, cap)
    rho = lam * prompt * 2e-6
    state = load.steady(r, lam)
    limit = cap or 10**6
    least = next((b for b in range(1, int(limit) + 1) if lam * output * decode(b) / (1 - rho) <= b + 1e-9), None) \
        if rho < 1 else None
    if least is None:
        assert not state.stable and state.step_s == float("inf")
    else:
        assert state.step_s == decode(least) / (1 - rho)


@settings(max_examples=60, deadline=None)
@given(model=st.sampled_from(MODELS), gpu=st.sampled_from(GPUS), n1=st.floats(1.0, 500.0), n2=st.floats(1.0, 500.0),
       prompt=st.sampled_from([200, 5000]))
def test_closed_loop_rate_rises_with_concurrency(model, gpu, n1, n2, prompt):
    r = _catalog_replica(model, gpu, prompt, 250, "vllm", 300)
    small, large = sorted((n1, n2))
    a, b = load.closed_loop(r, small), load.closed_loop(r, large)
    assert a.rate_rps <= b.rate_rps * (1 + 1e-9) and a.step_s <= b.step_s * (1 + 1e-9)
    assert a.in_flight <= max(small, 1.0) * (1 + 1e-9) and a.stable
