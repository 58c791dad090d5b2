"""Auditing a pool of agents (000 U4, R3; expert/flows/audit_pool.py): placement, packing, the pool's rules,
and advise → setup file → audit for pools."""

from __future__ import annotations

import subprocess
import sys

import pytest
import yaml

from expert.api import Expert
from expert.errors import InputError

EXPERT = Expert()
T3_AGENTS = [  # examples/agent-pool-t3.yaml (000 T3's five agents, the example's model choices)
    {"name": "faq", "model": "mistral-7b", "requests_per_day": 5000},
    {"name": "rag", "model": "llama-3.1-8b", "requests_per_day": 5000},
    {"name": "docs", "model": "llama-2-13b", "requests_per_day": 3000},
    {"name": "analyst", "model": "qwen2.5-14b", "requests_per_day": 2000, "fine_tuning": "monthly"},
    {"name": "risk", "params_b": 20, "requests_per_day": 1000, "fine_tuning": "monthly"}]
T3 = {"hosting": "ch", "output_tokens": 100, "latency_target_s": 4.0, "agents": T3_AGENTS}


def _fired(report) -> set[str]:
    return {f.rule_id for f in report.findings}


def _setup_fact(setup: dict) -> dict:
    from expert.flows.audit_pool import pool_extras
    from expert.inputs.load import load_setup_data

    s = load_setup_data(setup, None, EXPERT.catalog)
    return pool_extras(s, EXPERT.catalog.gpu(s.gpu), EXPERT.catalog)[0]


def test_the_audit_packs_the_pool_as_the_advice_does():
    advice = EXPERT.advise(T3)
    assert (advice.recommendation.gpu, advice.recommendation.count) == ("l40s", 2)
    fact = _setup_fact({"gpu": "l40s", "count": 1, "workload": T3})
    # 85.3 GB of replicas at their operating batches (the fp8 agents' KV cached in FP8, issue 32) over
    # 44.5 GB per GPU (vLLM's 0.92 of the L40S): at least ceil(85.3 / 44.5) = 2 GPUs, and the packing
    # finds 2 — the count `advise` recommends
    assert fact["pool_memory_gb"] == pytest.approx(85.3, abs=0.1)
    assert fact["usable_per_gpu_gb"] == pytest.approx(44.5, abs=0.1)
    assert fact["pool_gpus_needed"] == advice.recommendation.count == 2
    assert fact["pool_gpus_missing"] == 1 and fact["pool_agents"] == 5
    assert fact["serving_precision"] == "fp8"


def test_the_advice_reports_the_whole_pools_memory_and_its_slowest_agent():
    advice = EXPERT.advise(T3)
    fact = _setup_fact({"gpu": "l40s", "count": 2, "workload": T3})
    m = advice.memory  # all five agents' replicas, not the largest model alone (was 27.0 GB for the 20B)
    assert m.total_gb == pytest.approx(fact["pool_memory_gb"], abs=0.01) == pytest.approx(85.3, abs=0.1)
    assert m.weights_gb + m.kv_cache_gb + m.overhead_gb == pytest.approx(m.total_gb, abs=0.02)
    # reserve = 1 − 85.3 / (2 × 44.45 GB the engine holds of each L40S) ≈ 0.02: the pool is full
    assert m.reserve_ratio == pytest.approx(1 - m.total_gb / (2 * fact["usable_per_gpu_gb"]), abs=0.01)
    r = advice.recommendation  # the slowest agent's first words and time per token, as for one model
    assert r.ttft_p95_s is not None and r.ttft_p95_s <= 4.0 and r.tpot_ms <= 150 * 1.1


def test_one_gpu_for_five_agents_is_underprovisioned_and_two_are_not():
    one = EXPERT.audit({"gpu": "l40s", "count": 1, "workload": T3})
    assert "u4-pool-needs-more-gpus" in _fired(one)
    assert not {"d3-peak-load-exceeds-serving-capacity", "c4-total-vram-too-small"} & _fired(one)
    two = EXPERT.audit({"gpu": "l40s", "count": 2, "workload": T3})
    assert not {r for r in _fired(two) if r.startswith("u4-pool-")}


