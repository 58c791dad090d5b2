"""QA 44 D7, D8, D13, D14: every sentence a report prints is true as printed (the parts add up to the total
printed, the break-even divides the purchase it names, the bound named is the one that binds)."""

from __future__ import annotations

import re

import pytest

import expert
from expert.report.memory_line import addends
from expert.report.render import render

# QA 44 a2: Llama-4 Scout in int4 at 100 000 requests a day → 4 × B200 as 2 replicas of TP 2
SCOUT = {"model": "llama-4-scout", "precision": "int4", "requests_per_day": 100000, "ttft_target_s": 0.5,
         "tpot_target_ms": 30, "prompt_tokens": 8000, "output_tokens": 300}
# QA 44 s1: gpt-oss-120b on 8 × H100 SXM, owned; served as 2 copies of TP 4
GPT_OSS_SETUP = {"gpu": "h100-sxm", "count": 8, "ownership": "owned",
                 "workload": {"model": "gpt-oss-120b", "requests_per_day": 30000}}


def _gb(text: str, label: str) -> float:
    """The first `label X GB` (English or German decimal mark) in `text`."""
    return float(re.search(rf"{label} (\d+[.,]\d) GB", text).group(1).replace(",", "."))


def test_addends_count_the_per_gpu_overhead_on_each_gpu_and_the_rest_as_copies():
    # 10 + 2 + 1.5 × 2 = 15; the total 16 holds 1 GB more: copies
    assert addends(10.0, 2.0, 1.5, 16.0, 2) == {"overhead_gpus": 2, "copies_gb": pytest.approx(1.0)}
    # one GPU, nothing held twice: 10 + 2 + 1.5 = 13.5
    assert addends(10.0, 2.0, 1.5, 13.5, 1) == {"overhead_gpus": None, "copies_gb": None}


def test_estimate_memory_parts_add_up_to_the_total_at_tp2(cli):
    # README example: weights 72.1 + KV 4.6 + activations 2.15 × 2 = 4.3 + overhead 3.22 × 2 = 6.4 → 87.4
    # (before: "activations 2.1 GB, overhead 3.2 GB", which summed to 82.0)
    out = cli("estimate", "--model", "llama-3.1-70b", "--gpu", "h100-sxm", "--count", "2", "--precision", "fp8",
              "--batch", "16").out
    assert ("weights 72.1 GB, KV cache 4.6 GB, activations 4.3 GB (2.15 GB per GPU × 2), "
            "overhead 6.4 GB (3.22 GB per GPU × 2)\n        total 87.4 GB") in out


def test_estimate_of_an_mla_model_at_tp8_names_the_copies_and_adds_up(cli):
    # DeepSeek-R1 on 8 × H200: the MLA latent is held on each of the 8 GPUs, so the total counts it 8 times
    out = cli("estimate", "--model", "deepseek-r1", "--gpu", "h200", "--count", "8").out
    assert "(2.90 GB per GPU × 8)" in out and "(3.22 GB per GPU × 8)" in out  # 23.2 and 25.8 GB
    parts = sum(_gb(out, label) for label in ("weights", "KV cache", "activations", "overhead",
                                                "copies on several GPUs"))
    assert parts == pytest.approx(_gb(out, "total"), abs=0.15)  # five parts rounded to 0.05 GB each at most


def test_estimate_of_a_lora_run_adds_up_over_its_gpus(cli):
    # a fine-tuning run shards the model states and holds activations and the CUDA context on each of 4 GPUs
    out = cli("estimate", "--model", "qwen3-32b", "--gpu", "h100-sxm", "--count", "4", "--mode", "lora").out
    assert "per GPU × 4)" in out and "copies" not in out
    parts = sum(_gb(out, label) for label in ("weights", "KV cache", "activations", "overhead", "optimizer",
                                                "gradients"))
    assert parts == pytest.approx(_gb(out, "total"), abs=0.15)


