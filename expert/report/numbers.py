"""How figures are written for people in reports, the configurator's reasons and the chat's
cards: thousands grouped with a space in both languages (`1 234 568`), decimals with the
language's mark (8.5 in English, 8,5 in German). (The clarification sentence keeps its own
`expert.interview.numbers.fmt`: `20,000` in English, as the sentence is written.)

`number` is the general form (the rule templates' filters use it); `grouped`, `chf` and `dec` are
its common cases. Kept free of imports so the chat can use it before the pipeline is loaded.
"""

from __future__ import annotations

import math


def grouped(value: float) -> str:
    """1234567.8 → `1 234 568` (rounded to whole units, a space between thousands)."""
    return f"{value:,.0f}".replace(",", " ")


def chf(value: float) -> str:
    """1234567.8 → `1 234 568 CHF`."""
    return grouped(value) + " CHF"


def dec(value: float, lang: str, digits: int = 1) -> str:
    """A decimal number as the language writes it: 0.23 in English, 0,23 in German."""
    text = f"{value:.{digits}f}"
    return text.replace(".", ",") if lang == "de" else text


def rate(value: float, lang: str) -> str:
    """A rate with two decimals, or two significant digits where two decimals would write a positive rate
    as 0.00 (an agent's 0.0035 steps/s per replica)."""
    if 0 < abs(value) < 0.005:
        return number(value, 1 - math.floor(math.log10(abs(value))), lang, group=False)
    return dec(value, lang, 2)


def number(value: float, decimals: int, lang: str, *, group: bool = True, trim: bool = False) -> str:
    """`value` with `decimals` places in the language's marks: thousands grouped with a space
    (unless `group` is false), `,` as the German decimal mark; `trim` drops trailing zeros; never `-0`."""
    text = f"{value:,.{decimals}f}" if group else f"{value:.{decimals}f}"
    if trim and "." in text:
        text = text.rstrip("0").rstrip(".")
    if text in ("-0", "-0.0", "-0.00"):
        text = text[1:]
    text = text.replace(",", " ")
    return text.replace(".", ",") if lang == "de" else text
