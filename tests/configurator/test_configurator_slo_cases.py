"""The documents' cases on the latency, rate and capacity terms of docs/slo.md (issue 11), each citing
document and section: the product gives the documents' answer, or the report says in one line the
physical reason with numbers.

Workloads use the default catalog and hosting unless a case says otherwise; the rates are the
documents' own (000 U1 "100-500 Anfragen pro Minute" is a rate, sized as given).
"""

from __future__ import annotations

import pytest

import expert
from expert.catalog.loader import load_catalog
from expert.configurator import search
from expert.configurator.candidates import admissible_sources
from expert.configurator.enumeration import catalog_sources
from expert.facts.input_facts import gpu_family
from expert.inputs.slo import targets
from expert.inputs.workload import Workload

CAT = load_catalog()


def family(report) -> str:
    return gpu_family(CAT.gpu(report.recommendation.gpu))


def l40s_or_the_reason(report, peak_rps: float) -> None:
    """000 U1's L40S (one to a few), or a departure that names one L40S replica's capacity against the peak
    (issue 11: the documents' answer, or the physical reason in one line with numbers)."""
    if family(report) == "l40s":
        assert 1 <= report.recommendation.count <= 3
        return
    text = report.document_recommendation
    assert "The documents pick L40S" in text and "serves about" in text and f"the peak is {peak_rps:.2f} req/s" in text


# --- 000 U1 (Anwendungsfälle / Konversationeller RAG-Agent, 7-13B): 100-500 requests/minute, answers
# within 2 s, no fine-tuning → L40S, one to a few, not H100
@pytest.mark.parametrize("model", ["mistral-7b", "qwen2.5-7b", "llama-3.1-8b"])
@pytest.mark.parametrize("per_minute", [100, 300, 500])
def test_u1_7b_to_8b_rag_is_one_to_a_few_l40s(model, per_minute):
    r = expert.advise({"model": model, "requests_per_second": per_minute / 60, "latency_target_s": 2.0})
    l40s_or_the_reason(r, per_minute / 60)
    # one L40S replica in fp16 serves about 3.3 req/s (the departure line's own figure): below that the pick is
    # the documents' one L40S; above it two L40S in fp16 cost more than one A100 80 GB in W8A8 INT8 (issue 32),
    # and the report says so with the L40S replica's capacity against the peak
    if per_minute <= 100:
        assert family(r) == "l40s"
    assert r.capacity.peak_rps == pytest.approx(per_minute / 60, abs=1e-4) and r.capacity.peak_basis == "rate"


def test_u1_13b_at_the_low_end_is_l40s():
    # llama-2-13b has no grouped-query attention: 0.8 MB of KV per token, 1.4 GB per 1 750-token sequence
    r = expert.advise({"model": "llama-2-13b", "requests_per_second": 100 / 60, "latency_target_s": 2.0})
    l40s_or_the_reason(r, 100 / 60)


def test_u1_14b_at_300_per_minute_departs_with_the_physical_reason():
    """000 U1 says L40S; at 5 req/s a 14B model's 1 500-token prefills (0.10 s each on an L40S in FP8 at
    733 TFLOPS × MFU 0.6) and 250-token answers need three L40S at 70 % utilisation, while one H100
    serves them for less. The report says so with the numbers of one L40S replica."""
    r = expert.advise({"model": "qwen2.5-14b", "requests_per_second": 5, "latency_target_s": 2.0})
    assert family(r) in ("h100", "l40s")
    if family(r) != "l40s":
        text = r.document_recommendation
        assert "The documents pick L40S" in text and "serves about" in text and "the peak is 5.00 req/s" in text


