"""QA 46 #10: "measurements win over the estimate" only where the estimate finds no operating point
(docs/contract.md); elsewhere a measured mean utilisation more than 2× from the estimate's is named with both
numbers and which one the optimum uses."""

from expert import Expert
from expert.report.render import render

FINE = {  # 1× L40S, 8B at 20 000 requests/day (qa46 a-fine), measured mean utilisation 65 %
    "gpu": "l40s", "count": 1, "ownership": "rented", "cpu_cores": 32, "ram_gb": 256,
    "storage": {"type": "nvme", "read_mb_s": 5000}, "network_gbps": 25,
    "hosting": {"country": "CH", "provider_seat": "CH", "certifications": ["iso27001"]},
    "utilization": {"mean": 0.65, "peak": 0.85}, "latency_p95_s": 0.4, "monitoring": True, "backups": True,
    "precision": "fp16",
    "workload": {"model": "llama-3.1-8b", "requests_per_day": 20000, "data": "sensitive", "sector": "health",
                 "hosting": "ch"},
}
EXPERT = Expert()


def _text(mean, lang="en"):
    report = EXPERT.audit({**FINE, "utilization": {"mean": mean, "peak": 0.85}}, lang)
    return report, render(report, "text")


def test_a_measured_utilisation_far_from_the_estimate_is_named_with_both_numbers():
    report, text = _text(0.65)
    c = report.capacity
    # the estimate's mean: 20 000 / 86 400 = 0.2315 req/s over 3.42 req/s served = 6.8 %; 65 / 6.77 = 9.6×
    assert round(c.average_rps / c.serving_capacity_rps, 3) == 0.068
    assert "measurements win" not in text
    assert "measured: mean utilisation 65%, p95 latency 0.40 s\n" in text
    assert ("measured mean utilisation 65% against 6.8% estimated (the mean load over what the setup serves): "
            "9.6× apart, more than 2×; check the engine, its batching and the stated volume. The optimum and its "
            "saving use the estimate.") in text
    _, de = _text(0.65, "de")
    assert "gemessene mittlere Auslastung 65% gegenüber 6,8% geschätzt" in de


def test_a_measured_utilisation_near_the_estimate_adds_nothing():
    # 10 % measured against 6.8 % estimated: 1.5× apart, within 2×
    _, text = _text(0.10)
    assert "measured: mean utilisation 10%, p95 latency 0.40 s\n" in text
    assert "estimated (the mean load" not in text and "measurements win" not in text
