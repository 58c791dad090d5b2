"""The audit sizes its memory at the operating point it serves the peak at, as the advice sizes its pick
(QA 45 #5): before, it held one sequence and called it "at the peak"."""

from __future__ import annotations

import pytest

import expert

SCOUT = {"model": "llama-4-scout", "precision": "int4", "requests_per_day": 30000}


def test_audit_and_advice_size_the_same_point_alike():
    # Llama-4-Scout int4 on 1 × A100 80 GB SXM at 30 000 requests a day: the advice's pick; audited, its
    # memory section must be the advice's (QA 45: audit KV 0.3 GB, total 65.0 GB, reserve 17 % against the
    # advice's 7.6 GB, 72.2 GB, 8 %)
    advice = expert.advise(SCOUT)
    rec = advice.recommendation
    assert (rec.gpu, rec.count, rec.precision) == ("a100-80gb-sxm", 1, "int4")
    audit = expert.audit({"gpu": rec.gpu, "count": rec.count, "precision": "int4", "workload": SCOUT})
    a, m = advice.memory, audit.memory
    # 0.347 req/s × 3 = 1.04 req/s at the peak, 21.1 concurrent inferences (000 D3); the replica holds its
    # operating batch, the 21 sequences the search's memory check admitted (QA 47 #1; 22 before: 72.2 GB)
    assert audit.capacity.concurrent_inferences == pytest.approx(advice.capacity.concurrent_inferences, rel=1e-3)
    assert m.kv_cache_gb == pytest.approx(a.kv_cache_gb, abs=1e-3) and m.kv_cache_gb > 7
    assert m.total_gb == pytest.approx(a.total_gb, abs=1e-3) and m.total_gb == pytest.approx(71.9, abs=0.05)
    assert m.reserve_ratio == pytest.approx(a.reserve_ratio, abs=0.01)


def test_an_audit_beyond_its_capacity_holds_the_sequences_of_its_peak():
    # gpt-oss-120b (mxfp4) on one A100 at 100 000 requests a day: 3.47 req/s at the peak, 104 concurrent
    # inferences (000 D3) on the one replica; before, the KV of one sequence (0.1 GB) beside "104". 104 × 2 500
    # tokens hold 10.2 GB of KV: 65.2 + 10.2 + 4.1 = 79.5 GB of 78.2 usable, the reserve is negative
    report = expert.audit({"gpu": "a100-80gb-sxm", "count": 1, "precision": "mxfp4",
                           "workload": {"model": "gpt-oss-120b", "requests_per_day": 100000,
                                        "prompt_tokens": 2000, "output_tokens": 500}})
    assert report.capacity.concurrent_inferences == pytest.approx(104.0, abs=0.5)
    assert report.memory.kv_cache_gb > 10 and report.memory.reserve_ratio < 0
