"""Safe text filling: every filter in English and German, and hostile placeholders refused."""

from __future__ import annotations

import pytest

from expert.engine.templates import TemplateError, format_value, placeholders, render


@pytest.mark.parametrize(("value", "name", "en", "de"), [
    (0.35, "pct", "35 %", "35 %"),
    (0.355, "pct", "35.5 %", "35,5 %"),
    (1, "pct", "100 %", "100 %"),
    (15.04, "gb", "15.0 GB", "15,0 GB"),
    (1234.56, "gb", "1 234.6 GB", "1 234,6 GB"),
    (57572, "int", "57 572", "57 572"),
    (57572.6, "int", "57 573", "57 573"),
    (2310, "chf", "2 310 CHF", "2 310 CHF"),
    (1234567.4, "chf", "1 234 567 CHF", "1 234 567 CHF"),
    (1.8, "x", "1.8×", "1,8×"),
    (2, "x", "2.0×", "2,0×"),
    (1.25, "round1", "1.2", "1,2"),
    (1.26, "round1", "1.3", "1,3"),
    (3.14159, "round2", "3.14", "3,14"),
    (12345.678, "round2", "12 345.68", "12 345,68"),
    (-0.01, "round1", "0.0", "0,0"),
])
def test_filters_in_both_languages(value: float, name: str, en: str, de: str) -> None:
    assert format_value(value, name, "en") == en
    assert format_value(value, name, "de") == de


@pytest.mark.parametrize(("value", "en", "de"), [
    ("h100-sxm", "h100-sxm", "h100-sxm"),
    (0.35, "0.35", "0,35"),
    (8, "8", "8"),
    (True, "yes", "ja"),
    (False, "no", "nein"),
    (["iso27001", "soc2"], "iso27001, soc2", "iso27001, soc2"),
])
def test_values_without_filter(value: object, en: str, de: str) -> None:
    assert format_value(value, None, "en") == en
    assert format_value(value, None, "de") == de


def test_render_fills_placeholders_and_literal_braces() -> None:
    values = {"s": {"gpu": "h100-sxm", "utilization_mean": 0.35, "storage": {"type": "nvme"}}}
    text = "{s.gpu} at {s.utilization_mean|pct} on {s.storage.type} {{not a placeholder}}"
    assert render(text, values, "en") == "h100-sxm at 35 % on nvme {not a placeholder}"
    assert render("{s.utilization_mean}", values, "de") == "0,35"


def test_placeholders_are_parsed_with_their_filters() -> None:
    found = placeholders("{s.gpu} {w.rate|chf} {{x}}")
    assert [(p.alias, p.field, p.filter, p.path) for p in found] == [
        ("s", "gpu", None, "s.gpu"), ("w", "rate", "chf", "w.rate")]


@pytest.mark.parametrize(("text", "reason"), [
    ("{s.__class__}", "malformed placeholder"),
    ("{s.gpu.__class__.__mro__}", "malformed placeholder"),
    ("{s._n}", "malformed placeholder"),
    ("{s}", "malformed placeholder"),
    ("{0}", "malformed placeholder"),
    ("{s.gpu!r}", "malformed placeholder"),
    ("{s.gpu:>10}", "malformed placeholder"),
    ("{s.gpu|upper}", "unknown filter 'upper'"),
    ("{s.gpu|pct|x}", "malformed placeholder"),
    ("100 { %", "stray '{'"),
    ("a } b", "stray '}'"),
])
def test_hostile_or_malformed_placeholders_are_rejected(text: str, reason: str) -> None:
    with pytest.raises(TemplateError, match=reason.replace("|", r"\|")):
        placeholders(text)


def test_render_never_reaches_attributes_of_values() -> None:
    # `real` is an attribute of float; lookups descend only into dicts, so it is simply absent
    with pytest.raises(TemplateError, match=r"no value for \{s.x.real\}"):
        render("{s.x.real}", {"s": {"x": 1.5}}, "en")


def test_render_refuses_missing_values_and_non_numbers_for_numeric_filters() -> None:
    with pytest.raises(TemplateError, match=r"no value for \{s.missing\}"):
        render("{s.missing}", {"s": {}}, "en")
    with pytest.raises(TemplateError, match="filter 'pct' needs a number"):
        render("{s.gpu|pct}", {"s": {"gpu": "h100"}}, "en")
    with pytest.raises(TemplateError, match="filter 'chf' needs a number"):
        render("{s.flag|chf}", {"s": {"flag": True}}, "en")
