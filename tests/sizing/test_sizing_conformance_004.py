"""Conformance with document 004's throughput table (C7), its per-card figures (C8) and the X5 conflict."""

from __future__ import annotations

import pytest
from sizing_fixtures import GPUS, MODELS

from expert.sizing import c8_cross_check, performance, tp_efficiency, tp_speedup
from expert.sizing.parallel import column_for


@pytest.mark.parametrize("tp,sxm,pcie", [
    (1, (1.0, 1.0), (1.0, 1.0)),
    (2, (1.8, 1.8), (1.75, 1.8)),
    (4, (3.3, 3.6), (2.8, 3.0)),
    (8, (5.5, 6.5), (4.0, 4.5)),
])
def test_004_C7_scaling_per_degree_and_type(tp, sxm, pcie):
    # the table rows verbatim: SXM4/HGX full mesh vs PCIe pairwise (bridge)
    for column, (low, high) in (("sxm", sxm), ("pcie", pcie)):
        point, band = tp_speedup(tp, column)
        assert (band.low, band.high) == pytest.approx((low, high))
        assert point == pytest.approx((low + high) / 2)


def test_004_C7_gap_between_server_types():
    # TP 2 "≈ none": 1.8 vs 1.775 → 1.4 %; TP 4 "~15-20 %": 1 − 2.9/3.45 = 15.9 %; TP 8 "~30-40 %":
    # 1 − 4.25/6.0 = 29.2 % (midpoints; 0.8 pp under the stated range, the table's own rounding)
    gap = {tp: 1 - tp_speedup(tp, "pcie")[0] / tp_speedup(tp, "sxm")[0] for tp in (2, 4, 8)}
    assert gap[2] < 0.02
    assert 0.15 <= gap[4] <= 0.20
    assert 0.29 <= gap[8] <= 0.40


def test_004_C7_efficiency_used_by_speed_model():
    # η = speedup / TP: SXM TP 4 = 3.45/4 = 0.8625; PCIe TP 4 = 2.9/4 = 0.725; SXM TP 8 = 6/8 = 0.75
    m = MODELS["llama-3.1-70b"]
    assert performance(m, GPUS["h100-sxm"], 4, 4).tensor_parallel_efficiency == pytest.approx(0.8625)
    assert performance(m, GPUS["a100-80gb-pcie"], 4, 4).tensor_parallel_efficiency == pytest.approx(0.725)
    assert performance(m, GPUS["h100-sxm"], 8, 8).tensor_parallel_efficiency == pytest.approx(0.75)
    assert performance(m, GPUS["h100-sxm"], 4, 4, interconnect="pcie").tensor_parallel_efficiency \
        == pytest.approx(0.725)


def test_004_C7_column_choice():
    # NVLink mesh and Infinity Fabric → SXM column; bridge, PCIe and no link → PCIe column (004, C3/C8)
    assert column_for(GPUS["h100-sxm"]) == "sxm"
    assert column_for(GPUS["mi300x"]) == "sxm"
    assert column_for(GPUS["a100-80gb-pcie"]) == "pcie"
    assert column_for(GPUS["l40s"]) == "pcie"
    assert column_for(GPUS["l40s"], "nvlink") == "sxm"
    assert column_for(GPUS["h100-sxm"], "pcie-bridge") == "pcie"
    with pytest.raises(ValueError):
        column_for(GPUS["l40s"], "carrier-pigeon")


def test_004_C7_between_and_beyond_rows():
    # TP 3 interpolates TP 2 and TP 4: (1.8 + 3.45)/2 = 2.625; TP 16 is outside the table
    assert tp_speedup(3, "sxm")[0] == pytest.approx(2.625)
    with pytest.raises(ValueError):
        tp_speedup(16, "sxm")


def test_004_C9_even_sxm_does_not_scale_linearly():
    # per-card efficiency falls with TP: 1.0, 0.9, 0.8625, 0.75
    effs = [tp_efficiency(tp, "sxm")[0] for tp in (1, 2, 4, 8)]
    assert effs == sorted(effs, reverse=True) and effs[-1] < 0.8


def test_004_C8_per_card():
    # C8: NVLink ≈ 0.92 per card ("two SXM ≈ 1.84×"); PCIe 0.70-0.78; a 4-GPU PCIe benchmark 61-74 %.
    # C7's PCIe TP 4 row gives 2.8/4-3.0/4 = 0.70-0.75: consistent with both PCIe figures.
    pcie4 = c8_cross_check(4, "pcie")
    assert pcie4["consistent"]
    assert (pcie4["c7_efficiency"].low, pcie4["c7_efficiency"].high) == pytest.approx((0.70, 0.75))
    assert 0.61 <= 0.70 <= 0.74  # benchmark overlaps the table row
    # two SXM cards: C8 1.84× vs C7 ~1.8× — 2 % apart, the table's "~"
    assert 2 * 0.92 == pytest.approx(tp_speedup(2, "sxm")[0], rel=0.025)


def test_004_X5_flat_092_contradicts_tp4_tp8_rows():
    # SXM TP 4: 3.3/4-3.6/4 = 0.825-0.90; TP 8: 5.5/8-6.5/8 = 0.6875-0.8125 — both below C8's 0.92.
    for tp, (low, high) in ((4, (0.825, 0.90)), (8, (0.6875, 0.8125))):
        check = c8_cross_check(tp, "sxm")
        assert (check["c7_efficiency"].low, check["c7_efficiency"].high) == pytest.approx((low, high))
        assert not check["consistent"] and check["c8_per_card"].low > check["c7_efficiency"].high
    # PCIe: C8's 0.70-0.78 is also off at TP 2 (0.875-0.90, better with a bridge) and TP 8 (0.50-0.5625)
    assert not c8_cross_check(2, "pcie")["consistent"]
    assert not c8_cross_check(8, "pcie")["consistent"]
