"""Property tests over random valid workloads and setups (issue 7).

Every advice and audit report validates against knowledge/schemas/report.schema.json; the
recommendation fits in memory and meets the latency it claims (checked again with the sizing core);
no decode estimate exceeds the bandwidth limit; and the monotonicity a user relies on holds.
The whole file runs in well under 60 s (modest `max_examples`, no deadline).
"""

from __future__ import annotations

import json

import jsonschema
import pytest
from hypothesis import HealthCheck, assume, given, settings, strategies as st

import expert
from expert.api import Expert
from expert.catalog import load_catalog
from expert.inputs.workload import Workload
from expert._plumbing.fileio import dumps_json
from expert._plumbing.paths import schema_path
from expert.sizing import (bandwidth_limit_tokens_per_s, capacity, cost, estimate, generic_model,
                           inference_memory, max_sequences, performance, request_rates)
from expert.sizing.architecture import generic_shape

CATALOG = load_catalog()
EXPERT = Expert(catalog=CATALOG)
REPORT_VALIDATOR = jsonschema.Draft202012Validator(json.loads(schema_path("report").read_text(encoding="utf-8")))
MODELS = sorted(CATALOG.models)
GPUS = sorted(CATALOG.gpus)
SMALL_MODELS = ["llama-2-7b", "llama-2-13b", "llama-3.1-8b", "mistral-7b", "qwen2.5-7b", "qwen2.5-14b",
                "gemma-2-9b", "mixtral-8x7b", "qwen2.5-32b", "llama-3.1-70b"]
FAST = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])

sizes = st.one_of(st.sampled_from(SMALL_MODELS).map(lambda m: {"model": m}),
                  st.floats(0.5, 80, allow_nan=False).map(lambda p: {"params_b": round(p, 2)}))
volumes = st.one_of(st.just({}), st.integers(0, 2_000_000).map(lambda n: {"requests_per_day": n}),
                    st.floats(0, 50).map(lambda r: {"requests_per_second": round(r, 3)}))
workloads = st.builds(
    lambda size, volume, extra: {**size, **volume, **extra}, sizes, volumes,
    st.fixed_dictionaries({}, optional={
        "precision": st.sampled_from(["fp16", "bf16", "fp8", "int8"]),
        "peak_to_average": st.floats(1, 10),
        "latency_target_s": st.floats(0.2, 60),
        "prompt_tokens": st.integers(1, 8000),
        "output_tokens": st.integers(1, 2000),
        "target_utilization": st.floats(0.1, 1),
        "fine_tuning": st.sampled_from(["none", "yearly", "monthly", "weekly"]),
        "data": st.sampled_from(["sensitive", "non_sensitive"]),
        "sector": st.sampled_from(["finance", "health", "public", "other"]),
        "hosting": st.sampled_from(["ch", "eu", "any"]),
        "deployment": st.sampled_from(["cloud", "on_premise", "any"]),
        "budget": st.sampled_from(["opex", "capex"]),
        "horizon_months": st.integers(1, 72),
        "growth_params_b": st.floats(1, 120).map(lambda p: round(p, 1)),
        "allow_int4": st.booleans(),
        "allow_consumer_gpus": st.booleans(),
        "critical": st.booleans(),
    }))
setups = st.builds(
    lambda gpu, count, extra, workload: {"gpu": gpu, "count": count, **extra,
                                         **({"workload": workload} if workload else {})},
    st.sampled_from(GPUS), st.sampled_from([1, 2, 4, 8]),
    st.fixed_dictionaries({}, optional={
        "interconnect": st.sampled_from(["nvlink", "pcie", "pcie-bridge"]),
        "ownership": st.sampled_from(["rented", "owned"]),
        "cpu_cores": st.integers(1, 256), "ram_gb": st.floats(1, 4096),
        "storage": st.fixed_dictionaries({"type": st.sampled_from(["nvme", "sata-ssd", "hdd", "network"])},
                                         optional={"read_mb_s": st.floats(1, 20000)}),
        "network_gbps": st.floats(0.1, 400),
        "hosting": st.fixed_dictionaries({"country": st.sampled_from(["CH", "DE", "US", "FR"])}),
        "utilization": st.floats(0, 1).flatmap(lambda m: st.fixed_dictionaries(
            {"mean": st.just(m)}, optional={"peak": st.floats(m, 1)})),
        "latency_p95_s": st.floats(0.01, 30),
        "monitoring": st.booleans(), "backups": st.booleans(),
    }),
    st.one_of(st.none(), workloads))


