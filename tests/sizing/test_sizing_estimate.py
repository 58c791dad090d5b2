"""The entry points `estimate` and `full_sizing`, the CONTRACT field names, and the constants' records."""

from __future__ import annotations

import dataclasses
import json

import pytest
from sizing_fixtures import GPUS, MODELS

from expert.sizing import DEFAULT, Constant, estimate, full_sizing
from expert.inputs.workload import Workload

CONTRACT_MEMORY = ["weights_gb", "kv_cache_gb", "activation_gb", "overhead_gb", "optimizer_gb", "gradients_gb",
                   "total_gb", "per_gpu_gb", "usable_per_gpu_gb", "fits"]
CONTRACT_PERFORMANCE = ["ttft_s", "tpot_s", "decode_tokens_per_s_per_sequence", "throughput_tokens_per_s",
                        "bound", "tensor_parallel_efficiency"]


def test_estimate_contract_fields():
    e = estimate(MODELS["llama-3.1-8b"], GPUS["l40s"], batch=8)
    assert list(e.contract()["memory"]) == CONTRACT_MEMORY
    assert list(e.contract()["performance"]) == CONTRACT_PERFORMANCE
    assert e.memory.fits and e.tensor_parallel == 1 and e.context_tokens == 1750 and e.fine_tuning is None


def test_estimate_is_deterministic_json():
    args = (MODELS["mixtral-8x7b"], GPUS["h100-sxm"], 4)
    one = json.dumps(estimate(*args, batch=16).model_dump(mode="json"), sort_keys=False)
    two = json.dumps(estimate(*args, batch=16).model_dump(mode="json"), sort_keys=False)
    assert one == two


def test_estimate_picks_tp_and_reports_misfit():
    # 70B FP16 on 8 H100: smallest fitting TP is 2 (75.7 of 78.2 GB, conformance D1); on one H100 it does
    # not fit (still answered, with room for 0 sequences)
    eight = estimate(MODELS["llama-3.1-70b"], GPUS["h100-sxm"], 8)
    assert eight.tensor_parallel == 2 and eight.replicas == 4 and eight.max_concurrent_sequences >= 1
    alone = estimate(MODELS["llama-3.1-70b"], GPUS["h100-sxm"])
    assert not alone.memory.fits and alone.memory.headroom_gb < 0 and alone.max_concurrent_sequences == 0


def test_estimate_fine_tuning_modes():
    e = estimate(MODELS["llama-2-13b"], GPUS["a100-80gb-sxm"], mode="lora")
    assert e.memory.kind == "finetune" and e.memory.method == "lora" and e.fine_tuning.hours > 0
    assert e.memory.kv_cache_gb == 0 and e.memory.optimizer_gb > 0
    q = estimate(MODELS["llama-3.1-70b"], GPUS["a100-80gb-sxm"], mode="qlora")
    assert q.memory.fits
    with pytest.raises(ValueError):
        estimate(MODELS["llama-2-13b"], GPUS["a100-80gb-sxm"], precision="int8", mode="full")
    with pytest.raises(ValueError):
        estimate(MODELS["llama-2-13b"], GPUS["a100-80gb-sxm"], mode="train")


def test_estimate_times_runs_with_the_job_planner():
    """`estimate --mode` and the job planner time a run the same way (issue 12): the planner's MFU
    bands (LoRA point 0.30, QLoRA × 0.78, full 0.40 × 0.67 with CPU offload), not a separate 0.40."""
    from expert.sizing.ft_job import layout_on

    m, a100 = MODELS["llama-2-13b"], GPUS["a100-80gb-sxm"]
    lora = estimate(m, a100, mode="lora").fine_tuning
    # 4 × 13e9 × 1e8 default tokens = 5.2e18 FLOP / (312e12 × 0.30) = 55 556 s = 15.43 h
    assert lora.hours == pytest.approx(15.432, abs=0.001) and lora.efficiency == pytest.approx(0.30)
    assert lora.hours == pytest.approx(layout_on(m, a100, "lora", 1, 1e8).hours)
    # QLoRA: 0.30 × 0.78 = 0.234 → 5.2e18 / (312e12 × 0.234) = 71 225 s = 19.78 h
    assert estimate(m, a100, mode="qlora").fine_tuning.hours == pytest.approx(19.785, abs=0.001)
    # full on 2 A100: 208 GB of states need CPU offload → 0.40 × 0.67 = 0.268;
    # 6 × 13e9 × 1e8 = 7.8e18 / (2 × 312e12 × 0.268) = 46 642 s = 12.96 h
    full = estimate(m, a100, count=2, mode="full").fine_tuning
    # team time counts the attended hours (QA 46 #9): a 12.96 h run is attended 8 h, × 150 CHF = 1 200 CHF
    assert full.hours == pytest.approx(12.956, abs=0.001) and full.team_cost_per_run_chf == pytest.approx(1200)


