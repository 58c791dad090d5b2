"""Advise, then audit the recommended configuration as a setup (issue 11): the audit of the tool's own
pick raises no warning about the choice itself — overprovisioning (000 M1), under-provisioning (D3,
R2, R4, U4), interconnect and tensor parallelism (004 C6-C9), GPU class (000 G10/G11), a partly
populated SXM purchase (004 C3) — and nothing critical at all, for every scenario workload. A pool of
agents is audited group by group, each serving group with its agents' placement (`pool_groups`).

Findings about what the workload itself asks for (its budget horizon T5, int4 it allows Q2, the
provider's certificates M4, a fine-tuning departure M2 the report explains with its team-time
numbers) are not about the sizing of the choice and are not checked here; nor is M4's finding on sensitive
data hosted outside Switzerland where the workload itself admits that location (`hosting: eu`): the advice
states it as a warning on its pick (`m4-offer-hosted-abroad`), the audit as critical for the running setup.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from expert.api import Expert

SCENARIOS = sorted((Path(__file__).resolve().parents[1] / "scenarios").glob("*.scenario.yaml"))
WORKLOADS = [(p.name, yaml.safe_load(p.read_text(encoding="utf-8"))["workload"]) for p in SCENARIOS
             if "workload" in yaml.safe_load(p.read_text(encoding="utf-8"))]
ABOUT_THE_CHOICE = {"overprovisioning", "underprovisioning", "interconnect", "unsuitable-gpu-class"}
RULES_ABOUT_THE_CHOICE = {"r3-single-gpu-for-critical-agent", "c3-sxm-not-fully-populated"}
EXPERT = Expert()


def test_there_are_scenario_workloads_and_pools_among_them():
    assert len(WORKLOADS) >= 30
    assert sum(1 for _, w in WORKLOADS if w.get("agents")) >= 2


@pytest.mark.parametrize("name,workload", WORKLOADS, ids=[n for n, _ in WORKLOADS])
def test_audit_of_the_own_recommendation_raises_no_warning_about_it(name, workload):
    advice = EXPERT.advise(workload)
    setups = EXPERT.recommended_setups(advice, workload)
    if advice.recommendation is None:
        assert advice.nothing_fits and setups == []
        return
    assert setups
    for setup in setups:
        report = EXPERT.audit(setup)
        asked = {"m4-regulated-data-hosted-abroad"} if workload.get("hosting") in ("eu", "any") else set()
        bad = [f"{f.rule_id} ({f.severity}): {f.explanation}" for f in report.findings if f.rule_id not in asked
               and (f.severity == "critical" or (f.severity == "warning" and (
                   f.category in ABOUT_THE_CHOICE or f.rule_id in RULES_ABOUT_THE_CHOICE)))]
        assert not bad, f"{name}: {setup['count']}× {setup['gpu']}: " + " | ".join(bad)
