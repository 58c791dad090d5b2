"""Audits report the setup's memory, capacity, speed and cost and what the configurator's optimum would
save (issue 33, item 1); overprovisioning in money is a warning from a stated share, for any GPU."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
import yaml

import expert
from expert.flows.audit_cost import OVERPROVISIONED_SHARE
from expert.report.render import render

ROOT = Path(__file__).resolve().parents[2]
A100_IDLE = {"gpu": "a100-80gb-sxm", "count": 4, "ownership": "rented",
             "hosting": {"country": "CH", "provider_seat": "CH", "certifications": ["iso27001"]},
             "utilization": {"mean": 0.30},
             "workload": {"model": "llama-3.1-8b", "requests_per_day": 20000, "fine_tuning": "none"}}

# Catalog prices (knowledge/offers.yaml, knowledge/tariffs.yaml): 000 T1 adds 15 % infrastructure to the rent
# and, for the document's own provider (Hikube, derived from 000), energy = TDP × 1.5 × 730 h × 0.18 CHF/kWh.
# L40S at RunPod: 795.7 USD × 0.7785 CHF/USD = 619.45 CHF × 1.15 = 712.37 CHF/month (a list price: no energy).
L40S_MONTH = 795.7 * 0.7785 * 1.15
# 4 × A100 80 GB at Hikube: 4 × 1 380.01 × 1.15 = 6 348.05 + 4 × 0.4 kW × 1.5 × 730 × 0.18 = 315.36 → 6 663.41
A100X4_MONTH = 4 * 1380.01 * 1.15 + 4 * 0.4 * 1.5 * 730 * 0.18
# 1 × H100 SXM at Hikube: 1 811.45 × 1.15 = 2 083.17 + 0.7 kW × 1.5 × 730 × 0.18 = 137.97 → 2 221.14
H100_MONTH = 1811.45 * 1.15 + 0.7 * 1.5 * 730 * 0.18


def _finding(report, rule_id):
    return next((f for f in report.findings if f.rule_id == rule_id), None)


# L40S at Hikube: 693.27 × 1.15 = 797.26 + 0.35 kW × 1.5 × 730 h × 0.18 CHF/kWh = 68.99 → 866.25 CHF/month
L40S_HIKUBE_MONTH = 693.27 * 1.15 + 0.35 * 1.5 * 730 * 0.18


def test_four_a100_idling_on_8b_is_a_warning_with_its_saving():
    # the setup is in Switzerland, so its optimum is searched among Swiss offers (hosting ch, audit_cost.residency):
    # 1 × L40S at Hikube. 6 663.41 − 866.25 = 5 797.16 CHF a month, 87.0 % of the setup's cost, × 36 months
    # = 208 698 CHF; 87.0 % ≥ the 20 % threshold: a warning, not an info
    report = expert.audit(A100_IDLE)
    a = report.audit
    assert a.setup.monthly_cost_chf == pytest.approx(A100X4_MONTH, abs=0.01)
    assert a.optimum.gpu == "l40s" and a.optimum.count == 1 and a.optimum.country == "CH"
    assert a.optimum.monthly_cost_chf == pytest.approx(L40S_HIKUBE_MONTH, abs=0.01)
    assert a.saving_chf_month == pytest.approx(A100X4_MONTH - L40S_HIKUBE_MONTH, abs=0.01)
    assert a.saving_chf_horizon == pytest.approx(36 * (A100X4_MONTH - L40S_HIKUBE_MONTH), abs=0.5)
    assert a.saving_share == pytest.approx(0.8700, abs=1e-4) and not a.is_optimum and a.residency == "ch"
    warning = _finding(report, "m1-optimum-saves")
    assert warning is not None and warning.severity == "warning"
    assert "5 797 CHF a month less (87 %), 208 698 CHF over 36 months" in warning.explanation
    assert "A saving from 20 %" in warning.explanation
    assert OVERPROVISIONED_SHARE == 0.20


def test_idle_h100_example_shows_memory_capacity_speed_cost_and_saving():
    # hosted in CH: the optimum is 1 × L40S at Hikube; 2 221.14 − 866.25 = 1 354.89 CHF a month (61 %),
    # 48 776 CHF over 36 months
    report = expert.audit(yaml.safe_load((ROOT / "examples" / "idle-h100.yaml").read_text()))
    m, c, a = report.memory, report.capacity, report.audit
    # Llama-3.1-8B fp16: 16.0 GB of weights; at the peak 0.6944 req/s × 1.65 s / 0.7 = 1.64 concurrent
    # inferences (000 D3) -> 2 sequences of 1 750 tokens × 131 072 B (32 layers × 8 KV heads × 128 × 2 × 2 B)
    # = 0.459 GB of KV (QA 45 #5: before, one sequence, 0.229 GB); 16.0 + 0.459 + 3.38 runtime = 19.84 GB of
    # the 78.2 GB vLLM holds of an H100's 80 GB × 0.92 (engine budget, docs/engines.md) after its CUDA
    # context, so the reserve is 1 − 19.84 / 78.2 = 75 %
    assert m.weights_gb == 16.0 and m.kv_cache_gb == pytest.approx(2 * 1750 * 131072 / 1e9, abs=1e-4)
    assert m.used_per_gpu_gb == pytest.approx(19.84, abs=0.01)
    assert m.reserve_ratio == pytest.approx(1 - m.used_per_gpu_gb / m.usable_per_gpu_gb, abs=1e-4)
    assert a.setup.headroom == m.reserve_ratio and a.setup.memory_per_gpu_gb == m.used_per_gpu_gb
    # 20 000 requests a day = 0.2315 req/s, × the default peak factor 3 = 0.6944 req/s
    assert c.average_rps == pytest.approx(20000 / 86400, abs=1e-4) and c.peak_rps == pytest.approx(0.6944, abs=1e-4)
    assert c.load_ratio == pytest.approx(c.peak_rps / c.serving_capacity_rps, abs=1e-3) and c.load_ratio < 0.1
    assert a.meets_targets is True and a.setup.ttft_p95_s < 2.0 and a.setup.tpot_ms < 150
    assert a.setup.monthly_cost_chf == pytest.approx(H100_MONTH, abs=0.01)
    assert a.saving_chf_month == pytest.approx(H100_MONTH - L40S_HIKUBE_MONTH, abs=0.01)
    text = render(report, "text")
    for line in ("used per GPU at the peak 19.8 GB of 78.2 GB usable, reserve 75%",
                 "serves ", "this setup: 1× h100-sxm", "the optimum: 1× l40s (Hikube, CH)",
                 "saves 1 355 CHF a month (61 %), 48 776 CHF over 36 months"):
        assert line in text
    markdown = render(report, "markdown")
    assert "## The setup against the optimum" in markdown
    assert '"saving_chf_month": 1354.8875' in render(report, "json")  # 2 221.1375 − 866.25, the rounded prices


def test_the_optimum_itself_is_said_to_be_the_optimum():
    # the advice's own pick for the same workload, audited: nothing saves, no overprovisioning warning
    advice = expert.advise(A100_IDLE["workload"])
    rec = advice.recommendation
    report = expert.audit({"gpu": rec.gpu, "count": rec.count, "workload": A100_IDLE["workload"]})
    # 1 × L40S priced at its default offer, Hikube: 693.27 × 1.15 = 797.26 + 0.35 kW × 1.5 × 730 × 0.18 = 68.99
    # → 866.25 CHF; the optimum's offer (RunPod, 712.37) costs 153.88 less: the same configuration, 17.8 %
    # cheaper elsewhere — a provider comparison (000 R4), not overprovisioning
    assert (rec.gpu, rec.count) == ("l40s", 1) and report.audit.is_optimum
    assert report.audit.saving_chf_month == pytest.approx(693.27 * 1.15 + 0.35 * 1.5 * 730 * 0.18 - L40S_MONTH, abs=0.01)
    assert report.audit.summary == ("This setup is the optimum configuration; at RunPod, the optimum's offer, it "
                                    "costs 154 CHF a month less (17.8 %).")
    assert _finding(report, "m1-optimum-saves") is None


def test_underprovisioned_and_downgrade_never_fire_together():
    # mean 40 % (under R4's 50 %: sustained under-use) but peaks at 90 % (over R4's 85 %: saturation): the
    # saturation speaks, the downgrade does not (000 R4 gives both thresholds; one report cannot hold both)
    setup = {"gpu": "l40s", "count": 2, "utilization": {"mean": 0.4, "peak": 0.9},
             "workload": {"model": "llama-3.1-8b", "requests_per_day": 50000}}
    ids = {f.rule_id for f in expert.audit(setup).findings}
    assert "r4-peak-saturation" in ids
    assert "r4-sustained-underuse-downgrade" not in ids and "m1-optimum-saves" not in ids


def test_advice_json_keeps_its_shape():
    # the audit-only fields are not written in an advice
    data = expert.advise(A100_IDLE["workload"]).model_dump(mode="json")
    assert "audit" not in data and "used_per_gpu_gb" not in data["memory"]
    assert "load_ratio" not in data["capacity"]


def test_chat_audit_card_shows_the_report_figures():
    # the chat's /audit card: the same name ("reserve") and figure as the report's memory line, the capacity
    # against the peak, and the saving sentence of the JSON's audit.summary
    from tui.widgets.audit_card import audit_body

    report = expert.audit(yaml.safe_load((ROOT / "examples" / "idle-h100.yaml").read_text()))
    card = audit_body(report, "en").plain
    assert "used per GPU at the peak 19.8 GB of 78.2 GB usable, reserve 75%" in card
    assert "peak 0.69 req/s (load 6%)" in card  # 0.69 / 10.78 req/s on the card = 6.4 % and "2 221 CHF per month" in card
    assert report.audit.summary in card



def _scenario_setup(name):
    return yaml.safe_load((ROOT / "tests" / "scenarios" / f"{name}.scenario.yaml").read_text())["setup"]


def test_a_pool_audit_compares_with_the_pool_search_as_advise_runs_it():
    # five agents on one L40S: their replicas need 87 GB, two GPUs (u4-pool-needs-more-gpus). The optimum is
    # the pool search's own pick, the same as `advise` of the same agents: 2 × L40S = 1 732.49 CHF a month,
    # dearer than the setup's 866.25 — no saving, and the setup is not said to meet its targets
    setup = _scenario_setup("audit-u4-pool-one-gpu-for-five-agents")
    report = expert.audit(setup)
    advice = expert.advise(setup["workload"])
    a = report.audit
    assert (a.optimum.gpu, a.optimum.count) == (advice.recommendation.gpu, advice.recommendation.count) == ("l40s", 2)
    assert a.setup.monthly_cost_chf == pytest.approx(L40S_HIKUBE_MONTH, abs=0.01)
    assert a.optimum.monthly_cost_chf == pytest.approx(2 * L40S_HIKUBE_MONTH, abs=0.02)
    assert a.saving_chf_month == 0 and a.meets_targets is False and not a.is_optimum


def test_a_hand_placed_pool_on_two_gpus_that_one_serves_shows_the_saving():
    # two agents (8B at 20 000/day, 13B at 2 000/day) placed by hand on 2 × L40S; the pool search puts both in
    # FP8 on one L40S: saves 866.25 CHF a month, 50 %, 36 × 866.25 = 31 185 CHF over the horizon
    report = expert.audit(_scenario_setup("audit-u4-pool-running-estimate-above"))
    a = report.audit
    assert (a.optimum.gpu, a.optimum.count) == ("l40s", 1)
    assert a.saving_chf_month == pytest.approx(L40S_HIKUBE_MONTH, abs=0.02)
    assert a.saving_share == pytest.approx(0.5, abs=1e-4)
    assert a.saving_chf_horizon == pytest.approx(36 * L40S_HIKUBE_MONTH, abs=0.5)


@pytest.mark.parametrize("hosting, country, price_country, shown", [
    # a US-hosted rented A100 setup is priced at the Swiss provider's rent (catalog.pricing: the document's
    # provider first): the line names the setup's country and the price's source with its own country
    ({"country": "US"}, "US", "CH", "(US; priced at Hikube (as 000 describes the GPU), CH)"),
    # hosted where the price comes from: one country, no separate price source
    ({"country": "CH"}, "CH", None, "(Hikube (as 000 describes the GPU), CH)"),
])
def test_audit_names_the_setups_country_and_the_prices_separately(hosting, country, price_country, shown):
    report = expert.audit({**A100_IDLE, "hosting": hosting})
    mine = report.audit.setup
    assert (mine.country, mine.price_country, mine.offer) == (country, price_country, "hikube-a100-80gb-as-described")
    assert mine.priced_elsewhere is (True if price_country else None)
    assert shown in render(report, "text")
    assert ("price_country" in report.model_dump(mode="json")["audit"]["setup"]) == (price_country is not None)


def test_capacity_counts_d3_concurrency_at_the_setups_own_answer_time():
    # 000 D3: concurrent inferences = peak rps × inference time / target utilisation 0.7, the inference
    # time being the setup's complete answer at the peak (TTFT p95 + (output − 1) × TPOT), as the
    # configurator counts a candidate's (feasibility._serving); one H100 serves the peak, so 1 GPU needed
    report = expert.audit(yaml.safe_load((ROOT / "examples" / "idle-h100.yaml").read_text()))
    c, s = report.capacity, report.audit.setup
    answer = s.ttft_p95_s + (250 - 1) * s.tpot_ms / 1000  # the example states no output: the default 250
    assert c.inference_time_s == pytest.approx(answer, rel=2e-3)
    assert c.concurrent_inferences == pytest.approx(0.6944 * c.inference_time_s / 0.7, rel=1e-3)
    assert c.gpus_needed == 1


def test_setup_beyond_capacity_states_what_the_peak_needs():
    # 000 D3 example load: 5 M requests a day = 57.87 req/s, × 3 = 173.6 req/s at the peak on one L40S
    # (Llama-3.1-8B fp16). Before, the capacity line read "concurrent inferences 1.0, GPUs needed 1" and an
    # inference time of 0.0 s. Now: the GPUs of its kind the configurator's check needs (the reason sentence
    # names the same count), D3's concurrency over the answer time at that count, and "does not serve".
    setup = {"gpu": "l40s", "count": 1, "hosting": {"country": "CH", "provider_seat": "CH"},
             "workload": {"model": "llama-3.1-8b", "requests_per_day": 5_000_000}}
    report = expert.audit(setup)
    c, a = report.capacity, report.audit
    assert c.load_ratio > 50 and a.meets_targets is False
    assert c.inference_time_s > 0
    assert c.concurrent_inferences == pytest.approx(173.61 * c.inference_time_s / 0.7, rel=1e-3)
    # a replica serves at most 3.42 req/s within the targets at U = 0.7 (serving_capacity_rps, with the KV
    # read at kv_read_efficiency; 3.17 before), so ≥ 173.61 / 3.42 = 50.8 → 51 GPUs
    assert c.gpus_needed == math.ceil(c.peak_rps / c.serving_capacity_rps) >= 51
    assert f"the peak load needs {c.gpus_needed} GPUs, has 1" in a.summary
    text = render(report, "text")
    assert a.missed == "peak" and "by the estimate, does not serve the peak within the latency targets" in text
    assert "a target counts as met up to 10 % above it" in text


def test_an_owned_setup_priced_at_a_rent_says_so():
    # issue 33 review: two owned A100 SXM in Switzerland; the catalog sells SXM boards in eights only, so
    # audit_cost prices them as the rent of the same GPUs (Hikube). The line read "(Hikube (…), CH)", as if
    # rented there; it now names where the GPUs are and the rent the price comes from. Same country, so no
    # price_country. Monthly: 2 × the Hikube A100 month (A100X4_MONTH / 4) = 3 332 CHF as the golden shows.
    report = expert.audit({**A100_IDLE, "count": 2, "ownership": "owned", "hosting": {"country": "CH"}})
    mine = report.audit.setup
    assert (mine.source, mine.country, mine.price_country, mine.priced_elsewhere) == ("cloud", "CH", None, True)
    assert "(CH; priced at Hikube (as 000 describes the GPU))" in render(report, "text")
    assert mine.monthly_cost_chf == pytest.approx(A100X4_MONTH / 2, abs=0.02)


def test_memory_totals_of_a_replicated_setup_say_they_are_one_copys():
    # issue 33 review: 8 owned A100 80 GB SXM serving Llama-3.1-70B in fp16 printed "total 151.3 GB,
    # reserve 3%" for a setup of 8 × 80 GB = 640 GB. By hand: 70.6 B × 2 bytes ≈ 140 GB of weights exceed one
    # GPU's 78.2 GB usable; at the stated tensor parallel 2 the 8 GPUs run 8 / 2 = 4 copies, and the memory
    # line says its totals are one copy's (unstated, the audit takes TP 4, which serves more: 2 copies)
    setup = {"gpu": "a100-80gb-sxm", "count": 8, "ownership": "owned", "site_country": "CH",
             "workload": {"model": "llama-3.1-70b", "requests_per_day": 20000}}
    assert (expert.audit(setup).audit.setup.tensor_parallel, expert.audit(setup).audit.setup.replicas) == (4, 2)
    report = expert.audit({**setup, "tensor_parallel": 2})
    assert (report.audit.setup.tensor_parallel, report.audit.setup.replicas) == (2, 4)
    assert report.memory.weights_gb == pytest.approx(140.0, abs=1.5)
    text = render(report, "text")
    assert "(per copy of the model: the setup runs 4 copies, tensor parallel 2 each)" in text
    # one copy on one GPU (the idle H100 example) says nothing of copies
    assert "per copy" not in render(expert.audit(yaml.safe_load((ROOT / "examples" / "idle-h100.yaml")
                                                                .read_text())), "text")


def test_the_same_gpus_at_another_precision_are_not_this_setup():
    # audit-r4-saturation-p95-over-target-unoptimised: 2 × L40S serving Llama-3.1-8B in fp16 (transformers)
    # at 400 000 requests a day, 13.89 req/s at the peak: the optimum is the same two cards in fp8 at the
    # same rent (2 × 866.25 = 1 732.50 CHF a month). Before, the report said "This setup is the optimum"
    # beside a capacity section at 198 % load.
    setup = yaml.safe_load((ROOT / "tests" / "scenarios" /
                            "audit-r4-saturation-p95-over-target-unoptimised.scenario.yaml").read_text())["setup"]
    a = expert.audit(setup).audit
    assert (a.optimum.gpu, a.optimum.count, a.optimum.precision) == ("l40s", 2, "fp8")
    assert a.setup.precision == "fp16" and not a.is_optimum
    assert a.optimum.monthly_cost_chf == pytest.approx(2 * L40S_HIKUBE_MONTH, abs=0.01)
    assert "2× l40s at fp8, costs the same as this setup, 1 732 CHF a month" in a.summary


def test_fine_tuning_that_does_not_fit_is_not_overprovisioning():
    # one H200 (141 GB) serving and LoRA-tuning a 70B monthly: the tuning needs 146 GB (d2 fires), so the
    # setup is short of memory and m1-optimum-saves (overprovisioning) must not fire beside it
    report = expert.audit(yaml.safe_load((ROOT / "tests" / "scenarios" /
                                          "audit-u3-70b-retrained-on-one-gpu.scenario.yaml").read_text())["setup"])
    fired = {f.rule_id for f in report.findings}
    assert "d2-finetuning-memory-exceeds-setup" in fired and "m1-optimum-saves" not in fired
