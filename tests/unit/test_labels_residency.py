"""Labels and residency rules that read right to an expert (issue 33, item 5)."""

from __future__ import annotations

import expert
from expert.report.models import Choice
from expert.report.render import choice_line

HEALTH = {"model": "llama-3.1-8b", "requests_per_day": 2000, "data": "sensitive", "sector": "health"}


def _ids(report) -> set[str]:
    return {f.rule_id for f in report.findings}


def test_used_purchase_is_called_used_on_the_recommendation_line():
    used = Choice(gpu="a100-80gb-pcie", count=1, source="purchase", offer="purchase:a100-80gb-pcie:used",
                  precision="int8", interconnect="pcie", monthly_cost_chf=722.1, tco_chf=25996.0, horizon_months=36,
                  fits=True)
    assert choice_line(used, "en").startswith("1× a100-80gb-pcie (purchase, used), int8")
    assert choice_line(used, "de").startswith("1× a100-80gb-pcie (Kauf, gebraucht), int8")


def test_owned_server_with_a_site_is_located():
    # an owned server whose workload names its site (CH) is not "server location unknown"; without a site it is
    owned = {"gpu": "l40s", "ownership": "owned", "workload": {**HEALTH, "hosting": "ch", "site_country": "CH"}}
    assert "m4-server-location-unknown" not in _ids(expert.audit(owned))
    owned["workload"].pop("site_country")
    assert "m4-server-location-unknown" in _ids(expert.audit(owned))


def test_hds_note_only_with_a_french_connection():
    # Swiss health data with nothing French (hosted in CH): no HDS note; a French site, or a setup hosted in
    # France, has it; an HDS-certified French host does not
    assert not {"m4-french-health-data-needs-hds", "m4-choice-french-health-data-needs-hds"} & _ids(
        expert.advise({**HEALTH, "hosting": "ch"}))
    assert "m4-choice-french-health-data-needs-hds" in _ids(expert.advise({**HEALTH, "site_country": "FR"}))
    assert "m4-french-health-data-needs-hds" in _ids(expert.audit({"gpu": "l40s", "hosting": {"country": "FR"},
                                                                  "workload": HEALTH}))
    assert "m4-french-health-data-needs-hds" not in _ids(expert.audit({"gpu": "l40s", "hosting": {"country": "CH"},
                                                                      "workload": HEALTH}))
    certified = {"gpu": "l40s", "hosting": {"country": "FR", "certifications": ["hds"]}, "workload": HEALTH}
    assert "m4-french-health-data-needs-hds" not in _ids(expert.audit(certified))


def test_hosting_eu_for_a_gpu_without_eu_offer_is_said():
    # a 0.5 s target for a 70B model picks the H100 NVL, which has no EU-located offer: 'eu' (EU/EEA + CH) is
    # answered in Switzerland, and said so (tests/unit/test_eu_offers.py: GPUs with an EU offer)
    workload = {"model": "llama-3.1-70b", "requests_per_day": 5000, "latency_target_s": 0.5}
    report = expert.advise({**workload, "hosting": "eu"})
    assert (report.recommendation.gpu, report.recommendation.country) == ("h100-nvl", "CH")
    finding = next(f for f in report.findings if f.rule_id == "m4-eu-hosting-answered-in-switzerland")
    assert finding.severity == "info" and "2000/518/EC" in finding.explanation
    assert "EU-located offers for h100-nvl in the catalog: 0" in finding.explanation
    assert "m4-eu-hosting-answered-in-switzerland" not in _ids(expert.advise({**workload, "hosting": "ch"}))


def test_stated_int4_keeps_its_validation_reminder():
    report = expert.advise({"model": "llama-3.1-70b", "requests_per_day": 5000, "precision": "int4"})
    assert report.recommendation.precision == "int4"
    found = {f.rule_id: f for f in report.findings}
    assert found["q2-stated-int4-still-needs-validation"].severity == "info"
    assert "q2-int4-recommendation-needs-validation" not in found
