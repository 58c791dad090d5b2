"""expert.report.numbers: the one place numbers are written for people (values worked out by hand)."""

from __future__ import annotations

from expert.report.numbers import chf, dec, grouped, number


def test_grouped_and_chf_round_to_whole_units_with_a_space_between_thousands():
    assert grouped(1234567.8) == "1 234 568"
    assert chf(59971.2) == "59 971 CHF"


def test_dec_uses_the_languages_decimal_mark():
    assert dec(0.2345, "en", 2) == "0.23" and dec(0.2345, "de", 2) == "0,23"


def test_number_general_form():
    assert number(12345.678, 1, "de") == "12 345,7"
    assert number(12345.678, 1, "en", group=False) == "12345.7"
    assert number(45.0, 1, "en", group=False, trim=True) == "45"   # 45.0 → trailing zero dropped
    assert number(-0.004, 2, "en") == "0.00"                        # never "-0.00"
