"""The chat's cost lines (the core's `expert.sizing.buyrent.CostLine`): buying accrues running costs and
gets the resale only at the horizon."""

from tui.costs import Line, break_even


def test_regression_buy_line_never_falls_before_the_horizon():
    # 1× A100 80 GB bought: 15 000 CHF, energy + infrastructure 141 CHF/month, resale 5 250 CHF at 36
    buy = Line("1× a100", 15_000, 141, resale=5_250, horizon=36)
    values = [buy.at(m) for m in range(0, 36)]
    assert values == sorted(values)                    # cumulative cost only grows while owned
    assert buy.at(35) == 15_000 + 141 * 35             # 19 935 CHF
    assert buy.at(36) == 15_000 + 141 * 36 - 5_250     # 14 826 CHF after selling


def test_break_even_uses_purchase_and_monthly_difference():
    # 15 000 / (1 666 − 141) = 9.84 months (T4's definition: resale not counted)
    rent, buy = Line("rent", 0, 1_666), Line("buy", 15_000, 141, resale=5_250, horizon=36)
    assert round(break_even(rent, buy), 2) == 9.84
