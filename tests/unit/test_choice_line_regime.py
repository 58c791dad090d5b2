"""The steady state a choice line names (issue 33 review: agent audits printed 'at the peak of 0.00 req/s
per replica'): a workload with no volume has no peak to name, and a small rate keeps two significant digits."""

from __future__ import annotations

from expert.report.models import Choice
from expert.report.render import choice_line


def _choice(rate: float) -> Choice:
    return Choice(gpu="l40s", count=16, source="cloud", offer="runpod-secure-l40s", precision="fp16",
                  interconnect="pcie", monthly_cost_chf=712.0, tco_chf=25645.0, horizon_months=36, fits=True,
                  ttft_p95_s=0.43, tpot_ms=31.8, latency_p95_s=8.35, tpot_rate_rps=rate, tpot_batch=1.0)


def test_no_volume_names_no_peak():
    assert "(no volume given: one request at a time)" in choice_line(_choice(0.0), "en")
    assert "(kein Volumen angegeben: eine Anfrage nach der anderen)" in choice_line(_choice(0.0), "de")


def test_a_small_rate_keeps_two_significant_digits():
    # 500 tasks a day × 3 peak factor / 86 400 s over 16 replicas ≈ 0.0011 req/s each, not "0.00"
    rate = 500 * 3 / 86_400 / 16
    assert "at the peak of 0.0011 req/s per replica" in choice_line(_choice(rate), "en")
    assert "at the peak of 0.35 req/s per replica" in choice_line(_choice(0.347), "en")
