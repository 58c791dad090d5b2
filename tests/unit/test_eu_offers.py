"""EU-located offers (issue 33, item 5): `hosting: eu` picks an offer in the EU, `hosting: ch` never does.

Prices by hand: monthly = EUR per GPU-hour × 730 h × 0.9156 CHF/EUR (ECB 2026-05-08, tariffs.yaml fx) × 1.15
(000 T1 infrastructure; public list prices include power, so no energy line).
"""

from __future__ import annotations

import pytest

import expert
from expert.catalog.loader import load_catalog
from expert.configurator.candidates import EU_EEA_CH
from expert.interview import Interview

SMALL = {"model": "llama-3.1-8b", "requests_per_day": 20000}
EU_IDS = {"scaleway-l40s", "scaleway-h100-pcie", "ovhcloud-l40s", "ovhcloud-h100-pcie"}
BIG = {"model": "codellama-34b", "requests_per_day": 100000}


def _ids(report) -> set[str]:
    return {f.rule_id for f in report.findings}


def test_catalog_eu_offers_are_located_priced_and_dated():
    catalog = load_catalog()
    eu = {o.id: o for o in catalog.offers.values() if o.country and o.country != "CH" and o.country in EU_EEA_CH}
    assert set(eu) == EU_IDS
    for offer in eu.values():
        assert offer.provider_seat == "FR" and offer.monthly.currency == offer.hourly.currency == "EUR"
        assert offer.monthly.amount.mid == pytest.approx(offer.hourly.amount.mid * 730, abs=0.01)
        assert offer.monthly.date and "https://" in offer.monthly.source
    # Scaleway L40S: 1.47 EUR/h × 730 = 1 073.10 EUR × 0.9156 = 982.53 CHF
    assert catalog.to_chf(eu["scaleway-l40s"].monthly.amount.mid, "EUR") == pytest.approx(982.53, abs=0.01)
    assert {o.gpu for o in eu.values()} == {"l40s", "h100-pcie"}


def test_hosting_eu_picks_an_eu_offer():
    # 1 × OVHcloud h100-380: 2.80 × 730 = 2 044 EUR × 0.9156 = 1 871.49 CHF × 1.15 = 2 152.21 CHF
    # (the Swiss H100 NVL: 1 811.45 × 1.15 + energy = 2 221.14 CHF a GPU, dearer)
    report = expert.advise({**BIG, "hosting": "eu"})
    pick = report.recommendation
    assert (pick.count, pick.gpu, pick.offer, pick.country) == (1, "h100-pcie", "ovhcloud-h100-pcie", "FR")
    assert pick.monthly_cost_chf == pytest.approx(2152.21, abs=0.01)
    assert "m4-eu-hosting-answered-in-switzerland" not in _ids(report)


def test_hosting_eu_answered_in_switzerland_says_why():
    # 8B: Hikube's L40S (693.27 × 1.15 + energy = 866.25 CHF) is cheaper than Scaleway's (982.53 × 1.15 =
    # 1 129.91) and OVHcloud's (935.74 × 1.15 = 1 076.10): 'eu' admits CH, and the finding says so
    report = expert.advise({**SMALL, "hosting": "eu"})
    assert (report.recommendation.offer, report.recommendation.monthly_cost_chf) == ("hikube-l40s", pytest.approx(866.25, abs=0.01))
    finding = next(f for f in report.findings if f.rule_id == "m4-eu-hosting-answered-in-switzerland")
    assert "EU-located offers for l40s in the catalog: 2" in finding.explanation


@pytest.mark.parametrize("workload", [SMALL, BIG, {"model": "llama-3.1-70b", "requests_per_day": 5000}])
def test_hosting_ch_never_picks_an_eu_offer(workload):
    report = expert.advise({**workload, "hosting": "ch"})
    assert report.recommendation.country == "CH"
    assert not {a.offer for a in report.alternatives} & EU_IDS


def test_sensitive_data_on_an_eu_pick_still_warn():
    # 000 M4: sensitive health data hosted outside Switzerland is a warning, French hosting needs HDS
    report = expert.advise({**BIG, "hosting": "eu", "data": "sensitive", "sector": "health"})
    assert report.recommendation.country == "FR"
    found = {f.rule_id: f for f in report.findings}
    assert found["m4-offer-hosted-abroad"].severity == "warning"
    assert "1 × h100-pcie is hosted in France" in found["m4-choice-french-health-data-needs-hds"].explanation


def test_chat_answer_eu_gives_an_eu_pick():
    iv = Interview("en")
    for text in ["codellama 34b", "100000 requests per day", "no", "patient data"]:
        assert iv.next_question() is not None and iv.answer(text).ok
    while (q := iv.next_question()) is not None:
        assert iv.answer("EU" if q.id == "hosting" else "skip").ok
    assert iv.workload()["hosting"] == "eu"
    assert expert.advise(iv.workload()).recommendation.offer == "ovhcloud-h100-pcie"
