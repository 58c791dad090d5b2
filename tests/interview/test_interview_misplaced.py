"""Issue 15: vague and misplaced answers, and parsers that check the converted value.

Each case is one the issue reports from a newcomer's try: the parser once gave a wrong value or
refused an answer the documents have a default for.
"""

from __future__ import annotations

from hypothesis import given, settings, strategies as st

from expert.interview import Interview
from expert.interview import parse as p


def at(question: str, lang: str = "en") -> Interview:
    """An interview whose next question is `question` (answers chosen so it is asked)."""
    answers = {"model": [], "volume": ["13B"], "fine_tuning": ["13B", "1000 per day"],
               "latency": ["13B", "1000 per day", "no", "yes, customer data"],
               "context": ["13B", "1000 per day", "no", "yes, customer data", "2 s"],
               "sector": ["13B", "1000 per day", "no", "yes, customer data", "2 s", "8k"]}[question]
    iv = Interview(lang)
    for a in answers:
        assert iv.answer(a).ok, a
    assert iv.next_question().id == question
    return iv


# -- converted values ----------------------------------------------------------------------------

def test_half_a_million_per_month_is_16667_per_day():
    # 500 000 / 30 days = 16 666.7 → 16 667 (once read as 0.5 per month = 0 per day)
    assert p.parse_volume("half a million per month").fields == {"requests_per_day": 16667}


def test_german_number_words_written_as_one_word():
    assert p.parse_volume("zwanzigtausend am Tag", "de").fields == {"requests_per_day": 20000}
    assert p.parse_volume("zweihundertfünfzig pro Minute", "de").fields == {
        "requests_per_second": 4.167}   # 250 / 60 s, 3 decimals


def test_a_few_thousand_is_read_as_3000_and_said():
    got = p.parse_volume("a few thousand")
    assert got.fields == {"requests_per_day": 3000} and "3" in got.note


def test_a_time_is_not_a_context_length():
    # "under 3 seconds" once became 3 × 1024 = 3 072 tokens
    assert not p.parse_context("under 3 seconds").ok
    assert not p.parse_latency("8k tokens").ok


def test_a_few_pages_is_three_pages():
    assert p.parse_context("a few pages").fields == {"context_tokens": 2100}   # 3 × 700


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=40))
def test_any_accepted_volume_is_positive(text):
    got = p.parse_volume(text)
    if got.ok:
        (name, value), = got.fields.items()
        assert name in ("requests_per_day", "requests_per_second") and value > 0


@settings(max_examples=300, deadline=None)
@given(st.floats(0.0001, 10_000, allow_nan=False), st.sampled_from(
    ["per day", "pro Tag", "per month", "a year", "per hour", "per second", "pro Minute"]))
def test_any_accepted_volume_with_a_unit_is_positive(n, unit):
    got = p.parse_volume(f"{n:.4f} {unit}")
    if got.ok:
        assert list(got.fields.values())[0] > 0


_SCALE = {"ms": 0.001, "s": 1, "seconds": 1, "Sekunden": 1, "min": 60}


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 599), st.sampled_from(sorted(_SCALE)))
def test_any_accepted_latency_is_in_seconds(n, unit):
    got = p.parse_latency(f"under {n} {unit}")
    expected = n * _SCALE[unit]
    if 0.01 <= expected <= 600:
        assert got.fields == {"latency_target_s": round(expected, 3)}
    else:
        assert not got.ok


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=40))
def test_any_accepted_latency_is_a_time_in_range(text):
    got = p.parse_latency(text)
    if got.ok and got.fields:
        assert 0.01 <= got.fields["latency_target_s"] <= 600


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 900), st.sampled_from(["s", "seconds", "Sekunden", "ms", "min"]))
def test_a_time_is_never_accepted_as_context(n, unit):
    assert not p.parse_context(f"under {n} {unit}").ok


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=40))
def test_any_accepted_context_is_whole_tokens_in_range(text):
    got = p.parse_context(text)
    if got.ok and got.fields:
        value = got.fields["context_tokens"]
        assert isinstance(value, int) and 256 <= value <= 10_000_000


# -- answers for another question -----------------------------------------------------------------

