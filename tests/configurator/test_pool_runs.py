"""Where a pool's fine-tuned agents train and what their runs cost (issue 33 item 2 for pools): the search
and the report read the same records (`pool_runs.py`), so a run the search rents is not reported on the
pool's idle hours, and a run on the pool's idle nights states those nights and their degraded service."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from expert.api import Expert

T3 = yaml.safe_load((Path(__file__).resolve().parents[2] / "examples" / "agent-pool-t3.yaml").read_text("utf-8"))


def test_t3_runs_take_the_pools_idle_nights_with_their_degraded_service():
    report = Expert().advise(T3, sensitivity=False)
    runs = {r.agent: r for r in report.pool_runs}
    analyst = runs["analyst"]
    # 2× L40S at Hikube, 62 370 CHF over 36 months (the pick): 62 370 / (36 × 730 h × 2 GPUs) = 1.1867 CHF
    # per GPU-hour; the analyst's 30.54 h LoRA run at 8 idle hours a night takes ceil(30.54 / 8) = 4 nights
    # and holds 30.54 × 2 × 1.1867 = 72.47 CHF of serving capacity; monthly: 4 nights a month
    assert (analyst.where, analyst.gpu, analyst.count) == ("idle", "l40s", 2)
    assert analyst.nights_per_run == 4 and analyst.nights_per_month == pytest.approx(4.0)
    assert analyst.degraded_chf_per_run == pytest.approx(
        analyst.hours_per_run * 2 * report.recommendation.tco_chf / (36 * 730 * 2), abs=0.01)
    assert analyst.degraded_chf_per_run == pytest.approx(72.47, abs=0.05)
    line = next(x for x in report.pool if x.startswith("analyst:"))
    assert "4 nights of degraded service per run (4.0 a month)" in line and "72 CHF" in line


def test_a_run_the_nights_cannot_pay_for_is_reported_rented():
    # the tuned 8B's LoRA run rents a B200 for 1.4 h at 10.20 CHF (RunPod, per second): one idle night must
    # save 75 CHF (idle_min_saving_chf_per_night), more than the whole rented run costs, so the run is rented
    # — and the line says so instead of '... on 1× l40s (idle hours)'
    w = {"agents": [{"name": "chat", "model": "llama-3.1-8b", "requests_per_day": 20000},
                    {"name": "tuned", "model": "llama-3.1-8b", "requests_per_day": 2000, "fine_tuning": "monthly"}]}
    report = Expert().advise(w, sensitivity=False)
    run, = report.pool_runs
    assert (run.where, run.rented_because, run.gpu, run.provider) == ("rented", "saving", "b200", "RunPod")
    assert run.rented_chf_per_run == pytest.approx(10.2, abs=0.05) and run.nights_per_run == 0
    line = next(x for x in report.pool if x.startswith("tuned:"))
    assert "on 1× b200 (rented for the run's hours); RunPod, 10 CHF per run" in line
    assert "idle hours" not in line
