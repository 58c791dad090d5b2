"""An audit of a setup that fine-tunes states its plan on the setup's own GPUs (issue 33 item 2,
docs/audit-review.md departure 7): the job's layout, CPU offload's host RAM against the server's, hours and
idle nights, the sources of the runs' GPUs and the checkpoints. Expectations computed by hand below."""

from __future__ import annotations

import json
import math

from pathlib import Path

import pytest
import yaml

import expert
from expert.report.render import render

ROOT = Path(__file__).resolve().parents[2]


def _setup(gpu: str, count: int, model: str, method: str, tokens: int, **extra) -> dict:
    return {"gpu": gpu, "count": count, **extra,
            "workload": {"model": model, "requests_per_day": 20000,
                         "fine_tuning": {"frequency": "monthly", "method": method, "dataset_tokens": tokens}}}


FULL_70B = _setup("a100-80gb-sxm", 8, "llama-3.1-70b", "full", 50_000_000)
LORA_8B = _setup("l40s", 1, "llama-3.1-8b", "lora", 20_000_000)

# Activations per GPU at the job's defaults (finetune.py: seq 2048, micro-batch 1, gradient checkpointing):
# layers × 2·s·h + s·h·34 + s·vocab·4 bytes, + 0.65 GB CUDA context.
ACT_70B = (80 * 2 * 2048 * 8192 + 2048 * 8192 * 34 + 2048 * 128256 * 4) / 1e9 + 0.65   # 4.3055 + 0.65
ACT_8B = (32 * 2 * 2048 * 4096 + 2048 * 4096 * 34 + 2048 * 128256 * 4) / 1e9 + 0.65    # 1.8728 + 0.65


def test_70b_full_on_eight_a100_offloads_and_states_host_ram_against_m3():
    plan = expert.audit(FULL_70B).fine_tuning_plan
    assert plan.sharding == "fsdp-offload" and plan.cpu_offload and plan.gpus == 8 and plan.nodes == 1
    # offload keeps 16-bit weights and gradients on the GPUs: 70e9 × 4 B / 8 = 35.0 GB, + activations
    assert plan.memory_per_gpu_gb == pytest.approx(35.0 + ACT_70B, abs=1e-3)       # 39.96 GB
    # the card's 80 GiB as the driver shows them: 80 × 1.073741824 × 0.99 × 0.95 = 80.79 GB (QA 46 #7)
    assert plan.usable_per_gpu_gb == pytest.approx(80 * 2**30 / 1e9 * 0.99 * 0.95) and plan.memory_fits
    # fp32 master weights + Adam moments in host RAM: 70e9 × 12 B = 840 GB, against 000 M3's 4 × 640 GB
    assert plan.host_ram_gb == pytest.approx(840.0)
    assert plan.server_ram_gb == pytest.approx(4 * 8 * 80) and not plan.server_ram_stated
    assert not plan.host_ram_exceeded and plan.fits_here
    # 6 × 70e9 × 50e6 FLOP / (8 × 312 TFLOP/s × MFU 0.40 × offload 0.67) = 31 394 s = 8.72 h: 2 nights of 8 h
    assert plan.hours_per_run == pytest.approx(6 * 70e9 * 50e6 / (8 * 312e12 * 0.40 * 0.67) / 3600, rel=1e-3)
    assert plan.nights_per_run == 2 and plan.nights_per_month == pytest.approx(2.0)
    # a full checkpoint: 70e9 × 14 B = 980 GB, two kept
    assert (plan.checkpoint_gb, plan.checkpoints_kept, plan.checkpoint_storage_gb) == (980.0, 2, 1960.0)
    text = render(expert.audit(FULL_70B), "text")
    assert ("on this setup's 8× a100-80gb-sxm: sharded over 8 GPUs (FSDP), 40.0 GB per GPU of 80.8 GB a run can "
            "use (fits); CPU offload: yes, 840 GB of optimizer state in host RAM per node against the server's "
            "2 560 GB (the setup states no ram_gb: 000 M3's 1:4 rule, 4 × 640 GB of GPU memory): within it; "
            "8.7 h per run") in text
    assert "checkpoints: 980 GB each" in text and "2 kept = 1 960 GB of storage" in text


def test_host_ram_above_the_setups_stated_ram_is_flagged_and_refuses_the_idle_nights():
    report = expert.audit({**FULL_70B, "ram_gb": 512})
    plan = report.fine_tuning_plan
    assert plan.server_ram_gb == 512 and plan.server_ram_stated and plan.host_ram_exceeded   # 840 > 512
    assert not plan.fits_here and plan.nights_per_run is None
    idle = next(o for o in plan.options if o.kind == "serving-idle")
    assert not idle.fits and idle.reason == ("CPU offload needs 840 GB of host RAM; the server of 8× a100-80gb-sxm "
                                             "has 512 GB, as the setup states")
    assert plan.chosen in ("rented-per-run", "dedicated")
    assert "EXCEEDS it, the run does not fit this server" in render(report, "text")
    de = render(expert.audit({**FULL_70B, "ram_gb": 512}, "de"), "text")
    assert "gegenüber 512 GB des Servers (laut Setup): ÜBERSTEIGT ihn" in de


