"""QA 46 #4: a measured p95 latency above the target the report uses (the default 2 s of 000 U1 when the
workload states none) fires r2-p95-latency-over-target and counts in `meets_targets`/`missed`."""

import pytest

from expert import Expert

SLOW = {  # 1× L40S, 8B at 20 000 requests/day, measured p95 12 s (qa46 a-slow2), no latency stated
    "gpu": "l40s", "count": 1, "ownership": "rented", "cpu_cores": 32, "ram_gb": 256,
    "storage": {"type": "nvme", "read_mb_s": 5000}, "network_gbps": 25,
    "hosting": {"country": "CH", "provider_seat": "CH", "certifications": ["iso27001"]},
    "utilization": {"mean": 0.5, "peak": 0.7}, "latency_p95_s": 12.0, "monitoring": True, "backups": True,
    "precision": "fp16",
    "workload": {"model": "llama-3.1-8b", "requests_per_day": 20000, "data": "sensitive", "sector": "health",
                 "hosting": "ch"},
}
EXPERT = Expert()


def _audit(latency_p95_s, **workload):
    setup = {**SLOW, "latency_p95_s": latency_p95_s, "workload": {**SLOW["workload"], **workload}}
    return EXPERT.audit(setup)


@pytest.mark.parametrize("workload", [{}, {"latency_target_s": 2.0}])
def test_measured_p95_over_the_target_misses_latency(workload):
    # streamed answer: the target is the first words' 2 s (U1's default, or as stated); 12 s > 2 s
    report = _audit(12.0, **workload)
    assert report.slo.ttft_target_s == 2.0
    assert "r2-p95-latency-over-target" in {f.rule_id for f in report.findings}
    assert report.audit.meets_targets is False and report.audit.missed == "latency"
    assert "This setup is the optimum" not in report.audit.summary


def test_measured_p95_within_the_target_passes():
    # 1.5 s ≤ 2 s: no latency finding, and the estimate decides (it meets the targets at this load)
    report = _audit(1.5)
    assert "r2-p95-latency-over-target" not in {f.rule_id for f in report.findings}
    assert report.audit.meets_targets is True and report.audit.missed is None


def test_answer_consumed_whole_compares_the_complete_answer():
    # not streamed, 15 s stated: the measured p95 is the complete answer's; 12 s ≤ 15 s passes, 16 s misses
    assert _audit(12.0, streaming=False, latency_target_s=15.0).audit.missed is None
    late = _audit(16.0, streaming=False, latency_target_s=15.0)
    assert late.audit.missed == "latency"
    assert any("exceeds the target of 15.00 s" in f.explanation for f in late.findings
               if f.rule_id == "r2-p95-latency-over-target")
