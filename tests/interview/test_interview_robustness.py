"""Parsers and the flow never raise, whatever is typed (their time on hostile input is measured by
`python -m benchmarks.robustness`, not asserted here)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from expert.interview import Interview, Parsed, parse as p, parse_sentence

PARSERS = [p.parse_model, p.parse_volume, p.parse_fine_tuning, p.parse_data, p.parse_latency,
           p.parse_context, p.parse_sector, p.parse_hosting, p.parse_deployment, p.parse_budget,
           p.parse_horizon, p.parse_growth, p.parse_yes_no, parse_sentence]

# Text built from the pieces the parsers look for, so hypothesis reaches the interesting branches.
PIECES = st.sampled_from(["13", "b", " ", ",", ".", "'", "-", "x", "k", "mio", "pro", "tag", "/", "s",
                          "llama", "3.1", "nicht", "sensibel", "fine-tuning", "ja", "no", "ms", "ü",
                          "\x00", "\n", "１２", "½", "8x7b", "per", "minute", "mit", "and", "?"])
TEXTS = st.one_of(st.text(max_size=300), st.lists(PIECES, max_size=60).map("".join))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=TEXTS, lang=st.sampled_from(["en", "de", "fr", ""]))
def test_parsers_never_raise(text, lang):
    for parser in PARSERS:
        got = parser(text, lang)
        assert isinstance(got, Parsed)
        assert got.ok or (got.reason and got.example)
        assert got.lang in ("en", "de")


@settings(max_examples=60, deadline=None)
@given(texts=st.lists(TEXTS, max_size=15), lang=st.sampled_from(["en", "de"]))
def test_interview_never_raises(texts, lang):
    iv = Interview(lang)
    for text in texts:
        reply = iv.answer(text)
        assert reply.kind in ("answer", "skip", "help", "unclear")
    assert isinstance(iv.workload(), dict) and isinstance(iv.sentence(), str)


@pytest.mark.parametrize("text", [
    "1" * 10_000, "1." * 5_000, "1 000 " * 2_000, "a" * 10_000, "llama " * 2_000,
    "nicht " * 2_000, "8x" * 5_000, "ü" * 10_000, "\x00\x1b[31m" * 2_000, ", " * 5_000,
    "13b, 300 pro minute, " * 500, "".join(chr(i) for i in range(1, 10_000)),
])
@pytest.mark.parametrize("parser", PARSERS, ids=lambda f: f.__name__)
def test_hostile_input_gives_a_parsed_result(parser, text):
    got = parser(text)
    assert isinstance(got, Parsed)
    assert got.ok or (got.reason and got.example)


@pytest.mark.parametrize("value", [None, 42, 3.5, b"13b", ["13b"]])
def test_non_string_input(value):
    for parser in PARSERS:
        assert isinstance(parser(value), Parsed)