@pytest.mark.parametrize("lang, line", [
    # 60.5 + 12.9 + 6.12 × 2 = 12.2 → 85.6 ≈ 85.7 (unrounded 60.536 + 12.927 + 12.241 = 85.704; the operating
    # batch 8 per replica the search checked, QA 47 #1, not D3's ceil(16.02 / 2) = 9: 14.5 GB, 87.3 GB before)
    ("en", "weights 60.5 GB, KV cache 12.9 GB, overhead 12.2 GB (6.12 GB per GPU × 2), total 85.7 GB"),
    ("de", "Gewichte 60,5 GB, KV-Cache 12,9 GB, Overhead 12,2 GB (6,12 GB je GPU × 2), gesamt 85,7 GB"),
])
def test_advice_memory_line_counts_the_overhead_on_each_gpu_of_the_replica(lang, line):
    report = expert.Expert().advise(SCOUT, lang, sensitivity=False)
    assert report.recommendation.tensor_parallel == 2
    m = report.memory
    assert m.overhead_gpus == 2 and m.copies_gb is None
    assert m.overhead_gb == pytest.approx(6.1203, abs=1e-3)  # the JSON field stays one GPU's (contract)
    assert m.weights_gb + m.kv_cache_gb + m.overhead_gb * m.overhead_gpus == pytest.approx(m.total_gb, abs=1e-3)
    assert line in render(report, "text")


@pytest.mark.parametrize("lang, line", [
    # 65.2 + 0.1 + 6.12 × 4 = 24.5 → 89.8 ≈ 89.7 (unrounded 65.188 + 0.069 + 24.481 = 89.738)
    ("en", "weights 65.2 GB, KV cache 0.1 GB, overhead 24.5 GB (6.12 GB per GPU × 4), total 89.7 GB"),
    ("de", "Gewichte 65,2 GB, KV-Cache 0,1 GB, Overhead 24,5 GB (6,12 GB je GPU × 4), gesamt 89,7 GB"),
])
def test_audit_memory_line_counts_the_overhead_on_each_gpu_of_a_copy(lang, line):
    report = expert.audit(GPT_OSS_SETUP, lang)
    assert report.memory.overhead_gpus == 4
    assert line in render(report, "text")


def test_audit_of_a_bf16_setup_says_bf16_in_the_int8_finding():
    # the setup's precision is bf16 (the workload states none): the finding names what is served
    report = expert.audit({"gpu": "l40s", "count": 1, "ownership": "rented", "precision": "bf16",
                           "workload": {"model": "qwen3-32b", "requests_per_day": 2000}})
    finding = next(f for f in report.findings if f.rule_id == "q2-quantise-to-fit")
    assert "does not fit 1 × l40s in bf16 but would in INT8" in finding.explanation


def test_other_precisions_heading_for_a_stated_int4_workload():
    # an fp8 option beside a stated int4 is not "quantised" further: the heading says "Other precisions"
    text = render(expert.Expert().advise(SCOUT, sensitivity=False), "text")
    assert "Other precisions (the stated precision is kept)" in text and "Quantised alternatives" not in text


def test_cost_buy_names_the_purchase_each_break_even_divides(cli):
    # 8 × H100 SXM at 30 000 CHF (000 T4) = 240 000 CHF of GPUs; / 8 × 1 811.45 = 14 491.6 CHF rent = 16.56
    # months. The complete system, 305 664 CHF = 38 208.03 per GPU, against the rent with T1 on both sides:
    # rent 1 811.45 × 1.15 + 0.7 kW × 1.5 × 730 h × 0.18 = 2 221.14; owned 9 550 W / 8 × 1.5 × 730 × 0.18 / 1000
    # = 235.29 + 0.15 × 38 208.03 / 36 = 159.20 → 394.49; 38 208.03 / (2 221.14 − 394.49) = 20.92 months
    out = cli("cost", "--gpu", "h100-sxm", "--count", "8", "--mode", "buy").out
    assert out.startswith("8× h100-sxm, buy, new, 36 months against the rent of hikube-h100-as-described")
    assert "purchase, system  305 664 CHF" in out
    assert "break-even        16.6 months of rent (GPUs only: 240 000 CHF / monthly rent, as 000 T4)" in out
    assert "system break-even 20.9 months (the complete system against the rent" in out


