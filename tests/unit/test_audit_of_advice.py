"""Auditing the setup `advise --setup-out` wrote reproduces the advice's figures (QA 47 #4-#7, #10):
its price, its volume, its memory and its high availability, and calls it what advise called it."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

import expert

ROOT = Path(__file__).resolve().parents[2]


def _round_trip(workload: dict | str):
    """(advice, the setup file as `--setup-out` writes it, read back, audit of it)."""
    if isinstance(workload, str):
        workload = yaml.safe_load((ROOT / workload).read_text(encoding="utf-8"))
    tool = expert.Expert()
    advice = tool.advise(workload)
    setup = yaml.safe_load(yaml.safe_dump(tool.recommended_setups(advice, workload), sort_keys=False))[0]
    return advice, setup, tool.audit(setup)


def test_rented_pick_is_audited_at_its_own_offer():
    # QA 47 #5: the CI agent's pick, 2× A100 80 GB SXM at RunPod: 1 160.7 USD × 0.7785 CHF/USD × 1.15 (000 T1
    # infrastructure) = 1 039.1 CHF per GPU and month, × 2 = 2 078.2 (a list price: no energy line). Before,
    # the setup carried no offer and the audit priced Hikube's 3 332 CHF, "1 253 CHF a month less at RunPod".
    advice, setup, audit = _round_trip("examples/agent-ci.yaml")
    assert setup["offer"] == "runpod-secure-a100-80gb-sxm" == advice.recommendation.offer
    mine = audit.audit.setup
    assert mine.offer == "runpod-secure-a100-80gb-sxm"
    assert abs(mine.monthly_cost_chf - 2 * 1160.7 * 0.7785 * 1.15) < 1
    assert abs(mine.monthly_cost_chf / advice.recommendation.monthly_cost_chf - 1) < 0.01
    assert audit.audit.saving_chf_month < 1 and audit.audit.is_optimum   # before: 1 253 CHF "less" against itself


def test_a_stated_offer_of_another_gpu_is_one_line_exit_2(tmp_path):
    import subprocess
    import sys

    bad = tmp_path / "setup.yaml"
    bad.write_text(yaml.safe_dump({"gpu": "a100-80gb-sxm", "offer": "hikube-l40s",
                                   "workload": {"model": "llama-3.1-8b", "requests_per_day": 100}}))
    run = subprocess.run([sys.executable, "-m", "expert", "audit", str(bad)], capture_output=True, text=True,
                         cwd=ROOT)
    assert run.returncode == 2 and "Traceback" not in run.stderr
    assert "field offer: offer 'hikube-l40s' rents l40s, not a100-80gb-sxm" in run.stderr
    owned = tmp_path / "owned.yaml"
    owned.write_text(yaml.safe_dump({"gpu": "l40s", "ownership": "owned", "offer": "hikube-l40s"}))
    run = subprocess.run([sys.executable, "-m", "expert", "audit", str(owned)], capture_output=True, text=True,
                         cwd=ROOT)
    assert run.returncode == 2 and "Traceback" not in run.stderr and "offer" in run.stderr


def test_agent_tasks_per_day_is_the_audits_stated_volume():
    # QA 47 #6: the CI agent states agent.tasks_per_day: 3000 (no requests_per_day); advise says "processes
    # 3,000 requests per day", the audit of its pick said "an unstated number of" (German: "eine nicht
    # angegebene Zahl von")
    advice, setup, audit = _round_trip("examples/agent-ci.yaml")
    assert setup["workload"]["agent"]["tasks_per_day"] == 3000
    assert "processes 3,000 requests per day" in advice.clarification
    assert "processes 3,000 requests per day" in audit.clarification
    german = expert.Expert().audit(setup, lang="de").clarification
    assert "verarbeitet 3 000 Anfragen pro Tag" in german and "nicht angegebene" not in german


HA_8B = {"model": "llama-3.1-8b", "requests_per_day": 2000, "deployment": "on_premise", "budget": "capex",
         "site_country": "CH", "high_availability": True}


def test_highly_available_pick_is_audited_over_its_servers():
    # QA 47 #4: advise's HA pick for an 8B at 2 000 requests/day on premises is 2× L40S in two servers (one
    # replica serves the peak, plus one, in 2 failure domains): 49 653 CHF over 36 months, two 1-GPU systems.
    # Before, the setup carried no servers and the audit priced one 2-GPU system, 37 121 CHF, "the optimum".
    advice, setup, audit = _round_trip(HA_8B)
    pick = advice.recommendation
    assert len(pick.failure_domains) == 2 and setup["servers"] == [1, 1]
    mine = audit.audit.setup
    assert abs(mine.tco_chf / pick.tco_chf - 1) < 0.01 and abs(mine.upfront_chf / pick.upfront_chf - 1) < 0.01
    assert mine.failure_domains == pick.failure_domains
    assert audit.audit.is_optimum and audit.audit.meets_targets and audit.audit.saving_chf_month < 1


def test_highly_available_workload_on_one_server_misses_availability():
    # the same 2 GPUs in one server (no `servers`): losing it loses both replicas; priced as one system, it is
    # cheaper than the optimum but not the optimum, and the audit says why
    advice, setup, _ = _round_trip(HA_8B)
    one = {k: v for k, v in setup.items() if k != "servers"}
    audit = expert.Expert().audit(one)
    assert audit.audit.setup.tco_chf < 0.8 * advice.recommendation.tco_chf   # 37 121 against 49 653
    assert audit.audit.meets_targets is False and audit.audit.missed == "availability"
    assert not audit.audit.is_optimum and "2 failure domains" in audit.audit.summary


def test_servers_must_add_up_to_count(tmp_path):
    import subprocess
    import sys

    bad = tmp_path / "setup.yaml"
    bad.write_text(yaml.safe_dump({"gpu": "l40s", "count": 2, "servers": [1, 2]}))
    run = subprocess.run([sys.executable, "-m", "expert", "audit", str(bad)], capture_output=True, text=True,
                         cwd=ROOT)
    assert run.returncode == 2 and "Traceback" not in run.stderr and "servers" in run.stderr
    assert len(run.stderr.strip().splitlines()) == 1


def _c4(report):
    return next((f for f in report.findings if f.rule_id == "c4-kv-room-below-peak"), None)


def test_kv_room_counts_sessions_beside_their_shared_prefix():
    # QA 47 #7: advise's pick for the closed loop (2× B200, qwen2.5-32b fp8) holds its sessions' p95 in 2 ×
    # 118.8 GB of KV, reserve 11 %: its room is above its peak. Before, the audit counted each session at the
    # full 38 087 tokens (5.0 GB, no shared prefix): "room for 54 … your peak needs 74".
    advice, _, audit = _round_trip("examples/agent-closed-loop.yaml")
    assert audit.memory.reserve_ratio > 0.1 and abs(audit.memory.kv_cache_gb / advice.memory.kv_cache_gb - 1) < 0.01
    assert _c4(audit) is None


def test_kv_room_below_peak_is_the_memory_sections_figure():
    # The CI agent's pick (2× A100 80 GB SXM, one replica each): the memory section holds the operating batch the
    # search admitted (QA 47 #1: 2.62 GB of shared prefix + 16 sessions × 2.37 GB = 40.55 GB a replica), the
    # audit sizes the same KV, and the room, (78.24 − 34.06 − 3.38 − 2.62) / 2.37 = 16.1 → 16 sessions a replica,
    # is what the peak needs: the KV-room finding stays silent (before QA 47 #1: "room for 32 … needs 34").
    advice, _, audit = _round_trip("examples/agent-ci.yaml")
    assert abs(audit.memory.kv_cache_gb / advice.memory.kv_cache_gb - 1) < 0.01
    assert audit.memory.kv_cache_gb == pytest.approx(2.62 + 16 * 2.37, abs=0.2)
    assert _c4(audit) is None


def _d3(report):
    return next((f for f in report.findings if f.rule_id == "d3-token-level-needs-more-than-rule-of-thumb"), None)


def test_d3_note_states_a_replicas_capacity_as_the_audit_does():
    # QA 47 #10: 70B int4 at 2 000 requests/day on 2× L40S (TP 1): peak 2 000 / 86 400 × 3 = 0.0694 req/s; one
    # replica serves 0.0374 req/s within the targets at 70 % busy (the audit of the pick: 0.0748 on its 2
    # replicas), so the work needs ceil(0.0694 / 0.0374) = 2 replicas against D3's 1 GPU for 2.2 concurrent
    # inferences. (At 5 000 a day the pick is now one TP-2 replica: the wait for its KV slot, QA 47 #3.)
    w = {"model": "llama-3.1-70b", "requests_per_day": 2000, "precision": "int4"}
    advice, setup, audit = _round_trip(w)
    facts = _d3(advice).facts
    per_replica = audit.capacity.serving_capacity_rps / audit.audit.setup.replicas
    assert abs(facts["z.replica_capacity_rps"] / per_replica - 1) < 0.01
    assert facts["z.work_replicas"] == 2 and facts["z.d3_thumb_gpus_high"] == 1


def test_d3_note_is_silent_where_the_extra_gpu_is_not_work():
    # One L40S serves 3.42 req/s of an 8B (QA 47 a-slow2); the HA pick's second GPU is its N+1 (peak 0.07 req/s
    # needs 1 replica), and 1 request a day needs the minimum of 1 GPU: before, both printed the operating
    # rate ("serves about 0.03 req/s", "0.00 req/s") as capacity and said the work needs them.
    assert _d3(expert.advise(HA_8B)) is None
    assert _d3(expert.advise({"model": "llama-3.1-8b", "requests_per_day": 1})) is None