def test_latency_at_the_context_question_is_taken_as_latency():
    iv = at("context")
    del iv.answers["latency_target_s"]
    reply = iv.answer("under 3 seconds")
    assert reply.ok and reply.redirected == "latency"
    assert iv.answers["latency_target_s"] == 3.0 and "context_tokens" not in iv.answers
    assert iv.next_question().id == "context"


def test_switzerland_at_the_sector_question_is_where_the_company_is():
    # issue 35: where the company is, is not where its data must stay (that is asked, not guessed)
    iv = at("sector", "de")
    reply = iv.answer("Schweiz")
    assert reply.redirected == "site_country" and iv.answers["site_country"] == "CH"
    assert "hosting" not in iv.answers
    assert "Branche" in reply.note and iv.next_question().id == "sector"


def test_switzerland_only_at_the_sector_question_is_the_hosting():
    iv = at("sector", "de")
    reply = iv.answer("Server nur in der Schweiz")
    assert reply.redirected == "hosting" and iv.answers["hosting"] == "ch"
    assert "site_country" not in iv.answers


# -- vague answers get the documents' default to accept ---------------------------------------------

def test_model_not_sure_offers_13b_from_u1():
    for vague in ("not sure", "skip", "whatever you recommend for a support chatbot"):
        iv = Interview("en")
        offer = iv.answer(vague)
        assert offer.kind == "propose" and "U1" in offer.understood and "7–13B" in offer.understood
        assert iv.next_question().id == "model"
        assert iv.answer("yes").ok and iv.answers == {"params_b": 13}


def test_an_offer_is_changed_by_another_answer():
    iv = Interview("de")
    assert iv.answer("weiss nicht").kind == "propose"
    assert iv.answer("70B").ok and iv.answers == {"params_b": 70}


def test_fast_please_offers_two_seconds():
    iv = at("latency")
    offer = iv.answer("fast please")
    assert offer.kind == "propose" and "2 s" in offer.understood
    iv.answer("ok")
    assert iv.answers["latency_target_s"] == 2


def test_an_unknown_sector_is_other_after_a_confirmation():
    iv = at("sector")
    offer = iv.answer("we are a software company")
    assert offer.kind == "propose" and "other" in offer.understood
    assert "sector" not in iv.answers
    iv.answer("yes")
    assert iv.answers["sector"] == "other" and iv.next_question().id != "sector"


def test_a_time_at_the_volume_question_is_the_latency():
    # "under 2 seconds" was read as 2 requests per day (no unit: per day)
    assert not p.parse_volume("under 2 seconds").ok
    iv = at("volume")
    reply = iv.answer("under 2 seconds")
    assert reply.redirected == "latency" and iv.answers["latency_target_s"] == 2.0
    assert iv.next_question().id == "volume"


def test_the_interconnect_is_said_in_the_session_language():
    # the audit once replied "✓ interconnect: pcie" in a German session
    from expert.interview.setup_describe import describe_setup

    assert describe_setup({"interconnect": "pcie"}, "de") == "verbunden über PCIe"
    assert describe_setup({"interconnect": "nvlink"}, "en") == "connected by NVLink"


def test_a_precision_at_the_context_question_is_no_length():
    # issue 35 (found in item 5): "8-bit is fine" typed at the context question became 8 × 1024 = 8 192 tokens
    iv = at("context")
    reply = iv.answer("8-bit is fine")
    assert "context_tokens" not in iv.answers and iv.next_question().id == "context"
    assert not p.parse_context("8-bit is fine").ok and not p.parse_context("8 bit").ok
    assert p.parse_context("8k").fields == {"context_tokens": 8192}


def test_a_named_precision_at_the_context_question_is_taken_for_the_precision():
    iv = at("context")
    reply = iv.answer("int8 please")
    assert reply.ok and reply.redirected == "precision"
    assert iv.answers["precision"] == "int8" and "context_tokens" not in iv.answers
    assert iv.next_question().id == "context"


def test_skipping_a_question_without_a_shown_default_reads_as_a_sentence():
    # issue 35 (noticed in item 5): skipping the agent-steps question said "Standard: Standardannahme"
    iv = Interview("de")
    for a in ["qwen2.5-32b coding agent", "2000 Aufgaben pro Tag", "nein", "nein", "2 s"]:
        iv.answer(a)
    assert iv.next_question().id == "agent_steps"
    assert iv.answer("überspringen").understood == "übersprungen — es gilt die Standardannahme"
