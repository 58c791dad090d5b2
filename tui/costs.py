"""Cumulative cost over the months, renting against buying, with the break-even month. No Textual.

Built from the report alone with the core's one buy-versus-rent computation (`expert.sizing.buyrent`:
cost lines, break-even, which is cheaper): a configuration's cumulative cost at month m is what the
report says is paid up front (a complete system's price; zero for a rental) plus m × its monthly
cost, less the resale at the horizon, so the line ends at the report's TCO. The other side of the
comparison is the cheapest alternative of the other kind in the report; only when the report holds
none is a purchase of the recommended GPUs priced (`bought`).
The chart is plain Unicode text, so it fits 80 columns and needs no colour.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from expert.messages import t
from expert.report.numbers import dec, grouped


if TYPE_CHECKING:  # types only: the report models load with the pipeline
    from expert.report.models import Choice, Report
    from expert.sizing.buyrent import CostLine as Line

_CORE = {"Line": "CostLine", "break_even": "break_even_months", "buy_or_rent": "cheaper"}


def __getattr__(name: str):
    """`Line`, `break_even`, `buy_or_rent`: the core's, loaded on first use (the chat starts without
    pydantic; the core loads with the pipeline)."""
    if name in _CORE:
        from expert.sizing import buyrent

        return getattr(buyrent, _CORE[name])
    raise AttributeError(name)

BAR = "█"
BUY_BAR = "▒"


def line_of(choice: Choice) -> Line:
    """A configuration as a cost line of the core's buy-versus-rent computation: what the report says
    is paid up front and resold (bought hardware), the rest spread evenly, so `total` is its TCO."""
    upfront, resale = choice.upfront_chf or 0.0, choice.resale_chf or 0.0
    monthly = (choice.tco_chf - upfront + resale) / choice.horizon_months
    return __getattr__("Line")(f"{choice.count}× {choice.gpu}", upfront, monthly, resale, choice.horizon_months)


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
    return rent, buy if buy is not None else bought, rec.horizon_months


def _describe(line: Line, lang: str) -> str:
    text = (f"{grouped(line.upfront)} CHF + " if line.upfront >= 1 else "") + f"{grouped(line.monthly)} CHF/{t('chat.month', lang)}"
    if line.resale:
        text += f" − {grouped(line.resale)} CHF " + t("chat.resale", lang)
    return text


def summary(report: Report, lang: str = "en", bought: Line | None = None) -> str:
    """One or two lines for the answer view: both options and the break-even (F2 shows the chart)."""
    rent, buy, horizon = compare(report, bought)
    parts = [f"{name} {line.label}: " + _describe(line, lang)
             for name, line in ((t("chat.rent", lang), rent), (t("chat.buy", lang), buy)) if line]
    if rent and buy:
        be = __getattr__("break_even")(rent, buy)
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
    be = __getattr__("break_even")(rent, buy) if rent and buy else None
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
        cheaper = t(f"chat.{__getattr__('buy_or_rent')(rent, buy)}", lang)
        out.append(f"{t('chat.cheaper_over', lang, m=horizon)}: {cheaper}")
    else:
        other = t("chat.buy", lang) if buy is None else t("chat.rent", lang)
        out.append("  " + t("chat.no_compare", lang, other=other))
    return "\n".join(out)
