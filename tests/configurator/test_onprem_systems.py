"""On-premise as complete systems (issue 13): table tests of packages, purchases, the own site and the
one buy-versus-rent answer shared by the report and the chat's cost chart.

Hand computations use the catalog's tariffs (000 T1: 0.18 CHF/kWh, cooling × 1.5, 730 h, +15 %; T5:
35 % after 36 months) and the project's own estimate of 10 % selling costs, so the net resale after
36 months is 35 % × 0.9 = 31.5 % of the price.
"""

from __future__ import annotations

import pytest

from expert.api import Expert
from expert.catalog.loader import Catalog, load_catalog
from expert.configurator import search

FULL = load_catalog()
EXPERT = Expert()


def advise(workload: dict):
    return EXPERT.advise(workload, sensitivity=False)


def packages_only() -> Catalog:
    cat = Catalog(FULL.gpus, FULL.models, FULL.packages, FULL.offers,
                  FULL.tariffs.model_copy(update={"purchase": []}), FULL.chassis)
    object.__setattr__(cat, "_aliases", FULL._aliases)
    return cat


# Energy per month of P watts = P/1000 × 1.5 × 730 × 0.18 CHF; TCO = price × 1.15 + 36 × energy − price × 0.315.
# N1 = 1 × RTX PRO 6000 workstation, price mid (10 490.2 + 16 309.02) / 2 = 13 399.61 (tests/catalog/test_bom.py),
#   600 + 300 W = 900 W: 13 399.61 × 1.15 + 36 × 177.39 − 13 399.61 × 0.315 = 15 409.55 + 6 386.04 − 4 220.88
#   = 17 574.71
# N2 = 2 × RTX PRO 6000 workstation: GPUs 13 390.2 + board 1 176.65 + CPU 64 × 67.7 = 4 332.8 + RAM 768 GB ×
#   6.815 = 5 233.92 + NVMe 335 + PSU 409.5 + NIC 275 = 25 153.07; 1 200 + 300 W = 1 500 W:
#   25 153.07 × 1.15 + 36 × 295.65 − 25 153.07 × 0.315 = 28 926.03 + 10 643.40 − 7 923.22 = 31 646.21
# Package 1 = 2 × used A100 PCIe in the 8-10-slot server: GPUs 2 × 11 500 USD × 0.7785 = 17 905.5 + chassis
#   18 500 + CPU 4 332.8 + RAM 640 GB × 6.815 = 4 361.6 + NVMe 335 + NIC 275 = 45 709.9; 600 + 1 150 W = 1 750 W:
#   45 709.9 × 1.15 + 36 × 344.93 − 45 709.9 × 0.315 = 52 566.38 + 12 417.30 − 14 398.62 = 50 585.07
@pytest.mark.parametrize("workload,package,tco", [
    ({"model": "llama-3.1-8b", "requests_per_day": 2000, "critical": False}, "N1", 17574.71),
    ({"params_b": 34, "requests_per_day": 5000, "critical": False}, "N1", 17574.71),
    # 40 000 requests/day = 1.39 req/s at the peak: one RTX PRO 6000 serves 0.69 req/s in the continuous-
    # batching steady state (issue 22: TPOT 95 ms, TTFT p95 1.6 s at 20 000 a day), so twice that needs N2
    ({"model": "llama-3.1-70b", "requests_per_day": 40000, "critical": False}, "N2", 31646.21),
    # critical: no workstation cards; 2 000 requests/day (0.07 req/s at the peak), since at 20 000 a day one
    # replica of 2 × A100 PCIe cannot carry 70B's 1 500-token prefills within D3's utilisation (docs/slo.md)
    ({"model": "llama-3.1-70b", "requests_per_day": 2000}, "1", 50585.07),
])
def test_cheapest_package_matches_the_hand_computation(workload, package, tco):
    r = search({**workload, "deployment": "on_premise"}, packages_only(), sensitivity=False)
    assert r.recommendation.package == package
    assert r.recommendation.tco_chf == pytest.approx(tco, abs=0.02)


