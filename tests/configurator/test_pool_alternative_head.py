"""QA 47 #13: a pool alternative of several GPU groups is named whole at the start of its line, since its
price is the whole pool's (before: "1× l40s (Hikube, CH), fp8, 2 532 CHF/month" for L40S + A100)."""

from __future__ import annotations

import yaml

from expert.api import Expert
from expert.report.render import render


def test_a_hybrid_pool_alternative_names_both_groups_before_its_price():
    # Hikube rents an L40S at 866 and an A100 80 GB PCIe at 1 666 CHF a month: 866 + 1 666 = 2 532
    with open("examples/agent-pool-t3.yaml") as f:
        report = Expert().advise(yaml.safe_load(f), sensitivity=False)
    hybrid = next(a for a in report.alternatives if a.pool_groups == ["1× l40s", "1× a100-80gb-pcie"])
    assert round(hybrid.monthly_cost_chf) == 2532
    text = render(report, "markdown")
    assert "- pool 1× l40s + 1× a100-80gb-pcie, fp8, 2 532 CHF/month" in text
    assert "- 1× l40s (Hikube, CH), fp8, 2 532 CHF/month" not in text
    # a one-group pool keeps its plain head
    assert any(a.pool_groups is None and a.gpu == "h100-nvl" for a in report.alternatives)
