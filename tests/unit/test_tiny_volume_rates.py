"""QA 47 #11: one request a day was printed as "no volume given" and "peak 0.00 req/s" (the report's four
decimals wrote 3.5e-05 as 0.0). 1 request / 86 400 s = 1.157e-05 req/s average, × peak factor 3 = 3.47e-05."""

from __future__ import annotations

from expert.api import Expert
from expert.report.build import rounded
from expert.report.render import render


def test_one_request_a_day_states_its_rates():
    report = Expert().advise({"model": "llama-3.1-8b", "requests_per_day": 1}, sensitivity=False)
    assert report.capacity.peak_rps == 3.5e-05 and report.capacity.average_rps == 1.2e-05
    assert report.recommendation.tpot_rate_rps == 3.5e-05
    text = render(report, "markdown")
    assert "no volume given" not in text
    assert "average 0.000012 req/s, peak 0.000035 req/s" in text
    assert "(at the peak of 0.000035 req/s per replica" in text


def test_rounding_keeps_two_significant_digits_only_where_four_decimals_write_zero():
    assert rounded(3.4722e-05) == 3.5e-05
    assert rounded(0.12345678) == 0.1235 and rounded(-0.0) == 0.0 and rounded(0.0) == 0.0