def test_8b_lora_on_one_l40s_needs_no_offload_and_a_checkpoint_of_megabytes():
    report = expert.audit(LORA_8B)
    plan = report.fine_tuning_plan
    assert plan.sharding == "single-gpu" and not plan.cpu_offload and plan.host_ram_gb == 0
    # frozen bf16 weights 16.0 GB; adapters r 16 on q, k, v, o: 32 layers × 16 × (2 × (4096 + 4096) +
    # 2 × (4096 + 1024)) = 13 631 488 parameters, × 16 B of state (2 weights + 2 grads + 12 optimizer)
    adapters = 32 * 16 * (2 * (4096 + 4096) + 2 * (4096 + 1024))
    assert plan.memory_per_gpu_gb == pytest.approx(16.0 + adapters * 16 / 1e9 + ACT_8B, abs=1e-3)   # 18.74 GB
    # GDDR6 with ECC: 48 × 1.073741824 × 0.9375 × 0.95 = 45.90 GB (QA 46 #7; before 48 × 0.95 = 45.6), 192 GB
    assert plan.usable_per_gpu_gb == pytest.approx(48 * 2**30 / 1e9 * 0.9375 * 0.95) and plan.server_ram_gb == 4 * 48
    # the adapters only, 14 B each: 13.63 M × 14 = 190.8 MB
    assert plan.checkpoint_gb == pytest.approx(adapters * 14 / 1e9, abs=1e-4)
    # 4 × 8e9 × 20e6 FLOP / (362.05 TFLOP/s × LoRA MFU 0.30 × f(L40S) 0.2462, training.relative_efficiency)
    assert plan.hours_per_run == pytest.approx(4 * 8e9 * 20e6 / (362.05e12 * 0.30 * 0.246217) / 3600, rel=1e-3)
    assert plan.nights_per_run == math.ceil(plan.hours_per_run / 8) == 1
    # the night is priced at the setup's own GPU-hour: L40S at Hikube 866.25 CHF/month (test_audit_optimum) / 730 h
    l40s_hour = (693.27 * 1.15 + 0.35 * 1.5 * 730 * 0.18) / 730
    assert plan.degraded_chf_per_run == pytest.approx(plan.hours_per_run * l40s_hour, rel=1e-3)   # 7.89 CHF
    idle = next(o for o in plan.options if o.kind == "serving-idle")
    rented = next(o for o in plan.options if o.kind == "rented-per-run")
    # renting the run's hours costs less than the night's serving capacity: the nights save nothing, declined
    assert idle.declined and plan.chosen == "rented-per-run" and plan.options[0].kind == "rented-per-run"
    assert idle.saving_per_run_chf == pytest.approx(rented.cost_per_run_chf - plan.degraded_chf_per_run, abs=0.01)
    text = render(report, "text")
    assert "on this setup's 1× l40s: one GPU, 18.7 GB per GPU of 45.9 GB a run can use (fits); CPU offload: no" in text
    assert "checkpoints: 0.19 GB each" in text and "→ rented for the run's hours: " in text


def test_plan_is_in_json_and_markdown_and_only_where_the_setup_fine_tunes():
    data = json.loads(render(expert.audit(LORA_8B), "json"))
    assert data["fine_tuning_plan"]["method"] == "lora" and data["fine_tuning_plan"]["runs_on"] == "serving"
    assert "## Fine-tuning plan" in render(expert.audit(LORA_8B), "markdown")
    plain = {**LORA_8B, "workload": {**LORA_8B["workload"], "fine_tuning": "none"}}
    assert "fine_tuning_plan" not in json.loads(render(expert.audit(plain), "json"))
    separate = expert.audit({**LORA_8B, "training_gpus": "separate"}).fine_tuning_plan
    assert separate.runs_on == "separate" and "on separate GPUs (training_gpus: separate)" in separate.lines[0]


def test_d2_does_not_call_an_offloaded_run_that_fits_a_misfit():
    # 16 B × 70e9 = 1 120 GB of states (+ activations) exceed 8 × 80 = 640 GB of GPU memory, but with the
    # optimizer in host RAM (840 GB ≤ 2 560 GB) the run fits: d2's "does not fit the GPUs" would contradict
    # the plan; with 512 GB of stated RAM the offload does not fit the server and d2 fires
    fitting = expert.audit(FULL_70B)
    assert fitting.memory.fine_tuning_gb > 640 and fitting.fine_tuning_plan.fits_here
    assert "d2-finetuning-memory-exceeds-setup" not in {f.rule_id for f in fitting.findings}
    short = expert.audit({**FULL_70B, "ram_gb": 512})
    assert "d2-finetuning-memory-exceeds-setup" in {f.rule_id for f in short.findings}