# --- issue 11 / 000 U1: an 8B support agent at 2 000 requests/day is one GPU, with or without a target
@pytest.mark.parametrize("latency", [None, 2.0])
def test_8b_agent_at_2000_per_day_is_one_gpu(latency):
    w = {"model": "llama-3.1-8b", "requests_per_day": 2000}
    if latency is not None:
        w["latency_target_s"] = latency
    r = expert.advise(w)
    assert r.recommendation.count == 1 and r.recommendation.tensor_parallel == 1
    assert r.recommendation.ttft_p95_s <= 2.0 * 1.1 and r.recommendation.tpot_ms <= 150 * 1.1


# --- 000 D3 (Dritte Dimension: Anfragevolumen und Ziellatenz): 50 req/s × 0.8 s / 0.70 ≈ 57
def test_d3_worked_example_gives_57():
    r = expert.advise({"model": "llama-3.1-8b", "requests_per_second": 50, "inference_time_s": 0.8,
                       "output_tokens": 100})
    assert r.capacity.peak_rps == 50 and r.capacity.peak_factor == 1.0
    assert r.capacity.concurrent_inferences == pytest.approx(50 * 0.8 / 0.7, abs=0.01)   # 57.14
    assert round(r.capacity.concurrent_inferences) == 57


def test_daily_volume_gets_the_peak_factor_a_rate_does_not():
    # 4 320 000 requests/day = 50 req/s on average; × peak factor 3 = 150 req/s
    daily = Workload.model_validate({"model": "llama-3.1-8b", "requests_per_day": 4_320_000})
    rate = Workload.model_validate({"model": "llama-3.1-8b", "requests_per_second": 50})
    explicit = Workload.model_validate({"model": "llama-3.1-8b", "requests_per_second": 50, "peak_to_average": 2})
    assert daily.peak_rps == pytest.approx(150) and rate.peak_rps == 50 and explicit.peak_rps == 100


# --- 000 G5 (H100: Latenzanforderungen unter 500 ms): a 45B model under 500 ms → H100 class
def test_g5_45b_under_500ms_is_h100_class():
    r = expert.advise({"params_b": 45, "requests_per_day": 20000, "latency_target_s": 0.5})
    assert family(r) in ("h100", "h200")
    assert r.slo.ttft_target_s == 0.5 and r.slo.tpot_target_ms == 40          # MLPerf interactive 40 ms
    assert r.recommendation.ttft_p95_s <= 0.5 * 1.1


# --- 000 U3 (Komplexer multimodaler Agent, ab 70B): pure inference under budget pressure → multi-A100
def test_u3_70b_pure_inference_on_budget_is_multi_a100():
    # the cheapest is still the documents' multi-A100 (2 × A100 80 GB int8, 74 818 CHF over 36 months); since
    # issue 33 the pick is the near tie 1 × H100 NVL fp8, 235 CHF (0.3 %) dearer on one GPU and 8.2 s instead
    # of 28 s to the complete answer (departure from U3 stated in the pick line)
    r = expert.advise({"model": "llama-3.1-70b", "requests_per_day": 20000, "latency_target_s": 5,
                       "budget_limit_chf": 150000})
    cheapest = r.alternatives[0]
    assert gpu_family(CAT.gpu(cheapest.gpu)) == "a100" and cheapest.count >= 2
    assert r.near_tie and (r.recommendation.gpu, r.recommendation.count) == ("h100-nvl", 1)
    assert r.recommendation.tco_chf - cheapest.tco_chf <= 0.02 * cheapest.tco_chf


# --- issue 11 / modelling-anchors §1.4: what the latency targets mean
def test_targets_by_use_case():
    chat = targets(Workload.model_validate({"model": "llama-3.1-8b"}))
    assert (chat.ttft_s, chat.tpot_ms, chat.e2e_s) == (2.0, 150.0, None) and "000 U1" in chat.sources["ttft"]
    fast = targets(Workload.model_validate({"model": "llama-3.1-8b", "latency_target_s": 0.4}))
    assert (fast.ttft_s, fast.tpot_ms) == (0.4, 40.0) and "000 G5" in fast.sources["tpot"]
    step = targets(Workload.model_validate({"model": "llama-3.1-8b", "latency_target_s": 8, "streaming": False}))
    assert (step.ttft_s, step.tpot_ms, step.e2e_s) == (None, None, 8)
    batch = targets(Workload.model_validate({"model": "llama-3.1-8b", "streaming": False}))
    assert (batch.ttft_s, batch.tpot_ms, batch.e2e_s) == (None, None, None)
    given = targets(Workload.model_validate({"model": "llama-3.1-8b", "ttft_target_s": 1, "tpot_target_ms": 60}))
    assert (given.ttft_s, given.tpot_ms) == (1, 60)


