"""QA 46 #9: the mistake-2 findings read the plan's training GPU, time the setup and the A100 80 GB like for
like (the same count, CPU offload on both or neither; a run that does not fit is not timed) and count team
time in attended hours (8 per calendar day of a run), saying when the plan does not count it (opt-in
`fine_tuning.team_waits`). Expectations computed by hand below."""

from __future__ import annotations

import pytest

import expert
from expert.sizing.ft_run import job_run
from expert.catalog import load_catalog

CAT = load_catalog()


def _audit(model: str, method: str, team_waits: bool | None = None):
    tuning = {"frequency": "weekly", "method": method, "dataset_tokens": 50_000_000}
    if team_waits is not None:
        tuning["team_waits"] = team_waits
    return expert.audit({"gpu": "l40s", "count": 1, "ownership": "rented", "ram_gb": 256, "training_gpus": "serving",
                         "workload": {"model": model, "requests_per_day": 5000, "fine_tuning": tuning}})


def _finding(report, rule_id: str):
    return next((f for f in report.findings if f.rule_id == rule_id), None)


def test_a_run_that_does_not_fit_the_l40s_is_not_timed_against_an_offloaded_a100():
    # 13B full on one L40S: even offloaded, 13e9 × 4 B = 52 GB of 16-bit weights and grads > 45.9 GB usable.
    # Before: "30.4 h here (without offload, does not fit) against 13.0 h on an A100 (with offload)", 2.3×.
    report = _audit("llama-2-13b", "full")
    ids = {f.rule_id for f in report.findings}
    assert "m2-l40s-frequent-finetuning" not in ids and "m2-l40s-frequent-finetuning-no-estimate" in ids
    assert "does not fit this setup, even with CPU offload" in _finding(
        report, "m2-l40s-frequent-finetuning-no-estimate").explanation
    assert not {"m2-team-time-against-gpu-saving", "m2-team-time-not-counted"} & ids


def test_the_same_offload_on_both_gpus_and_attended_team_hours_not_counted_by_default():
    # 8B full, 50 M tokens, both with CPU offload (128 GB of states fit neither card whole):
    # A100 PCIe: 6 × 8e9 × 5e7 / (312e12 × 0.40 × 0.67 × 0.993) = 8.0 h; L40S 27.9 h (3.5×, M2's 3-4×).
    # Attended: L40S 8 + 3.9 = 11.9 h, A100 8.0 h; 3.9 h × 52/12 runs × 150 CHF = 2 538 CHF a month
    # (before: every compute hour, (27.9 − 8.0) × 52/12 × 150 = 12 941).
    report = _audit("llama-3.1-8b", "full")
    m2 = _finding(report, "m2-l40s-frequent-finetuning")
    assert "27.9 h here against 8.0 h on an A100 80 GB" in m2.explanation
    assert "2 538 CHF" not in m2.explanation
    note = _finding(report, "m2-team-time-not-counted")
    assert "Team time is not counted (opt-in: fine_tuning.team_waits)" in note.explanation
    assert "2 538 CHF a month in attended hours" in note.explanation
    assert _finding(report, "m2-team-time-against-gpu-saving") is None


def test_team_time_counted_when_the_workload_opts_in():
    report = _audit("llama-3.1-8b", "full", team_waits=True)
    assert "2 538 CHF a month in team time" in _finding(report, "m2-team-time-against-gpu-saving").explanation
    assert _finding(report, "m2-team-time-not-counted") is None


def test_estimate_team_cost_per_run_counts_attended_hours():
    # 8B full on one L40S with offload, 50 M tokens: 27.91 h = one day + 3.91 h → 8 + 3.91 = 11.91 attended
    # hours × 150 CHF = 1 786 CHF a run (before: 27.91 × 150 = 4 186)
    run = job_run(CAT.model("llama-3.1-8b"), CAT.gpu("l40s"), 1, "full", 50_000_000, team_hourly_rate_chf=150)
    assert run.hours == pytest.approx(27.91, abs=0.01)
    assert run.team_cost_per_run_chf == pytest.approx((8 + run.hours - 24) * 150)


def test_below_a100_warning_follows_the_plans_training_gpu():
    # QA 46 #9a (op70b-mixed): served on one RTX PRO 6000 Server, trained on a dedicated bought A100: the
    # warning about fine-tuning on the RTX PRO 6000 no longer fires; R3's hybrid line names the A100.
    r = expert.advise({"model": "llama-3.3-70b", "requests_per_day": 10000, "deployment": "on_premise",
                       "budget": "capex", "site_country": "DE", "hosting": "eu",
                       "fine_tuning": {"frequency": "weekly", "method": "qlora", "dataset_tokens": 30_000_000}})
    assert (r.recommendation.gpu, r.training_plan.chosen) == ("rtx-pro-6000-server", "dedicated")
    ids = {f.rule_id for f in r.findings}
    assert "m2-below-a100-frequent-finetuning" not in ids
    assert "a100-80gb-pcie" in _finding(r, "r3-choice-fine-tuning-on-separate-gpus").explanation