def test_a_full_run_that_offload_cannot_save_says_so():
    # gemma-2-27b full on one L40S (audit-d2): even offloaded, 16-bit weights and gradients are 27e9 × 4 B
    # ≈ 108 GB against 45.9 GB usable (48 GiB × 0.9375 ECC share × 0.95)
    plan = expert.audit(_setup("l40s", 1, "gemma-2-27b", "full", 50_000_000)).fine_tuning_plan
    assert not plan.memory_fits and not plan.cpu_offload and not plan.fits_here
    assert "CPU offload: no, the run does not fit with it either" in plan.lines[1]


def test_a_pool_audit_states_a_plan_per_agent_that_fine_tunes():
    # audit-u4-pool-one-gpu-for-five-agents: analyst (Qwen2.5-14B) and risk (20B) fine-tune monthly; each gets
    # its plan on the setup's L40S, named by its agent. analyst's LoRA (rank 16 on q, k, v, o): per layer
    # 16 × (5120 + 5120) × 2 (q, o) + 16 × (5120 + 1024) × 2 (k, v) = 524 288, × 48 layers = 25 165 824
    # parameters × 14 B = 0.3523 GB per checkpoint
    scenario = yaml.safe_load((ROOT / "tests" / "scenarios" /
                               "audit-u4-pool-one-gpu-for-five-agents.scenario.yaml").read_text())
    report = expert.audit(scenario["setup"])
    plans = report.fine_tuning_plans
    assert [p.agent for p in plans] == ["analyst", "risk"] and report.fine_tuning_plan is None
    assert plans[0].checkpoint_gb == pytest.approx(25_165_824 * 14 / 1e9, abs=1e-3)
    assert plans[0].lines[0].startswith("analyst: job: lora fine-tuning of 14.7B")
    text = render(report, "text")
    assert "- risk: job: lora fine-tuning of 20B" in text
    assert "fine_tuning_plans" in report.model_dump(mode="json")
    # a single-model audit keeps its shape: no fine_tuning_plans key
    assert "fine_tuning_plans" not in expert.audit({"gpu": "l40s", "workload": {"model": "llama-3.1-8b", "requests_per_day": 1000}}).model_dump(mode="json")


def test_a_run_that_does_not_fit_states_no_hours_and_one_memory_figure():
    """QA 47 #9: llama-2-13b full weekly on one L40S (training_gpus: serving). The states alone are 13e9 ×
    16 B = 208 GB (+ activations: 210.1 GB) against 45.9 GB a run can use (48 GiB × 0.9375 ECC share × 0.95
    = 45.9 GB; the card's nominal 48.0 GB is not the basis); offloaded, 16-bit weights and gradients are
    13e9 × 4 B = 52 GB > 45.9 GB, so no layout fits. Before, the plan printed "30.4 h per run", d2 said the
    setup "offers 48.0 GB" and the summary named team time the plan does not count (team_waits not set)."""
    setup = {"gpu": "l40s", "count": 1, "ownership": "rented", "training_gpus": "serving", "cpu_cores": 32,
             "ram_gb": 256, "storage": {"type": "nvme", "read_mb_s": 5000}, "network_gbps": 25,
             "hosting": {"country": "CH", "provider_seat": "CH", "certifications": ["iso27001"]},
             "utilization": {"mean": 0.6, "peak": 0.8}, "latency_p95_s": 0.5, "monitoring": True, "backups": True,
             "workload": {"model": "llama-2-13b", "requests_per_day": 5000,
                          "fine_tuning": {"frequency": "weekly", "method": "full", "dataset_tokens": 50_000_000}}}
    report = expert.audit(setup)
    plan = report.fine_tuning_plan
    assert not plan.memory_fits and not plan.fits_here
    assert plan.usable_per_gpu_gb == pytest.approx(48 * 1.073741824 * 0.9375 * 0.95, abs=0.05)  # 45.9
    layout = plan.lines[1]
    assert "45.9 GB a run can use (does not fit)" in layout
    assert "h per run" not in layout and layout.endswith("not timed: the run does not fit here")
    d2 = next(f for f in report.findings if f.rule_id == "d2-finetuning-memory-exceeds-setup").explanation
    assert "a run can use 45.9 GB of the setup (1 × l40s)" in d2 and "48.0 GB" not in d2
    text = render(report, "markdown")
    assert "team time the configurator adds" not in text
    assert "with the fine-tuning runs the configurator adds (team time not counted" in text
    waits = expert.audit({**setup, "workload": {**setup["workload"], "fine_tuning": {
        **setup["workload"]["fine_tuning"], "team_waits": True}}})
    assert "with the fine-tuning runs and team time the configurator adds" in render(waits, "markdown")
