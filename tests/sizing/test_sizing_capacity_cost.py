"""Capacity (000 D3 applied to a workload) and cost (000 T1-T5) beyond the conformance cases."""

from __future__ import annotations

import pytest
from sizing_fixtures import GPUS, MODELS

from expert.catalog.models import Band, Offer, Price, PurchasePrice
from expert.sizing import (buy_cost, capacity, cost, cost_per_million_tokens, cost_per_request,
                           full_break_even_months, latency_limited_batch, rent_cost, request_rates, resale_share)

A100, H100, L40S = GPUS["a100-80gb-sxm"], GPUS["h100-sxm"], GPUS["l40s"]


def test_request_rates():
    # 172 800 requests/day / 86 400 s = 2 rps average; × 3 = 6 rps peak
    assert request_rates(requests_per_day=172_800, peak_to_average=3) == pytest.approx((2.0, 6.0))
    assert request_rates(requests_per_second=5, peak_to_average=1) == (5, 5)
    with pytest.raises(ValueError):
        request_rates(requests_per_day=1, requests_per_second=1)


def test_capacity_utilisation_at_a_count():
    # peak 6 rps × 2 s = 12 busy sequences; 3 replicas × 8 = 24 slots → 50 %; need 12/0.7 = 17.1 → 3 replicas
    cap = capacity(2, 6, 2.0, sequences_per_replica=8, tensor_parallel=2, count=6)
    assert cap.concurrent_inferences == pytest.approx(17.142857, rel=1e-6)
    assert cap.replicas_needed == 3 and cap.gpus_needed == 6
    assert cap.utilization == pytest.approx(0.5) and cap.average_utilization == pytest.approx(4 / 24)
    assert capacity(2, 6, 2.0, sequences_per_replica=0).gpus_needed is None


def test_latency_limited_batch_is_the_largest_meeting_the_target():
    m = MODELS["llama-3.1-8b"]
    b = latency_limited_batch(m, H100, 1, "fp16", 1500, 250, 2.0, 256)
    assert b >= 1
    from expert.sizing import performance
    assert performance(m, H100, batch=b).e2e_latency_s <= 2.0
    if b < 256:
        assert performance(m, H100, batch=b + 1).e2e_latency_s > 2.0
    assert latency_limited_batch(m, L40S, 1, "fp16", 1500, 250, 2.0, 256) == 0  # 250 × 26 ms > 2 s


def test_rent_with_market_range_and_fx():
    # A100 market range 1 200-1 800 CHF → point 1 500; 36 months × 1.15 + 2 838.24 energy
    r = rent_cost(A100, (1200, 1800), months=36)
    assert r.total_chf == pytest.approx(1500 * 36 * 1.15 + 2838.24)
    assert (r.bands["total_chf"].low, r.bands["total_chf"].high) == pytest.approx(
        (1200 * 41.4 + 2838.24, 1800 * 41.4 + 2838.24))
    offer = Offer(id="x", provider="p", kind="market-range", gpu="a100-80gb-sxm", sources={"default": "t"},
                  monthly=Price(amount=Band(low=1000, high=1000), currency="EUR", date="2025", basis="GPU-month",
                                source="t"))
    eur = rent_cost(A100, offer, months=1, fx=lambda amount, cur: amount * 0.95)
    assert eur.monthly_rent_chf == pytest.approx(950)
    with pytest.raises(ValueError):
        rent_cost(A100, offer)  # EUR without fx


def test_buy_resale_for_other_horizons():
    # steeper early (expert.sizing.buyrent): 0.35^sqrt(12/36) = 0.35^0.57735 = 0.5455 after 12 months,
    # 0.35^(60/36) = 0.1740 after 60; minus selling costs 10 % (5-15 %): 0.4909 and 0.1566.
    # A constant yearly rate would keep 0.35^(1/3) = 70.5 % after 12 months (issue 13).
    assert resale_share(12)[0] == pytest.approx(0.35 ** (1 / 3) ** 0.5 * 0.9)
    assert resale_share(12)[0] == pytest.approx(0.4909, abs=1e-4)
    assert resale_share(60)[0] == pytest.approx(0.35 ** (60 / 36) * 0.9)
    price = PurchasePrice(gpu="a100-80gb-sxm", price=Price(amount=15000, currency="CHF", date="2025",
                                                           basis="per GPU, new", source="000 T4"))
    r = buy_cost(A100, price, count=2, months=12)
    # 2 × 15 000 × 1.15 + energy 0.8 kW × 1.5 × 8 760 h × 0.18 − 30 000 × 0.4909
    assert r.total_chf == pytest.approx(30000 * 1.15 + 0.8 * 1.5 * 8760 * 0.18 - 30000 * 0.35 ** (1 / 3) ** 0.5 * 0.9)
    assert r.infrastructure_chf == pytest.approx(0.15 * 30000)


def test_cost_dispatch_and_contract_fields():
    r = cost(L40S, "rent", count=2, months=36, monthly_rent=693.26, purchase=8000)
    assert list(r.contract()) == ["gpu", "count", "months", "mode", "monthly_rent_chf", "purchase_chf",
                                  "energy_chf", "infrastructure_chf", "resale_chf", "total_chf",
                                  "break_even_months", "cost_per_month_chf"]
    assert r.monthly_rent_chf == pytest.approx(2 * 693.26) and r.purchase_chf == 16000
    assert r.cost_per_month_chf == pytest.approx(r.total_chf / 36)
    with pytest.raises(ValueError):
        cost(L40S, "lease", monthly_rent=1)
    with pytest.raises(ValueError):
        cost(L40S, "buy")


def test_full_break_even_never_when_rent_is_cheap():
    # 1.15 × 100 − 0.15 × 30 000 / 36 = 115 − 125 < 0 → renting never costs more
    assert full_break_even_months(30000, 100, 36) is None


def test_unit_costs_divide_by_utilisation():
    # 1 000 CHF/month at 1 000 tok/s, 50 % used: 1 000 / (1 000 × 0.5 × 730 × 3 600) × 1e6 = 0.761 CHF/Mtok
    assert cost_per_million_tokens(1000, 1000, 0.5) == pytest.approx(1000 / (500 * 2_628_000) * 1e6)
    assert cost_per_million_tokens(1000, 1000, 0.5) == pytest.approx(2 * cost_per_million_tokens(1000, 1000))
    # 000 R2: GPU cost / requests processed: 1 000 CHF / (2 rps × 0.25 × 2 628 000 s)
    assert cost_per_request(1000, 2, 0.25) == pytest.approx(1000 / (0.5 * 2_628_000))


def test_offer_energy_tdp_overrides_vendor_tdp():
    # 000's provider prices assume 000's TDP (A100 400 W) even for the PCIe card (vendor 300 W):
    # 0.4 kW × 1.5 × 26 280 h × 0.18 = 2 838.24 CHF instead of 2 128.68
    offer = Offer(id="p", provider="p", kind="provider-catalog", gpu="a100-80gb-pcie", energy_tdp_w=400,
                  sources={"default": "t"},
                  monthly=Price(amount=1380.0, currency="CHF", date="2025", basis="GPU-month", source="t"))
    assert rent_cost(GPUS["a100-80gb-pcie"], offer, months=36).energy_chf == pytest.approx(2838.24)
    assert rent_cost(GPUS["a100-80gb-pcie"], 1380.0, months=36).energy_chf == pytest.approx(2128.68)
