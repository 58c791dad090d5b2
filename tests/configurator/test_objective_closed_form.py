"""The search's float path of the GPU cost equals the buy-versus-rent cost line exactly.

`objective.gpu_cost` prices every (source, count) pair the cost-ordered search visits without building
a `CostLine`; the report, `gpu-expert cost` and the chat use `expert.sizing.buyrent`. Both must give
the same number to the last bit (==), or the pick and the printed cost could disagree.
"""

from __future__ import annotations

import pytest

from expert.catalog import load_catalog
from expert.configurator.candidates import catalog_sources
from expert.configurator.objective import _total, cost_line
from expert.sizing.constants import resolve


@pytest.mark.parametrize("months", [6, 12, 18, 36, 60])
@pytest.mark.parametrize("changes", [{}, {"electricity_chf_per_kwh": 0.31, "cooling_factor": 1.3,
                                          "hours_per_month": 712, "infrastructure_share": 0.2}])
def test_float_path_equals_the_cost_line(months, changes):
    catalog = load_catalog()
    a = resolve(None).override(**changes) if changes else resolve(None)
    checked = 0
    for source in catalog_sources(catalog):
        for count in source.counts:
            assert _total(source, count, months, a) == cost_line(source, count, months, a).total, \
                (source.key, count, months)
            checked += 1
    assert checked > 300   # 27 offers × 24 counts alone are 648 pairs
