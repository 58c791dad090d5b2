"""The documents' pick (rules/document-pick.yaml): exactly one `document_pick` for every workload, and
the documents' own cases land where the documents put them.

The grid walks model size (every boundary of the pack and values between), fine-tuning frequency
(none, yearly, quarterly, monthly, weekly), latency target (none, 0.4 s, 0.5 s, 2 s) and, for the
13-34B fine-tuned cases, U2's trade-off both ways (team time saved above and below the H100 premium).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from expert.engine import evaluate, load_packs, prepare

RULES_DIR = Path(__file__).resolve().parents[2] / "rules"
SIZES = (3, 7, 8, 12.9, 13, 14, 20, 20.5, 30, 34, 34.5, 40, 40.5, 50, 69.9, 70, 405)
RUNS = {"none": 0, "yearly": 1, "quarterly": 4, "monthly": 12, "weekly": 52}
LATENCIES = (None, 0.4, 0.5, 2.0)


@cache
def base():
    return prepare(load_packs([RULES_DIR]))


def picks(params_b, fine_tuning="none", latency=None, saved=None, premium=555.0):
    workload = {"t": "workload", "model": "generic", "params_b": params_b, "fine_tuning": fine_tuning,
                "finetune_runs_per_year": RUNS[fine_tuning], "team_hourly_rate_chf": 150}
    if latency is not None:
        workload["latency_target_s"] = latency
    facts = [workload]
    if saved is not None:
        facts += [{"t": "u2_saving", "chf_month": saved, "a100_hours_month": 10.0},
                  {"t": "h100_premium", "chf_month": premium}]
    result = evaluate(base(), facts)
    return [(f.rule_id, d["family"], d["multi_gpu"]) for f in result.fired for d in f.derived
            if d["t"] == "document_pick"]


@pytest.mark.parametrize("params_b", SIZES)
def test_exactly_one_pick_for_every_workload(params_b):
    for fine_tuning in RUNS:
        for latency in LATENCIES:
            for saved in ((None,) if fine_tuning == "none" else (100.0, 5000.0)):
                got = picks(params_b, fine_tuning, latency, saved)
                assert len(got) == 1, (params_b, fine_tuning, latency, saved, got)


@pytest.mark.parametrize("params_b,fine_tuning,latency,saved,expected", [
    (8, "none", 2.0, None, ("u1-conversational-inference-l40s", "l40s", False)),     # U1, G7
    (20, "none", None, None, ("u1-conversational-inference-l40s", "l40s", False)),   # G7: 7-20B
    (30, "none", None, None, ("g2-pick-a100-reference", "a100", False)),             # G2: 7-34B
    (8, "quarterly", None, 100.0, ("u1-conversational-retrained-a100", "a100", False)),  # U1 retrained
    (8, "monthly", None, 100.0, ("m2-pick-at-least-a100", "a100", False)),           # M2
    (8, "yearly", None, 100.0, ("g2-occasional-finetuning-a100", "a100", False)),     # G2 occasional
    (34, "yearly", None, 100.0, ("g2-occasional-finetuning-a100", "a100", False)),    # G2: up to 34B
    (40, "yearly", None, 100.0, ("g2-pick-a100-reference", "a100", False)),           # issue 33: not "7-34B" at 40B
    (13, "monthly", None, 100.0, ("u2-analytical-a100", "a100", False)),             # U2, H100 does not pay
    (30, "quarterly", None, 5000.0, ("u2-analytical-h100-for-finetuning", "h100", False)),  # U2 pays
    (8, "none", 0.4, None, ("g5-pick-h100-low-latency", "h100", False)),             # G5 < 500 ms
    (8, "none", 0.5, None, ("u1-conversational-inference-l40s", "l40s", False)),     # 500 ms is not under
    (50, "none", None, None, ("g5-pick-h100-above-40b", "h100", True)),              # G5 > 40B
    (70, "none", 0.4, None, ("u3-multimodal-inference-multi-a100", "a100", True)),   # U3 from 70B
    (70, "monthly", None, 5000.0, ("u3-multimodal-monthly-h100", "h100", True)),     # U3 15 -> 5 days
])
def test_the_documents_cases(params_b, fine_tuning, latency, saved, expected):
    assert picks(params_b, fine_tuning, latency, saved) == [expected]
