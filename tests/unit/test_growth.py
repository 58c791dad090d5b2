"""Growth is checked for memory, capacity and latency at the same load (issue 33, item 4)."""

from __future__ import annotations

import pytest

import expert
from expert.report.render import render

WORKLOAD = {"model": "llama-3.1-8b", "requests_per_day": 20000, "fine_tuning": "none", "growth_params_b": 70}


def test_70b_growth_fits_the_chosen_a100_but_cannot_serve_the_peak():
    # the pick for today's 8B: 1 × A100 80 GB int8. A 70B in int8 (about 70 GB of weights, generic dense
    # model) fits its engine budget (74.5 of 78.2 GB at the peak), but at 20 000 requests/day × peak factor
    # 3 = 0.69 req/s it serves about 0.29 req/s within the targets (W8A8 INT8 kernels, issue 32; 0.07 when
    # int8 was read weight-only at 0.75 × MBU on the KV cache too): a load of about 2.4×
    report = expert.advise(WORKLOAD)
    g = report.growth
    assert (report.recommendation.gpu, report.recommendation.precision) == ("a100-80gb-sxm", "int8")
    assert g.params_b == 70 and g.fits and g.used_per_gpu_gb < g.usable_per_gpu_gb
    assert g.peak_rps == pytest.approx(20000 / 86400 * 3, abs=1e-4)
    assert g.load_ratio == pytest.approx(g.peak_rps / g.serving_capacity_rps, rel=1e-2) and g.load_ratio > 2
    assert "m5-expected-model-does-not-serve-peak" in {f.rule_id for f in report.findings}
    text = render(report, "text")
    assert "Growth (the model expected in 12–18 months)" in text
    assert "A 70B model on 1× a100-80gb-sxm (TP 1) would use" in text and "against a peak of 0.69 req/s" in text


def test_audit_growth_that_does_not_fit_says_so():
    # 70B on one A10 (24 GB): 143.9 GB at fp16 does not fit; the text says what it would need
    report = expert.audit({"gpu": "a10", "count": 1, "workload": {"model": "llama-3.1-8b", "requests_per_day": 2000,
                                                                  "growth_params_b": 70}})
    assert report.growth is not None and not report.growth.fits
    assert "It does not fit: it needs larger or more GPUs" in report.growth.summary
    assert report.growth.serving_capacity_rps is None


def test_no_growth_no_part():
    report = expert.advise({k: v for k, v in WORKLOAD.items() if k != "growth_params_b"})
    assert report.growth is None and "growth" not in report.model_dump(mode="json")