def _json(report) -> dict:
    return report.model_dump(mode="json")


@FAST
@given(w=workloads, lang=st.sampled_from(["en", "de"]))
def test_advise_never_raises_and_report_matches_schema(w, lang):
    report = EXPERT.advise(w, lang=lang)
    data = _json(report)
    errors = list(REPORT_VALIDATOR.iter_errors(data))
    assert not errors, errors[0].message
    assert dumps_json(data) == dumps_json(_json(EXPERT.advise(w, lang=lang)))  # same input, same bytes


@FAST
@given(s=setups, lang=st.sampled_from(["en", "de"]))
def test_audit_never_raises_and_report_matches_schema(s, lang):
    data = _json(EXPERT.audit(s, lang=lang))
    errors = list(REPORT_VALIDATOR.iter_errors(data))
    assert not errors, errors[0].message
    assert dumps_json(data) == dumps_json(_json(EXPERT.audit(s, lang=lang)))


@FAST
@given(w=workloads)
def test_recommendation_fits_and_meets_its_latency(w):
    """What the report recommends fits in memory and meets the latency targets it used (docs/slo.md:
    within the 10 % tolerance) — checked again with the sizing core at one sequence per replica (the
    least the recommendation must hold)."""
    report = EXPERT.advise(w)
    rec = report.recommendation
    if rec is None:
        assert report.nothing_fits
        return
    assert rec.fits
    assert rec.memory_per_gpu_gb <= rec.usable_per_gpu_gb + 1e-6
    slo = report.slo
    if slo.ttft_target_s is not None:
        assert rec.ttft_p95_s <= slo.ttft_target_s * (1 + slo.tolerance) + 1e-4
    if slo.tpot_target_ms is not None:
        assert rec.tpot_ms <= slo.tpot_target_ms * (1 + slo.tolerance) + 1e-3
    if slo.e2e_target_s is not None:
        assert rec.latency_p95_s <= slo.e2e_target_s * (1 + slo.tolerance) + 1e-4
    assert rec.count % rec.tensor_parallel == 0 and rec.replicas * rec.tensor_parallel == rec.count
    model = CATALOG.model(w["model"]) if "model" in w else generic_model(w["params_b"])
    gpu = CATALOG.gpu(rec.gpu)
    context = min(w.get("prompt_tokens", 1500) + w.get("output_tokens", 250), model.max_context)
    kv = Workload.model_validate(w).kv_precision         # the KV precision the configurator sized and read
    memory = inference_memory(model, gpu, rec.tensor_parallel, rec.tensor_parallel, rec.precision, context, 1, kv)
    assert memory.fits, (rec, memory.total_gb)
    speed = performance(model, gpu, rec.tensor_parallel, rec.tensor_parallel, rec.precision, 1,
                        w.get("prompt_tokens", 1500), w.get("output_tokens", 250), kv_precision=kv)
    assert speed.e2e_latency_s <= rec.latency_p95_s + 1e-3, (speed.e2e_latency_s, rec.latency_p95_s)


@settings(max_examples=60, deadline=None)
@given(model=st.sampled_from(MODELS), gpu=st.sampled_from(GPUS), count=st.sampled_from([1, 2, 4, 8]),
       precision=st.sampled_from(["fp16", "bf16", "fp8", "int8", "int4"]), batch=st.integers(1, 256),
       prompt=st.integers(1, 4000), output=st.integers(1, 2000))