def test_an_agent_that_cannot_run_is_named_and_critical():
    # Llama-3.1-70B in FP16 at TP 1 on an L40S: 141 GB of weights on a 48 GB GPU
    w = {"agents": [{"name": "small", "model": "llama-3.1-8b", "requests_per_day": 1000},
                    {"name": "big", "model": "llama-3.1-70b", "requests_per_day": 1000}]}
    report = EXPERT.audit({"gpu": "l40s", "count": 2, "workload": w,
                           "placement": {"small": {}, "big": {"precision": "fp16", "tensor_parallel": 1}}})
    finding = next(f for f in report.findings if f.rule_id == "u4-pool-agent-cannot-run")
    assert finding.severity == "critical" and finding.explanation.startswith("big cannot run on l40s")


def test_an_agents_peak_beyond_its_replicas_is_named():
    # 2 M requests a day (peak 2e6 / 86 400 × 3 = 69 req/s) on one stated replica of an 8B
    w = {"agents": [{"name": "bulk", "model": "llama-3.1-8b", "requests_per_day": 2_000_000},
                    {"name": "quiet", "model": "mistral-7b", "requests_per_day": 100}]}
    report = EXPERT.audit({"gpu": "h100-sxm", "count": 2, "workload": w,
                           "placement": {"bulk": {"replicas": 1}, "quiet": {}}})
    finding = next(f for f in report.findings if f.rule_id == "u4-pool-agent-peak-exceeds-capacity")
    assert "agent bulk sends 69.44 requests per second" in finding.explanation
    assert "d3-peak-load-exceeds-serving-capacity" not in _fired(report)


def test_a_stated_placement_is_used_as_stated():
    fact = _setup_fact({"gpu": "l40s", "count": 2, "workload": T3,
                        "placement": {"docs": {"precision": "fp16", "replicas": 2}, "faq": {"precision": "int8"}}})
    assert fact["pool_agents"] == 2                       # only the placed agents are served here
    assert fact["serving_precision"] == "fp16,int8"


@pytest.mark.parametrize("setup,message", [
    ({"gpu": "l40s", "workload": T3, "placement": {"nobody": {}}},
     "placement.nobody: no agent of that name (allowed: faq, rag, docs, analyst, risk)"),
    ({"gpu": "l40s", "workload": {"model": "llama-3.1-8b"}, "placement": {"faq": {}}},
     "placement needs a workload with agents"),
    ({"gpu": "l40s", "workload": T3, "placement": {"faq": {"replicas": 0}}}, "placement.faq.replicas"),
])
def test_bad_placements_are_input_errors(setup, message):
    with pytest.raises(InputError, match=message.replace("(", r"\(").replace(")", r"\)")):
        EXPERT.audit(setup)


def test_advise_writes_setup_files_that_audit_reads(tmp_path):
    workload = tmp_path / "t3.yaml"
    workload.write_text(yaml.safe_dump(T3), encoding="utf-8")
    out = tmp_path / "setup.yaml"
    run = subprocess.run([sys.executable, "-m", "expert", "advise", str(workload), "--setup-out", str(out)],
                         capture_output=True, text=True, check=True)
    assert f"setup written to {out}" in run.stderr
    setup = yaml.safe_load(out.read_text(encoding="utf-8"))
    assert (setup["gpu"], setup["count"], list(setup)[-1]) == ("l40s", 2, "workload")
    assert setup["placement"]["risk"] == {"precision": "fp8", "tensor_parallel": 1, "replicas": 1}
    audit = subprocess.run([sys.executable, "-m", "expert", "audit", str(out), "--format", "json"],
                           capture_output=True, text=True, check=True)
    assert not [f for f in yaml.safe_load(audit.stdout)["findings"] if f["rule_id"].startswith("u4-pool-")]


