"""Short answers and true comparisons (issue 32, item 4): a short answer is used when complete, so its
latency target is the complete answer's; a sentence that compares a figure with its target is true as
printed."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from expert.api import Expert
from expert.configurator.document import meets_reason
from expert.inputs.slo import SHORT_OUTPUT_TOKENS, Targets, targets
from expert.inputs.workload import Workload


def _w(**fields) -> Workload:
    return Workload.model_validate({"model": "llama-3.1-8b", "requests_per_day": 100000, **fields})


def test_a_short_answer_is_sized_complete():
    # a router answering in 12 tokens: the 0.5 s are the complete answer's, no TTFT or TPOT of its own
    short = targets(_w(output_tokens=12, latency_target_s=0.5))
    assert (short.ttft_s, short.tpot_ms, short.e2e_s) == (None, None, 0.5)
    assert "short answer (12 ≤ 32 tokens)" in short.sources["e2e"]
    # without a target: 000 U1's 2 s, for the complete answer
    assert targets(_w(output_tokens=12)).e2e_s == 2.0
    # the bound: 32 tokens is short, 33 is streamed (the first words within 0.5 s, G5's 40 ms per token)
    assert targets(_w(output_tokens=SHORT_OUTPUT_TOKENS, latency_target_s=0.5)).e2e_s == 0.5
    longer = targets(_w(output_tokens=SHORT_OUTPUT_TOKENS + 1, latency_target_s=0.5))
    assert (longer.ttft_s, longer.tpot_ms, longer.e2e_s) == (0.5, 40.0, None)


def test_targets_stated_for_a_short_answer_are_kept():
    stated = targets(_w(output_tokens=12, ttft_target_s=0.2, tpot_target_ms=30))
    assert (stated.ttft_s, stated.tpot_ms, stated.e2e_s) == (0.2, 30, None)


def test_the_recommended_router_answers_complete_within_its_target():
    report = Expert().advise({"model": "llama-3.1-8b", "requests_per_day": 100000, "prompt_tokens": 500,
                              "output_tokens": 12, "latency_target_s": 0.4}, sensitivity=False)
    rec = report.recommendation
    assert report.slo.e2e_target_s == 0.4 and report.slo.ttft_target_s is None
    assert rec.latency_p95_s <= 0.4 * (1 + report.slo.tolerance)


def _reason(ttft: float, tpot_ms: float, e2e: float, slo: Targets) -> str:
    ctx = SimpleNamespace(slo=slo, peak_rps=3.47, agent=None)  # not an agent loop: req/s
    c = SimpleNamespace(ttft=ttft, tpot=tpot_ms / 1000, latency=e2e, count=1, source=SimpleNamespace(gpu=SimpleNamespace(id="l40s")))
    return meets_reason(ctx, c)


def test_a_comparison_is_true_as_printed():
    slo = Targets(0.5, 40.0, None, True, {})
    below = _reason(0.31, 39.96, 1.0, slo)
    assert below["en"].endswith("TTFT 0.31 s ≤ 0.50 s, TPOT 40.0 ms ≤ 40.0 ms")
    # 40.3 ms is not ≤ 40.0 ms: inside the 10 % tolerance, and the sentence says so
    above = _reason(0.31, 40.3, 1.0, slo)
    assert above["en"].endswith("TPOT 40.3 ms, within 10 % of 40.0 ms")
    assert above["de"].endswith("TPOT 40,3 ms, innerhalb 10 % von 40,0 ms")