def test_on_premise_70b_gets_a_complete_system_never_bare_gpus():
    # The case: 2 bare RTX PRO 6000 Server cards at 19 227 CHF over 36 months beat every package.
    w = {"model": "llama-3.1-70b", "requests_per_day": 20000, "deployment": "on_premise", "budget": "capex"}
    r = search(w, FULL, sensitivity=False)
    for choice in [r.recommendation, *r.alternatives]:
        assert choice.source in ("package", "purchase")
        assert choice.chassis in FULL.chassis                      # always inside a chassis class
        gpu = FULL.purchase_price(choice.gpu, choice.condition or "new") or FULL.purchase_price(choice.gpu, "used")
        bare = choice.count * FULL.to_chf(gpu.price.amount.mid, gpu.price.currency) if gpu else 0
        assert choice.upfront_chf > bare                           # the host is paid as well
        if FULL.gpus[choice.gpu].form_factor == "sxm":
            assert choice.count == 8                               # SXM only as an 8-GPU HGX system
    assert r.recommendation.tco_chf > 19227


def test_twelve_month_capex_horizon_rents():
    # 000 T5: "under 18 months … renting is preferable"; a workload free to choose rents at 12 months
    w = {"model": "llama-3.1-8b", "requests_per_day": 20000, "budget": "capex", "horizon_months": 12}
    r = search(w, FULL, sensitivity=False)
    assert r.recommendation.source == "cloud"
    assert any("000 T5" in note for note in r.notes)
    assert search({**w, "horizon_months": 24}, FULL, sensitivity=False).recommendation.source != "cloud"


def _fired(report) -> set[str]:
    return {f.rule_id for f in report.fired_rules}


def test_own_swiss_site_has_no_server_location_warning():
    w = {"model": "llama-3.1-70b", "requests_per_day": 20000, "deployment": "on_premise", "data": "sensitive",
         "sector": "health", "hosting": "ch"}
    own = advise({**w, "site_country": "CH"})
    assert own.recommendation.country == "CH"
    assert "m4-server-location-unknown" not in _fired(own)
    unknown = advise(w)                          # no site named: the location is unknown
    assert "m4-server-location-unknown" in _fired(unknown)


def test_site_abroad_does_not_meet_swiss_hosting():
    w = {"model": "llama-3.1-8b", "requests_per_day": 2000, "deployment": "on_premise", "hosting": "ch",
         "site_country": "de"}
    r = search(w, FULL, sensitivity=False)
    assert r.recommendation is None and r.nothing_fits


@pytest.mark.parametrize("workload", [
    {"model": "llama-3.1-8b", "requests_per_day": 20000},
    {"model": "llama-3.1-70b", "requests_per_day": 20000},
    {"model": "mistral-7b", "requests_per_day": 500},
    {"model": "llama-3.1-70b", "requests_per_day": 200000, "horizon_months": 60},
])
def test_chat_cheapest_equals_the_report(workload):
    from tui.costs import buy_or_rent, compare

    report = advise({**workload, "budget": "any"})
    rent, buy, horizon = compare(report)
    rented = [c.tco_chf for c in [report.recommendation, *report.alternatives] if c.source == "cloud"]
    assert buy is not None
    # the chat compares with the cheapest rental the report shows; 70B at 200 000/day over 60 months shows
    # only purchases (eight, all cheaper than any rental since W8A8 INT8, issue 32): no rent line then
    assert (rent is None) == (not rented)
    if rented:
        assert rent.total == pytest.approx(min(rented), abs=0.05)
    kind = "rent" if report.recommendation.source == "cloud" else "buy"
    if rent is not None:
        assert buy_or_rent(rent, buy) == kind


def test_owned_setup_at_own_swiss_site_is_a_known_location():
    setup = {"gpu": "a100-80gb-pcie", "count": 2, "ownership": "owned",
             "workload": {"model": "llama-3.1-70b", "requests_per_day": 20000, "data": "sensitive",
                          "sector": "health", "hosting": "ch"}}
    assert "m4-server-location-unknown" in _fired(EXPERT.audit(setup))
    assert "m4-server-location-unknown" not in _fired(EXPERT.audit({**setup, "site_country": "CH"}))


def test_site_country_is_validated():
    from pydantic import ValidationError

    from expert.inputs.workload import Workload

    assert Workload(model="llama-3.1-8b", site_country="ch").site_country == "CH"
    with pytest.raises(ValidationError, match="site_country"):
        Workload(model="llama-3.1-8b", site_country="Switzerland")
