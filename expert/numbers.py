"""How numbers are written for people, in every output (CLI reports, the configurator's reasons,
the chat): thousands grouped with a space in both languages (`1 234 568`), decimals with the
language's mark (8.5 in English, 8,5 in German).

Kept free of imports so the chat can use it before the pipeline is loaded.
"""

from __future__ import annotations


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