def test_interactive_agent_is_never_sized_with_unbounded_latency():
    r = expert.advise({"model": "llama-3.1-8b", "requests_per_day": 50000})
    assert r.slo.ttft_target_s == 2.0 and r.slo.tpot_target_ms == 150.0
    assert r.recommendation.ttft_p95_s is not None and r.recommendation.tpot_ms is not None


def test_a_tiny_miss_of_the_point_estimate_does_not_change_the_choice():
    """issue 11: 2.0032 s against 2 s must not triple the cost; targets count within 10 %."""
    base = {"model": "llama-3.1-8b", "requests_per_day": 20000}
    first = search(base, CAT, sensitivity=False).recommendation
    tighter = search({**base, "ttft_target_s": first.ttft_p95_s / 1.0016}, CAT, sensitivity=False).recommendation
    assert (tighter.offer, tighter.count, tighter.precision) == (first.offer, first.count, first.precision)
    assert tighter.tco_chf == first.tco_chf


def test_marketplace_offers_are_not_picked_for_critical_production():
    critical = Workload.model_validate({"model": "llama-3.1-8b", "allow_consumer_gpus": True})
    relaxed = Workload.model_validate({"model": "llama-3.1-8b", "critical": False})
    market = {s.key for s in catalog_sources(CAT) if s.marketplace}
    assert market == {"vastai-rtx-4090", "akash-rtx-pro-6000", "akash-rtx-pro-6000-server"}
    assert not market & {s.key for s in admissible_sources(catalog_sources(CAT), critical)}
    assert market <= {s.key for s in admissible_sources(catalog_sources(CAT), relaxed)}


# --- audits get the same capacity check (issue 11: 1× L40S serving 5 M requests/day)
def test_audit_flags_a_peak_above_the_serving_capacity():
    busy = expert.audit({"gpu": "l40s", "count": 1, "workload": {"model": "llama-3.1-8b",
                                                                 "requests_per_day": 5_000_000}})
    hit = [f for f in busy.findings if f.rule_id == "d3-peak-load-exceeds-serving-capacity"]
    assert hit and hit[0].severity == "warning"
    # 5 M/day × 3 / 86 400 = 173.61 req/s at peak
    assert hit[0].facts["s.serving_peak_rps"] == pytest.approx(173.61, abs=0.01)
    assert hit[0].facts["s.serving_load_ratio"] > 10
    calm = expert.audit({"gpu": "l40s", "count": 1, "workload": {"model": "llama-3.1-8b",
                                                                 "requests_per_day": 2000}})
    assert all(f.rule_id != "d3-peak-load-exceeds-serving-capacity" for f in calm.findings)


def test_u3_with_the_default_2s_first_words_departs_with_the_reason():
    """000 U3 (multi-A100) holds when the first words may take 5 s (above); at the default 2 s the
    70B prefill of 1 500 tokens on two A100 (int8 weight-only, no FP8) is too slow, four exceed the
    150 000 CHF budget, and the report names the closest A100 configuration and what it misses."""
    r = expert.advise({"model": "llama-3.1-70b", "requests_per_day": 20000, "budget_limit_chf": 150000})
    assert family(r) != "a100"
    assert "The documents pick A100 80 GB" in r.document_recommendation
    text = r.document_recommendation
    assert "a100" in text and ("the closest, " in text or "serves about" in text)
