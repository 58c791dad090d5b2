"""The near-tie alternative (expert/facts/near_tie.py): within 2 % of the pick's TCO, and fewer GPUs or a
time per output token at least 1.5× shorter."""

from __future__ import annotations

from expert.facts.near_tie import near_tie_fact

PICK = {"gpu": "a100-80gb-sxm", "count": 4, "tco_chf": 149_636.98, "tpot_ms": 45.6, "horizon_months": 36}


def alt(gpu, count, tco, tpot):
    return {"gpu": gpu, "count": count, "tco_chf": tco, "tpot_ms": tpot}


def test_u1s_two_h100_nvl_are_a_near_tie():
    fact = near_tie_fact(PICK, [alt("h100-nvl", 2, 150_108.0, 20.7), alt("b200", 1, 159_754.0, 8.8)])
    # 150 108 − 149 636.98 = 471.02 CHF = 0.31 % of the pick; 45.6 / 20.7 = 2.20× faster, 2 GPUs < 4
    assert fact["gpu"] == "h100-nvl" and round(fact["extra_chf"], 2) == 471.02
    assert round(fact["extra_share"], 4) == 0.0031 and round(fact["speedup"], 2) == 2.20 and fact["fewer_gpus"]


def test_too_expensive_or_not_better_is_no_tie():
    # 1 × B200 is 6.8 % dearer; 5 × A100 PCIe is within 2 % but slower and larger
    assert near_tie_fact(PICK, [alt("b200", 1, 159_754.0, 8.8)]) is None
    assert near_tie_fact(PICK, [alt("a100-80gb-pcie", 5, 150_000.0, 34.5)]) is None
    # 1.5× is the bar: 45.6 / 30.4 = 1.5 passes, 45.6 / 31 = 1.47 does not (same count)
    assert near_tie_fact(PICK, [alt("h100-sxm", 4, 150_000.0, 30.4)]) is not None
    assert near_tie_fact(PICK, [alt("h100-sxm", 4, 150_000.0, 31.0)]) is None
    assert near_tie_fact(None, [alt("h100-nvl", 2, 1.0, 1.0)]) is None
