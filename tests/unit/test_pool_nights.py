"""Checkpoint storage says why it is not priced (issue 33 review, item 5); a pool's idle nights are in
tests/configurator/test_pool_runs.py."""

from __future__ import annotations

import expert
from expert.report.render import render


def test_the_single_plan_says_checkpoint_storage_is_not_priced():
    # 13B LoRA: the adapters' parameters × 14 B; two kept; no dated storage price in the catalog
    report = expert.advise({"model": "llama-2-13b", "requests_per_day": 20000, "fine_tuning": "monthly"})
    text = render(report, "text")
    assert "GB of storage, not priced: the catalog holds no dated, cited storage price" in text
