"""Advise, then audit the recommended configuration as a setup (issue 11): the audit of the tool's own
pick raises no warning about the choice itself — overprovisioning (000 M1), under-provisioning (D3,
R2, R4), interconnect and tensor parallelism (004 C6-C9), GPU class (000 G10/G11), a partly
populated SXM purchase (004 C3) — and nothing critical at all, for every scenario workload.

Findings about what the workload itself asks for (its budget horizon T5, int4 it allows Q2, the
provider's certificates M4, a fine-tuning departure M2 the report explains with its team-time
numbers) are not about the sizing of the choice and are not checked here.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

import expert
from expert.configurator.operating import setup_from_choice

SCENARIOS = sorted((Path(__file__).resolve().parents[1] / "scenarios").glob("*.scenario.yaml"))
# single-model workloads: a pool's recommendation is several groups, each its own setup to audit
WORKLOADS = [(p.name, yaml.safe_load(p.read_text(encoding="utf-8"))["workload"]) for p in SCENARIOS
             if "workload" in yaml.safe_load(p.read_text(encoding="utf-8"))
             and "agents" not in yaml.safe_load(p.read_text(encoding="utf-8"))["workload"]]
ABOUT_THE_CHOICE = {"overprovisioning", "underprovisioning", "interconnect", "unsuitable-gpu-class"}
RULES_ABOUT_THE_CHOICE = {"r3-single-gpu-for-critical-agent", "c3-sxm-not-fully-populated"}


def test_there_are_scenario_workloads():
    assert len(WORKLOADS) >= 30


@pytest.mark.parametrize("name,workload", WORKLOADS, ids=[n for n, _ in WORKLOADS])
def test_audit_of_the_own_recommendation_raises_no_warning_about_it(name, workload):
    advice = expert.advise(workload)
    if advice.recommendation is None:
        assert advice.nothing_fits
        return
    setup = setup_from_choice(advice.recommendation.model_dump(), workload,
                              advice.training_plan.chosen if advice.training_plan else None)
    report = expert.audit(setup)
    bad = [f"{f.rule_id} ({f.severity}): {f.explanation}" for f in report.findings
           if f.severity == "critical" or (f.severity == "warning" and (
               f.category in ABOUT_THE_CHOICE or f.rule_id in RULES_ABOUT_THE_CHOICE))]
    assert not bad, f"{name}: {advice.recommendation.count}× {advice.recommendation.gpu}: " + " | ".join(bad)