def test_no_decode_estimate_exceeds_the_bandwidth_limit(model, gpu, count, precision, batch, prompt, output):
    llm, card = CATALOG.model(model), CATALOG.gpu(gpu)
    result = estimate(llm, card, count, precision, "inference", batch, prompt, output)
    limit = bandwidth_limit_tokens_per_s(llm, card, result.tensor_parallel, precision, batch)
    assert result.performance.decode_tokens_per_s_per_sequence <= limit * (1 + 1e-9)
    assert result.performance.throughput_tokens_per_s <= limit * batch * (count // result.tensor_parallel) * (1 + 1e-9)


# --- monotonicity ------------------------------------------------------------------------------

def _same_band(a: float, b: float) -> bool:
    sa, sb = generic_shape(a), generic_shape(b)
    return sa["hidden"] == sb["hidden"] and sa["kv_heads"] == sb["kv_heads"]


@settings(max_examples=80, deadline=None)
@given(p=st.floats(0.5, 400), step=st.floats(0.001, 0.5), gpu=st.sampled_from(GPUS),
       precision=st.sampled_from(["fp16", "fp8", "int8", "int4"]), context=st.integers(1, 32768),
       seqs=st.integers(1, 64))
def test_larger_generic_model_never_needs_less_memory(p, step, gpu, precision, context, seqs):
    bigger = p * (1 + step)
    assume(bigger <= 2000 and _same_band(p, bigger))
    card = CATALOG.gpu(gpu)
    small = inference_memory(generic_model(p), card, 8, 8, precision, context, seqs)
    large = inference_memory(generic_model(bigger), card, 8, 8, precision, context, seqs)
    assert large.weights_gb >= small.weights_gb
    assert large.total_gb >= small.total_gb - 1e-9


FAMILIES = [["llama-2-7b", "llama-2-13b"], ["llama-3.1-8b", "llama-3.1-70b", "llama-3.1-405b"],
            ["qwen2.5-7b", "qwen2.5-14b", "qwen2.5-32b", "qwen2.5-72b"], ["gemma-2-9b", "gemma-2-27b"]]


@pytest.mark.parametrize("family", FAMILIES, ids=lambda f: f[0].rsplit("-", 1)[0])
@pytest.mark.parametrize("precision", ["fp16", "int8"])
def test_larger_catalog_model_of_a_family_never_needs_less_memory(family, precision):
    card = CATALOG.gpu("h100-sxm")
    for context in (512, 4096):
        totals = [inference_memory(CATALOG.model(m), card, 8, 8, precision, context, 1).total_gb for m in family]
        assert totals == sorted(totals), dict(zip(family, totals))


@settings(max_examples=60, deadline=None)
@given(model=st.sampled_from(SMALL_MODELS), gpu=st.sampled_from(["l4", "l40s", "a100-80gb-sxm", "h100-sxm"]),
       low=st.integers(0, 3_000_000), extra=st.integers(1, 3_000_000), latency=st.floats(1, 30))
def test_more_requests_never_need_fewer_gpus(model, gpu, low, extra, latency):
    from expert.sizing import full_sizing

    llm, card = CATALOG.model(model), CATALOG.gpu(gpu)
    base = {"model": model, "latency_target_s": latency}
    fewer = full_sizing({**base, "requests_per_day": low}, card, llm)
    more = full_sizing({**base, "requests_per_day": low + extra}, card, llm)
    assert more.count >= fewer.count
    if fewer.capacity.gpus_needed is not None:
        assert more.capacity.gpus_needed >= fewer.capacity.gpus_needed


@settings(max_examples=60, deadline=None)
@given(rps=st.floats(0, 1e4), more=st.floats(0, 1e4), t=st.floats(0.01, 100), seqs=st.integers(1, 512),
       tp=st.sampled_from([1, 2, 4, 8]), util=st.floats(0.05, 1))
def test_more_load_never_needs_fewer_gpus_in_the_capacity_core(rps, more, t, seqs, tp, util):
    a = capacity(rps, rps * 3, t, seqs, tp, util)
    b = capacity(rps + more, (rps + more) * 3, t, seqs, tp, util)
    assert b.gpus_needed >= a.gpus_needed


@settings(max_examples=60, deadline=None)
@given(gpu=st.sampled_from(GPUS), count=st.integers(1, 64), months=st.integers(1, 120),
       price=st.floats(1, 50_000), rise=st.floats(0.01, 50_000), mode=st.sampled_from(["rent", "buy"]))
def test_higher_price_never_lowers_total_cost(gpu, count, months, price, rise, mode):
    card = CATALOG.gpu(gpu)
    key = "monthly_rent" if mode == "rent" else "purchase"
    scale = 1 if mode == "rent" else 20
    cheap = cost(card, mode, count, months, **{key: price * scale})
    dear = cost(card, mode, count, months, **{key: (price + rise) * scale})
    assert dear.total_chf >= cheap.total_chf
    assert dear.cost_per_month_chf >= cheap.cost_per_month_chf


@settings(max_examples=15, deadline=None)
@given(gpu=st.sampled_from(["l40s", "h100-sxm"]), months=st.integers(1, 60), mode=st.sampled_from(["rent", "buy"]))
def test_higher_catalog_price_never_lowers_cost_command_total(gpu, months, mode):
    """Through the cost command's code path (`run_cost`): a catalog whose prices are all higher."""
    from expert.api import run_cost
    from expert.catalog.models import Band

    def scaled(factor):
        offers = {k: o.model_copy(update={"monthly": o.monthly.model_copy(update={
            "amount": Band(low=o.monthly.amount.low * factor, high=o.monthly.amount.high * factor)})})
            for k, o in CATALOG.offers.items()}
        purchase = [p.model_copy(update={"price": p.price.model_copy(update={
            "amount": Band(low=p.price.amount.low * factor, high=p.price.amount.high * factor)})})
            for p in CATALOG.tariffs.purchase]
        tariffs = CATALOG.tariffs.model_copy(update={"purchase": purchase})
        cat = type(CATALOG)(CATALOG.gpus, CATALOG.models, CATALOG.packages, offers, tariffs)
        object.__setattr__(cat, "_aliases", CATALOG._aliases)
        return cat

    try:
        low = run_cost(scaled(1.0), gpu=gpu, months=months, mode=mode)
    except expert.errors.InputError:
        return  # no price of this kind for this GPU
    high = run_cost(scaled(1.5), gpu=gpu, months=months, mode=mode)
    assert high["total_chf"] >= low["total_chf"]


@settings(max_examples=60, deadline=None)
@given(model=st.sampled_from(MODELS), gpu=st.sampled_from(GPUS), precision=st.sampled_from(["fp16", "int8"]),
       context=st.integers(1, 32768), longer=st.integers(1, 32768), tp=st.sampled_from([1, 2, 4, 8]))
def test_longer_context_never_fits_more_sequences(model, gpu, precision, context, longer, tp):
    llm, card = CATALOG.model(model), CATALOG.gpu(gpu)
    short = max_sequences(llm, card, tp, tp, precision, context)
    long = max_sequences(llm, card, tp, tp, precision, context + longer)
    assert long <= short


def test_same_input_gives_the_same_answer_across_calls_and_api_forms():
    w = {"model": "llama-3.1-8b", "requests_per_day": 20000, "fine_tuning": "monthly"}
    first = dumps_json(_json(expert.advise(w)))
    for _ in range(3):
        assert dumps_json(_json(expert.advise(dict(w)))) == first
    s = {"gpu": "h100-sxm", "workload": w}
    audits = {dumps_json(_json(expert.audit(s))) for _ in range(3)}  # `expert.audit` twice: see regression test
    assert len(audits) == 1


def test_regression_expert_audit_shadowed_by_submodule():
    """`expert.audit(setup)` worked once: the audit imported the submodule `expert.audit`, which Python
    then bound as the package attribute, so the second call failed ("'module' object is not callable")."""
    setup = {"gpu": "l40s", "workload": {"model": "llama-3.1-8b"}}
    for _ in range(3):
        assert expert.audit(setup).kind == "audit"
    assert callable(expert.audit) and callable(expert.advise) and callable(expert.estimate)
    from expert.flows.audit import sizing_extras  # the submodule itself stays importable
    assert callable(sizing_extras)
