"""Cumulative cost over the months, renting against buying, with the break-even month. No Textual.

Built from the report alone: a configuration's cumulative cost at month m is an up-front part plus
m × its monthly cost, where the up-front part is what its total (TCO) holds beyond the monthly
costs (a purchase price; zero for a rental). The other side of the comparison is the cheapest
alternative of the other kind (a purchase against a rented recommendation, and vice versa).
The chart is plain Unicode text, so it fits 80 columns and needs no colour.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

from expert.messages import t
from expert.numbers import dec, grouped


if TYPE_CHECKING:  # types only: the report models load with the pipeline
    from expert.report.models import Choice, Report

BAR = "█"
BUY_BAR = "▒"


@dataclass(frozen=True)
class Line:
    """One configuration's cost over time."""

    label: str
    upfront: float
    monthly: float
    credit: float = 0.0
    """Resale value received at the end of the horizon (000 T5), 0 for rentals."""
    horizon: int | None = None

    def at(self, month: float) -> float:
        """Cumulative cost after `month` months, CHF (the resale is credited at the horizon)."""
        credit = self.credit if self.horizon is not None and month >= self.horizon else 0.0
        return self.upfront + self.monthly * month - credit


def line_of(choice: Choice) -> Line:
    """A configuration as a cost line (up-front part = TCO − monthly × horizon, never negative)."""
    upfront = max(choice.tco_chf - choice.monthly_cost_chf * choice.horizon_months, 0.0)
    return Line(f"{choice.count}× {choice.gpu}", upfront, choice.monthly_cost_chf)


def is_bought(choice: Choice) -> bool:
    """Packages and purchases are bought; cloud offers are rented."""
    return choice.source != "cloud"


def compare(report: Report, bought: Line | None = None) -> tuple[Line | None, Line | None, int]:
    """(rent line, buy line, horizon months) for the report; either line may be None.

    `bought`: a purchase of the recommended GPUs at catalog price, used when the report holds no
    bought alternative."""
    rec = report.recommendation
    if rec is None:
        return None, None, 36
    rent = buy = None
    for choice in [rec, *report.alternatives]:
        if is_bought(choice) and buy is None:
            buy = line_of(choice)
        elif not is_bought(choice) and rent is None:
            rent = line_of(choice)
    return rent, bought or buy, rec.horizon_months


def break_even(rent: Line, buy: Line) -> float | None:
    """Month from which buying has cost less than renting; None if it never does."""
    saving = rent.monthly - buy.monthly
    if buy.upfront <= 0:
        return 0.0 if saving >= 0 else None
    return buy.upfront / saving if saving > 0 else None


def _describe(line: Line, lang: str) -> str:
    text = (f"{grouped(line.upfront)} CHF + " if line.upfront >= 1 else "") + f"{grouped(line.monthly)} CHF/{t('chat.month', lang)}"
    if line.credit:
        text += f" − {grouped(line.credit)} CHF " + t("chat.resale", lang)
    return text


def summary(report: Report, lang: str = "en", bought: Line | None = None) -> str:
    """One or two lines for the answer view: both options and the break-even (F2 shows the chart)."""
    rent, buy, horizon = compare(report, bought)
    parts = [f"{name} {line.label}: " + _describe(line, lang)
             for name, line in ((t("chat.rent", lang), rent), (t("chat.buy", lang), buy)) if line]
    if rent and buy:
        be = break_even(rent, buy)
        parts.append("◆ " + (t("chat.break_even", lang, m=dec(be, lang)) if be is not None and be <= horizon
                             else t("chat.no_break_even", lang, m=horizon)))
    return " · ".join(parts) + f"  ({t('chat.chart_key', lang)})"


def chart(report: Report, lang: str = "en", width: int = 76, rows: int = 6,
          bought: Line | None = None) -> str:
    """The cost chart as text lines: `rows` sampled months, a bar per option, break-even marked."""
    rent, buy, horizon = compare(report, bought)
    if rent is None and buy is None:
        return t("chat.no_report", lang)
    lines_ = [(t("chat.rent", lang), rent, BAR), (t("chat.buy", lang), buy, BUY_BAR)]
    present = [(name, line, ch) for name, line, ch in lines_ if line is not None]
    top = max(line.at(horizon) for _, line, _ in present) or 1.0
    be = break_even(rent, buy) if rent and buy else None
    step = next(s for s in (1, 2, 3, 4, 6, 12, 24, 60, horizon) if horizon / s <= rows)
    months = sorted({min(horizon, step * i) for i in range(1, math.ceil(horizon / step) + 1)})
    bar_width = max(10, width - 30)
    unit = t("chat.mo", lang)
    out = [f"{name:<6}{ch * 3} {line.label}: " + _describe(line, lang) for name, line, ch in present]
    marked = be is None or be > horizon
    for month in months:
        if not marked and be is not None and be <= month:
            out.append(f"{'':>7}◆ {t('chat.break_even', lang, m=dec(be, lang))} ◆")
            marked = True
        for i, (name, line, ch) in enumerate(present):
            value = line.at(month)
            bar = ch * max(1, round(value / top * bar_width))
            head = f"{month:>3} {unit:<3}" if i == 0 else " " * 7
            out.append(f"{head} {name:<6}{bar:<{bar_width}} {grouped(value):>9}")
    if rent and buy:
        if be is None or be > horizon:
            out.append("◆ " + t("chat.no_break_even", lang, m=horizon))
        cheaper = t("chat.rent", lang) if rent.at(horizon) < buy.at(horizon) else t("chat.buy", lang)
        out.append(f"{t('chat.cheaper_over', lang, m=horizon)}: {cheaper}")
    else:
        other = t("chat.buy", lang) if buy is None else t("chat.rent", lang)
        out.append("  " + t("chat.no_compare", lang, other=other))
    return "\n".join(out)