def test_more_serving_groups_go_to_numbered_files(tmp_path):
    from expert.cli.advise import write_setups

    write_setups([{"gpu": "l40s"}, {"gpu": "a100-80gb-pcie"}], str(tmp_path / "pool.yaml"))
    assert yaml.safe_load((tmp_path / "pool-2.yaml").read_text(encoding="utf-8")) == {"gpu": "a100-80gb-pcie"}


def test_a_hybrid_pool_gives_one_setup_per_serving_group():
    """000 R3/T3's hybrid as a report: L40S serve the pure-inference agents, A100 serve and train the
    fine-tuned ones; a group that only trains serves nothing to audit."""
    from expert.report.models import Choice, PoolGroup, Report

    def group(gpu, offer, count, role, names):
        return PoolGroup(gpu=gpu, offer=offer, count=count, role=role,
                         agents={n: {"precision": "fp8", "tensor_parallel": 1, "replicas": 1} for n in names})

    choice = Choice(gpu="l40s", count=2, source="cloud", offer="hikube-l40s", country="CH", precision="fp8",
                    interconnect="pcie", monthly_cost_chf=1.0, tco_chf=36.0, horizon_months=36, fits=True)
    split = Report(kind="advice", lang="en", clarification="", recommendation=choice, pool_groups=[
        group("l40s", "hikube-l40s", 2, "inference", ["faq", "rag", "docs"]),
        group("a100-80gb-pcie", "hikube-a100-80gb", 2, "serve+train", ["analyst", "risk"])])
    setups = EXPERT.recommended_setups(split, T3)
    assert [(s["gpu"], s["count"], s["training_gpus"], sorted(s["placement"])) for s in setups] == [
        ("l40s", 2, "separate", ["docs", "faq", "rag"]), ("a100-80gb-pcie", 2, "serving", ["analyst", "risk"])]
    assert all(s["hosting"] == {"country": "CH"} and list(s)[-1] == "workload" for s in setups)
    train_only = split.model_copy(update={"pool_groups": [
        group("l40s", "hikube-l40s", 2, "inference", [a["name"] for a in T3_AGENTS]),
        PoolGroup(gpu="a100-80gb-pcie", offer="hikube-a100-80gb", count=1, role="train")]})
    assert [s["gpu"] for s in EXPERT.recommended_setups(train_only, T3)] == ["l40s"]
    for s in setups:  # each group audits on its own agents
        assert EXPERT.audit(s).clarification.count(": My AI agent") == len(s["placement"])


def test_pool_audit_has_a_capacity_section_of_its_agents_summed():
    # 000 T3's five agents on one L40S: 5 000 + 5 000 + 3 000 + 2 000 + 1 000 = 16 000 requests a day
    # = 0.1852 req/s, × the peak factor 3 = 0.5556 req/s. Their replicas need 2 GPUs (the pool's rule
    # u4-pool-needs-more-gpus names the same count); the busiest agent is named with its own capacity.
    report = EXPERT.audit({"gpu": "l40s", "count": 1, "workload": T3})
    c = report.capacity
    assert c.average_rps == pytest.approx(16000 / 86400, abs=1e-4)
    assert c.peak_rps == pytest.approx(3 * 16000 / 86400, abs=1e-4) and c.peak_factor == pytest.approx(3.0)
    assert c.gpus_needed == 2 and "u4-pool-needs-more-gpus" in _fired(report)
    # 000 D3 summed over the agents = the pool's peak × the peak-weighted answer time / 0.7
    assert c.concurrent_inferences == pytest.approx(c.peak_rps * c.inference_time_s / 0.7, rel=1e-3)
    assert c.worst_agent in {a["name"] for a in T3_AGENTS}
    # its load ratio is its own peak (3 × its daily volume / 86 400 s) over its own capacity
    daily = next(a["requests_per_day"] for a in T3_AGENTS if a["name"] == c.worst_agent)
    assert c.load_ratio == pytest.approx(3 * daily / 86400 / c.serving_capacity_rps, rel=1e-3)
