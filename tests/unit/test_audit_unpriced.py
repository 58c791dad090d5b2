"""An audit of a setup the catalog does not price still shows its memory, capacity and speed, and names the
configurator's optimum for the same workload, without inventing a saving (issue 33, docs/audit-review.md
departure 12); a setup is checked as it stands, without the reserve the search demands of a pick."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

import expert
from expert.report.render import render

ROOT = Path(__file__).resolve().parents[2]
# L40S at Hikube: 693.27 × 1.15 = 797.26 + 0.35 kW × 1.5 × 730 h × 0.18 CHF/kWh = 68.99 → 866.25 CHF/month
L40S_HIKUBE_MONTH = 693.27 * 1.15 + 0.35 * 1.5 * 730 * 0.18


def _scenario_setup(name):
    return yaml.safe_load((ROOT / "tests" / "scenarios" / f"{name}.scenario.yaml").read_text())["setup"]


def test_a100_40gb_without_a_price_shows_capacity_and_names_the_optimum():
    # 000 M5's case: Qwen2.5-14B fp16 (29.4 GB of weights, 73.5 % of 40 GB) on one A100 40 GB PCIe, which the
    # catalog does not price. The search would not pick it (the weights exceed 70 % of the GPU: M5's reserve),
    # but the audit checks it as it runs: peak = 5 000 / 86 400 s × 3 = 0.1736 req/s against a capacity above it
    report = expert.audit(_scenario_setup("audit-m5-14b-fp16-on-a100-40gb"))
    c, a = report.capacity, report.audit
    assert c is not None and c.peak_rps == pytest.approx(5000 / 86400 * 3, abs=1e-4)
    assert c.serving_capacity_rps > c.peak_rps and c.load_ratio == pytest.approx(c.peak_rps / c.serving_capacity_rps, abs=1e-3)
    assert a.setup.monthly_cost_chf is None and a.setup.tco_chf is None and a.setup.source is None
    assert a.setup.country == "CH" and a.meets_targets is True
    # the cheapest Swiss configuration for the same workload: 1 × L40S at Hikube, fp16 as stated
    assert (a.optimum.gpu, a.optimum.count, a.optimum.precision) == ("l40s", 1, "fp16")
    assert a.optimum.monthly_cost_chf == pytest.approx(L40S_HIKUBE_MONTH, abs=0.01)
    assert a.saving_chf_month == 0 and a.saving_share == 0 and not a.is_optimum and a.reason is None
    assert a.summary == ("The catalog has no price for 1× a100-40gb-pcie, so no saving is stated; the optimum "
                         "for the same workload and targets is 1× l40s at fp16, 866 CHF a month.")
    # no saving is claimed, so neither overprovisioning rule reads an optimum fact
    assert not {f.rule_id for f in report.findings} & {"m1-optimum-saves", "r4-optimum-cheaper"}
    text = render(report, "text")
    assert "this setup: 1× a100-40gb-pcie (CH), fp16, not priced in the catalog, first words" in text


def test_gaudi2_without_a_price_in_text_json_and_chat_card():
    from tui.widgets.audit_card import audit_body

    report = expert.audit(_scenario_setup("audit-g12-gaudi2-inference"))
    data = report.model_dump(mode="json")
    assert data["audit"]["setup"]["monthly_cost_chf"] is None and data["audit"]["optimum"]["gpu"] == "l40s"
    assert report.capacity is not None and report.capacity.serving_capacity_rps > report.capacity.peak_rps
    card = audit_body(report, "en").plain
    assert "not priced in the catalog" in card and report.audit.summary in card
    de = expert.audit(_scenario_setup("audit-g12-gaudi2-inference"), lang="de")
    assert de.audit.summary.startswith("Der Katalog hat keinen Preis für 1× gaudi2")
    assert "im Katalog ohne Preis" in render(de, "markdown")


def test_a_running_setup_the_estimate_gives_no_room_reads_its_measurements():
    # docs/audit-review.md departure 5: one A10 measured at 72 % and p95 1.6 s, with 16 stated sequences of
    # 8 192 tokens of which the estimate's KV room holds 2: the estimate finds no operating point, and the
    # capacity section says the measurements win instead of "serves 0.00 req/s"
    report = expert.audit(_scenario_setup("audit-running-a10-8b-measured-facts-win"))
    c = report.capacity
    assert c.serving_capacity_rps == 0 and c.measured_utilization == 0.72 and c.measured_latency_p95_s == 1.6
    text = render(report, "text")
    assert "serves 0.00" not in text
    assert ("by the estimate it serves nothing within the latency targets at the stated load (the findings say "
            "why); measured: mean utilisation 72%, p95 latency 1.60 s, and measurements win") in text


def test_an_audit_without_a_volume_says_so_instead_of_a_blank():
    # departure 6: an agent audit without a load read "processes [Y] requests per day"
    report = expert.audit(_scenario_setup("audit-agent-prefix-aware-healthy"))
    assert "[Y]" not in report.clarification
    assert "processes an unstated number of requests per day" in report.clarification


def test_a_pools_mixed_precisions_are_written_apart():
    # departure 11: a pool serving fp16 and fp8 agents printed "fp16,fp8"
    report = expert.audit(_scenario_setup("audit-u4-pool-running-estimate-above"))
    assert report.audit.setup.precision == "fp16,fp8"  # the JSON keeps the contract's value
    assert "2× l40s (Hikube, CH), fp16/fp8, 1 732 CHF/month" in render(report, "text")


def test_owned_hardware_bought_used_is_priced_used():
    # departure 13: an owned setup was always priced as its system bought new; a setup stating
    # `condition: used` is priced as the same system bought used today (004 Frage 1), where the catalog sells it
    setup = {"gpu": "a100-80gb-pcie", "count": 2, "ownership": "owned", "site_country": "CH",
             "workload": {"model": "llama-3.1-8b", "requests_per_day": 20000}}
    new = expert.audit(setup).audit.setup
    used = expert.audit({**setup, "condition": "used"}).audit.setup
    assert (new.offer, used.offer) == ("purchase:a100-80gb-pcie:new", "purchase:a100-80gb-pcie:used")
    assert used.upfront_chf < new.upfront_chf
    assert "2× a100-80gb-pcie (purchase, used, CH)" in render(expert.audit({**setup, "condition": "used"}), "text")


def test_condition_on_a_rented_setup_is_refused():
    from expert.errors import InputError

    with pytest.raises(InputError, match="condition \\(new \\| used\\) describes owned hardware"):
        expert.audit({"gpu": "l40s", "condition": "used", "workload": {"model": "llama-3.1-8b"}})


def test_a_growth_blocked_setups_reason_names_the_growth_model():
    # departure 10: owned 2× A100 PCIe on 8B with 180B expected; the optimum (sized for 180B beside 8B) costs
    # more "because owned hardware is not among the options", and the larger reason is the growth model
    report = expert.audit(_scenario_setup("audit-c3-owned-pcie-growth-blocked"))
    assert report.audit.reason == "source"
    assert report.audit.summary.endswith("; and the optimum is sized for the expected 180 B model (growth_params_b), "
                                         "which this setup does not hold (Growth).")


def test_an_unstated_tensor_parallelism_is_the_one_that_serves_most():
    # 2× A100 80 GB on Llama-3.1-70B fp8 (72.1 GB of weights): one copy per GPU fits (3 % reserve) and was
    # assumed; an operator runs the TP degree that serves more within the targets, here TP 2
    setup = {"gpu": "a100-80gb-pcie", "count": 2, "hosting": {"country": "CH", "provider_seat": "CH"},
             "workload": {"model": "llama-3.1-70b", "precision": "fp8", "requests_per_day": 20000}}
    tp1, tp2 = (expert.audit({**setup, "tensor_parallel": n}).capacity.serving_capacity_rps for n in (1, 2))
    unstated = expert.audit(setup)
    assert tp2 > tp1 and unstated.audit.setup.tensor_parallel == 2
    assert unstated.capacity.serving_capacity_rps == tp2


def test_the_premium_is_not_called_justified_where_the_optimum_saves_a_fifth():
    # departure 4: 4× H100 SXM on 70B with monthly fine-tuning read "Why the premium GPU … justified" twice
    # (large-model, finetuning) beside an optimum of 2× A100 int8 that saves 62.5 %; from the 20 % of
    # audit_cost.OVERPROVISIONED_SHARE the premium is not justified (the saving is the finding instead)
    c8 = expert.audit(_scenario_setup("audit-c8-nvlink-tp4-h100"))
    assert c8.audit.saving_share >= 0.20
    ids = [f.rule_id for f in c8.findings]
    assert "g13-premium-gpu-justified" not in ids and "r4-optimum-cheaper" in ids
    # 2× H100 on 70B fp8, whose optimum saves 6 %: the document's G5 reason stands
    near = expert.audit(_scenario_setup("audit-70b-fp8-2xh100-tensorrt-llm"))
    assert near.audit.saving_share < 0.20
    assert "g13-premium-gpu-justified" in [f.rule_id for f in near.findings]
