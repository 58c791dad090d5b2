"""An audit names the real reason a cheaper setup is not the optimum (issue 33 review, item 1) and searches
its optimum where the setup is (item 2): the advice's residency filter, never an offer of unknown location."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

import expert
from expert.report.render import render

ROOT = Path(__file__).resolve().parents[2]


def _setup(name):
    return yaml.safe_load((ROOT / "tests" / "scenarios" / f"{name}.scenario.yaml").read_text())["setup"]


@pytest.mark.parametrize("scenario, reason, words", [
    # an MI300X (AMD) with allow_non_nvidia unset: 000 D4/G12 leave it out of the search, whatever it costs
    ("audit-g12-mi300x", "vendor", "the workload does not allow AMD GPUs (allow_non_nvidia; 000 D4, G12), so the "
                                   "search leaves mi300x out"),
    # an RTX A6000 (grade workstation) for critical production: 000 G10/G11
    ("audit-g10-rtx-a6000-critical", "grade", "critical production excludes workstation GPUs such as rtx-a6000"),
    # owned RTX PRO 6000 cards against the default budget opex, which rents only (candidates.source_kinds)
    ("audit-c6-rtx-pro-tp2-without-nvlink", "source", "the workload (deployment any, budget opex) rents, so owned "
                                                      "hardware is not among the options"),
    # codellama-34b in FP16: 34 B × 2 bytes = 68.0 GB of weights + 0.8 GB KV + 3.4 GB runtime = 72.2 GB (the
    # report's memory section) against the 44.5 GB an L40S holds: the configurator's memory check fails
    ("audit-q2-quantise-to-fit", "constraint", "checked as the configurator checks every configuration, this "
                                               "setup's fails: needs 72 GB, has 44"),
])
def test_a_cheaper_setup_is_told_the_real_reason(scenario, reason, words):
    report = expert.audit(_setup(scenario))
    a = report.audit
    assert a.saving_chf_month == 0 and not a.is_optimum and a.reason == reason
    assert words in a.summary and "the cheapest that meets the targets" not in a.summary
    assert words in render(report, "text") and words in render(report, "markdown")
    assert f'"reason": "{reason}"' in render(report, "json")


def test_a_setup_that_misses_its_targets_keeps_the_targets_reason():
    # five agents on one L40S need two GPUs (u4-pool-needs-more-gpus): the setup does not meet its targets,
    # so "the optimum is the cheapest that meets the targets" is the reason
    a = expert.audit(_setup("audit-u4-pool-one-gpu-for-five-agents")).audit
    assert a.meets_targets is False and a.reason == "targets"
    assert a.summary.endswith("this setup is cheaper, but the optimum is the cheapest that meets the targets at "
                              "the peak.")


def test_the_reason_is_in_german_too():
    a = expert.audit(_setup("audit-g12-mi300x"), lang="de").audit
    assert "die Arbeitslast lässt keine AMD-GPUs zu" in a.summary


W8B = {"model": "llama-3.1-8b", "requests_per_day": 20000}


@pytest.mark.parametrize("country, residency, allowed", [
    # the catalog's located offers (knowledge/offers.yaml): Hikube CH, Scaleway and OVHcloud FR, TensorWave US;
    # RunPod, Lambda, the marketplaces … state no country and are left out
    ("CH", "ch", {"CH"}),
    ("FR", "eu", {"CH", "FR"}),   # hosting eu admits EU/EEA and Switzerland (candidates.EU_EEA_CH)
    ("US", "known", {"CH", "FR", "US"}),
])
def test_the_optimum_is_searched_where_the_setup_is(country, residency, allowed):
    # without the filter the optimum was 1 × L40S at RunPod (712.37 CHF), an offer of unknown location; with
    # it 1 × L40S at Hikube: 693.27 × 1.15 + 0.35 kW × 1.5 × 730 h × 0.18 CHF/kWh = 866.25 CHF a month
    a = expert.audit({"gpu": "h100-sxm", "hosting": {"country": country}, "workload": W8B}).audit
    assert a.residency == residency and a.optimum.country in allowed
    assert a.optimum.offer == "hikube-l40s"
    assert a.optimum.monthly_cost_chf == pytest.approx(693.27 * 1.15 + 0.35 * 1.5 * 730 * 0.18, abs=0.01)


def test_a_stated_hosting_is_left_as_it_is():
    a = expert.audit({"gpu": "h100-sxm", "hosting": {"country": "US"}, "workload": {**W8B, "hosting": "any",
                                                                                   "sector": "finance"}}).audit
    assert a.residency is None  # a finance workload already needs a known location (000 M4)
    assert a.optimum.country is not None


def test_no_located_offer_means_no_invented_saving():
    # a budget of 30 000 CHF over 36 months: 1 × L40S at RunPod (712.37 × 36 = 25 645 CHF) would meet it, the
    # cheapest Swiss configuration (1 × L40S at Hikube, 866.25 × 36 = 31 185 CHF) does not: no optimum in CH
    report = expert.audit({"gpu": "h100-sxm", "hosting": {"country": "CH"},
                           "workload": {**W8B, "budget_limit_chf": 30000}})
    a = report.audit
    assert a.optimum is None and a.saving_chf_month == 0 and a.residency == "ch"
    assert a.summary == ("No configuration of the catalog hosted in Switzerland, where this setup is, serves this "
                         "workload, so there is no optimum to compare with and no saving to state.")
    assert not {"m1-optimum-saves", "r4-optimum-cheaper"} & {f.rule_id for f in report.findings}


def test_a_reason_sized_with_a_stated_growth_model_says_so():
    # audit-well-sized-no-mistakes: 2× L40S, 8B at 300 000 requests a day with growth_params_b 13. The
    # capacity section is today's model (load 164 %); the configurator's check sizes the 13B's KV beside it
    # (a replica holds 11 sequences), so its "needs 11 GPUs" is a different question, and the sentence says so
    setup = yaml.safe_load((Path(__file__).resolve().parents[1] / "scenarios" /
                            "audit-well-sized-no-mistakes.scenario.yaml").read_text("utf-8"))["setup"]
    text = expert.Expert().audit(setup).audit.summary
    assert "the peak load needs 11 GPUs, has 2 (sized with the expected 13 B model of growth_params_b" in text
    without = {**setup, "workload": {k: v for k, v in setup["workload"].items() if k != "growth_params_b"}}
    assert "growth_params_b" not in expert.Expert().audit(without).audit.summary


S1 = {"gpu": "l40s", "count": 1, "workload": {"model": "llama-3.1-70b", "precision": "fp16", "requests_per_day": 5000}}


def test_a_setup_that_cannot_load_the_model_misses_memory_and_only_memory():
    # QA 45 #4, #10 (its case s1: 70B fp16 on one L40S): 70 B × 2 bytes = 140.0 GB of weights + 0.6 KV + 3.4 runtime = 144.0 GB
    # against the 44.5 GB one L40S holds: the model does not load, so the audit does not meet its targets
    # (docs/contract.md: missed "memory"), and its summary states the memory, no TPOT of a model never loaded
    report = expert.audit(S1)
    a = report.audit
    assert a.meets_targets is False and a.missed == "memory" and a.reason == "constraint"
    assert a.summary.endswith("this setup's fails: needs 144 GB, has 44.")
    assert "TPOT" not in a.summary
    data = render(report, "json")
    assert '"meets_targets": false' in data and '"missed": "memory"' in data
