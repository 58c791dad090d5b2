"""A pool plan states its idle nights' degraded service as a single plan does (issue 33 review, item 5), and
checkpoint storage says why it is not priced."""

from __future__ import annotations

from pathlib import Path

import yaml

import expert
from expert.report.render import render

ROOT = Path(__file__).resolve().parents[2]


def _pool():
    return yaml.safe_load((ROOT / "tests" / "scenarios" / "advise-m2-pool-l40s-trains-monthly.scenario.yaml")
                          .read_text())["workload"]


def test_a_pool_run_on_idle_nights_states_their_nights_and_cost():
    # 2 × L40S at Hikube: 2 × 866.25 CHF × 36 months = 62 370 CHF (the pool's cost line), i.e.
    # 62 370 / (36 × 730 h × 2 GPUs) = 1.1866 CHF a GPU-hour. The analyst's LoRA run holds them 30.54 h
    # (the pool line's 30.5 h): 30.54 / 8 idle hours = 3.8 → 4 nights a run, monthly → 4.0 nights a month;
    # 30.54 h × 2 × 1.1866 = 72.5 CHF a run × 36 runs = 2 609 CHF over 36 months. The risk agent: 41.55 h
    # → 6 nights, 41.55 × 2 × 1.1866 × 36 = 3 550 CHF. No per-hour rent is admitted for this workload, so
    # the nights are the runs' only place and are kept, their cost stated
    report = expert.advise(_pool())
    lines = report.pool
    analyst = next(line for line in lines if line.startswith("analyst:"))
    risk = next(line for line in lines if line.startswith("risk:"))
    assert ("30.5 h per run on 2× l40s (idle hours: 4 nights a run, 4.0 a month of degraded service, 2 609 CHF of "
            "serving capacity over 36 months at the pool GPUs' own cost, not in the TCO)") in analyst
    assert "(idle hours: 6 nights a run, 6.0 a month of degraded service, 3 550 CHF" in risk
    assert "2 609 CHF of serving capacity" in render(report, "text")
    de = expert.advise(_pool(), lang="de").pool
    assert any("Leerlaufstunden: 4 Nächte pro Lauf, 4,0 pro Monat" in line for line in de)


def test_the_single_plan_says_checkpoint_storage_is_not_priced():
    # 13B LoRA: the adapters' parameters × 14 B; two kept; no dated storage price in the catalog
    report = expert.advise({"model": "llama-2-13b", "requests_per_day": 20000, "fine_tuning": "monthly"})
    text = render(report, "text")
    assert "GB of storage, not priced: the catalog holds no dated, cited storage price" in text