def test_cost_rent_labels_its_purchase_as_gpus_only(cli):
    # rent mode prices the GPUs alone: 8 × B200 = 258 462 CHF; / 30 870 CHF rent = 8.37 months; no system line
    out = cli("cost", "--gpu", "b200", "--count", "8", "--lang", "de").out
    assert "Kaufpreis GPUs    258 462 CHF" in out
    assert "8,4 Monatsmieten (nur GPUs: 258 462 CHF / Monatsmiete, wie 000 T4)" in out
    assert "Break-even System" not in out and " bei runpod-secure-b200 (RunPod)" in out


@pytest.mark.parametrize("gpu, word, binds", [
    # gpt-oss-120b at TP 1: 36 layers × (0.064 + 0.0448 grouped-expert) ms = 3.9168 ms; on H200 the weights
    # read take 1.93 ms, below it: the floor binds (as on B200, MI300X, RTX PRO 6000)
    ("h200", "launch-bound (step floor)", "step_floor"),
    # on H100 PCIe (2.0 TB/s) the read takes 4.63 ms, above the floor: memory-bound
    ("h100-pcie", "memory-bound", "memory"),
])
def test_estimate_names_the_bound_that_binds(cli, gpu, word, binds):
    out = cli("estimate", "--model", "gpt-oss-120b", "--gpu", gpu).out
    assert f", {word}, TP efficiency" in out
    perf = cli("estimate", "--model", "gpt-oss-120b", "--gpu", gpu, "--format", "json").json()["performance"]
    assert perf["binds"] == binds and perf["bound"] == "memory"  # `bound` keeps its contract values
    if binds == "step_floor":
        assert perf["tpot_s"] == pytest.approx(36 * (0.064 + 0.0448) / 1e3, rel=1e-9)


def test_a_rent_whose_price_includes_power_says_so(capsys):
    from expert.cli.main import main

    # RunPod's B300 rent includes power (offer_energy_tdp 0): energy 0 CHF is the offer's, not the formula's
    assert main(["cost", "--gpu", "b300", "--count", "3", "--months", "12"]) == 0
    energy = next(ln for ln in capsys.readouterr().out.splitlines() if ln.startswith("energy"))
    assert energy.split()[:3] == ["energy", "0", "CHF"] and "included in the offer's rent" in energy
    # a rent derived from 000's TCO (Hikube, power extra) keeps T1's formula beside its energy
    assert main(["cost", "--gpu", "h100-sxm", "--count", "8", "--months", "12"]) == 0
    energy = next(ln for ln in capsys.readouterr().out.splitlines() if ln.startswith("energy"))
    assert "24/7 × 0.18 CHF/kWh" in energy and not energy.split()[1] == "0"


FT70B_QLORA = {"model": "llama-3.1-70b", "requests_per_day": 3000, "precision": "int4", "allow_int4": True,
               "fine_tuning": {"frequency": "monthly", "method": "qlora", "dataset_tokens": 50_000_000, "epochs": 2}}


@pytest.mark.parametrize("lang, part, plan", [
    ("en", "fine-tuning 50.2 GB (25.09 GB per GPU × 2)", "45.2 GB per GPU"),
    ("de", "Fine-Tuning 50,2 GB (25,09 GB je GPU × 2)", "45,2 GB pro GPU"),
])
def test_advice_memory_line_labels_the_fine_tuning_total_and_its_share_per_gpu(lang, part, plan):
    """QA 46 nit: 70B QLoRA served on 2 × L40S: a run sharded over both holds 50.19 GB in all, 50.19 / 2 =
    25.09 GB on each; the plan's run on one GPU states its 45.2 GB per GPU. Before, the memory line said
    "fine-tuning 50.2 GB" beside "45.2 GB per GPU", a total read as a per-GPU figure."""
    report = expert.Expert().advise(FT70B_QLORA, lang, sensitivity=False)
    assert (report.recommendation.gpu, report.recommendation.count) == ("l40s", 2)
    assert report.memory.fine_tuning_gpus == 2
    assert report.memory.fine_tuning_gb == pytest.approx(50.19, abs=0.01)
    text = render(report, "text")
    assert part in text and plan in text