def test_full_sizing_workload_dict():
    # 20 000 requests/day, peak ×3 → 0.694 rps; a 3 s target is met on the H100 (8B at batch 1 ≈ 1.8 s)
    w = {"model": "llama-3.1-8b", "requests_per_day": 20000, "fine_tuning": "monthly", "latency_target_s": 3.0}
    fs = full_sizing(w, GPUS["h100-sxm"], model=MODELS["llama-3.1-8b"], monthly_rent=1811.5)
    assert fs.capacity.latency_met and fs.count >= 1 and fs.memory.fits
    assert fs.capacity.peak_rps == pytest.approx(20000 / 86400 * 3)
    assert fs.cost.mode == "rent" and fs.cost.count == fs.count
    assert fs.fine_tuning.runs_per_year == 12 and fs.fine_tuning_memory.method == "lora"


def test_full_sizing_params_only_and_capex():
    w = Workload(params_b=70, requests_per_second=2, budget="capex")
    fs = full_sizing(w, GPUS["h100-sxm"], monthly_rent=1811.5, purchase=30000)
    assert fs.model.startswith("generic-dense-70") and fs.memory.tensor_parallel == 2
    assert fs.cost.mode == "buy" and fs.cost.break_even_months == pytest.approx(30000 / 1811.5)
    assert fs.count % 2 == 0
    with pytest.raises(ValueError):
        full_sizing({"model": "llama-3.1-8b"}, GPUS["l40s"])  # the caller must resolve catalog ids


def test_full_sizing_unreachable_latency_uses_memory_limit():
    # L40S: the complete 250-token answer (not streamed) at ≈ 26 ms per token exceeds 2 s even alone
    # → latency_met False, replicas sized on memory
    fs = full_sizing({"model": "x", "requests_per_day": 20000, "latency_target_s": 2.0, "streaming": False},
                     GPUS["l40s"], model=MODELS["llama-3.1-8b"])
    assert fs.capacity.latency_met is False
    assert fs.capacity.sequences_per_replica == fs.capacity.sequences_per_replica_memory


def test_full_sizing_streamed_target_is_the_first_words():
    # streamed (default): 2 s is the time to the first words; prefill of 1 500 tokens ≈ 0.11 s on an L40S
    fs = full_sizing({"model": "x", "requests_per_day": 20000, "latency_target_s": 2.0}, GPUS["l40s"],
                     model=MODELS["llama-3.1-8b"])
    assert fs.capacity.latency_met is True


def test_every_constant_has_unit_and_source():
    for f in dataclasses.fields(DEFAULT):
        value = getattr(DEFAULT, f.name)
        records = value.values() if isinstance(value, dict) else [value]
        for c in records:
            assert isinstance(c, Constant) and c.unit and c.source, f.name
            assert c.low <= c.value <= c.high, f.name


def test_calibrated_constants_say_so():
    # issue 12: the default dataset is an assumption with its band, no longer calibrated to M2's 48 h
    assert "assumption" in DEFAULT.default_dataset_tokens.source and "000" in DEFAULT.default_dataset_tokens.note
    for name in ("h100_finetune_speedup", "gddr_finetune_slowdown"):
        c = getattr(DEFAULT, name)
        assert "CALIBRAT" in c.note and "000" in c.source


def test_override_keeps_units_and_marks_source():
    a = DEFAULT.override(electricity_chf_per_kwh=0.25, resale_share=(0.2, 0.3))
    assert a.electricity_chf_per_kwh.value == 0.25 and a.electricity_chf_per_kwh.source == "override by caller"
    assert (a.resale_share.low, a.resale_share.high, a.resale_share.value) == (0.2, 0.3, 0.25)
    assert DEFAULT.electricity_chf_per_kwh.value == 0.18
