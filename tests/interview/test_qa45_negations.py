"""QA 45 (chat): negated answers, a retracted fine-tuning, compound what-ifs, the skipped latency."""

from __future__ import annotations

from expert.interview import Interview


def _de_session_after_interview() -> Interview:
    """A German session whose interview is complete (8-bit allowed at the precision question)."""
    iv = Interview("de")
    for text in ["qwen3-30b-a3b, 1000 Anfragen pro Tag, kein Fine-Tuning, nicht sensible Daten",
                 "weiss nicht", "weiss nicht", "mieten", "nein", "8-bit ist ok"]:
        assert iv.answer(text).ok, text
    assert iv.next_question() is None
    return iv


def test_doch_kein_fine_tuning_at_the_method_follow_up_retracts_it_and_nothing_else():
    iv = _de_session_after_interview()
    before = dict(iv.answers)
    iv.answer("monatliches Fine-Tuning")
    assert iv.answers["fine_tuning"] == "monthly"
    assert iv.next_question().id == "fine_tuning_method"
    reply = iv.answer("doch kein Fine-Tuning")
    assert reply.kind == "answer" and reply.changed == {"fine_tuning": "none"}
    assert iv.answers == {**before, "fine_tuning": "none"}   # the precision answer is untouched
    assert iv.next_question() is None                        # no follow-up left to ask


def _en_session_after_interview() -> Interview:
    """An English session on qwen3-235b whose interview is complete."""
    iv = Interview("en")
    iv.answer("qwen3 235b, 1000 requests per day, no fine-tuning, non-sensitive data")
    while iv.next_question() is not None:
        iv.answer("skip")
    return iv


def test_a_denied_model_after_the_interview_is_refused_not_set():
    iv = _en_session_after_interview()
    reply = iv.answer("no, not 70B")
    assert reply.reason == "«not 70b» says what you do not want; say what you want instead (the example below)"
    assert reply.kind == "unclear" and reply.example.startswith("Llama 3.1 8B")
    assert iv.answers["model"] == "qwen3-235b-a22b" and "params_b" not in iv.answers


def test_a_denied_hosting_place_is_refused_with_a_hint():
    iv = _en_session_after_interview()
    for text in ("servers not in the US", "not in the US"):
        reply = iv.answer(text)
        assert reply.kind == "unclear" and reply.example == "Switzerland only", text
        assert reply.reason.startswith(f"«{text.lower()}» says what you do not want"), text
    assert "hosting" not in iv.answers


def test_nicht_in_den_usa_never_sets_the_own_site_us():
    iv = Interview("de")
    iv.answer("qwen3 235b, 1000 Anfragen pro Tag, kein Fine-Tuning, Gesundheitsdaten")
    reply = iv.answer("nicht in den USA")                # typed at the latency question
    assert not reply.ok and "site_country" not in iv.answers
    assert reply.reason.startswith("«nicht in den usa» sagt, was Sie nicht wollen")


def test_not_in_the_us_at_the_growth_question_is_not_no_growth():
    from expert.interview.followups import parse_growth
    assert not parse_growth("not in the US").ok
    for text in ("no", "nein", "no growth", "kein Wachstum"):   # still "no growth"
        assert parse_growth(text).ok and parse_growth(text).fields == {}, text


def test_a_compound_what_if_applies_both_parts():
    iv = _de_session_after_interview()
    reply = iv.answer("eigentlich Qwen3 32B, Server in der Schweiz")
    assert reply.kind == "answer"
    assert iv.answers["model"] == "qwen3-32b" and iv.answers["hosting"] == "ch"


def test_a_compound_what_if_names_the_part_it_did_not_understand():
    iv = _de_session_after_interview()
    reply = iv.answer("eigentlich Qwen3 32B, bitte in Blau")
    assert iv.answers["model"] == "qwen3-32b"
    assert "«bitte in blau»" in reply.note


def test_dont_know_for_the_response_time_says_the_2_s_default_that_applies():
    # advise applies expert.inputs.slo.DEFAULT_TTFT_S = 2.0 s (000 U1) to a streamed answer without a target
    for lang, text, said in (("en", "don't know", "first words within 2 s (000 U1"),
                             ("de", "weiss nicht", "ersten Wörter innert 2 s (000 U1")):
        iv = Interview(lang)
        iv.answer("llama 3.1 8b, 1000 requests per day, no fine-tuning, non-sensitive data")
        assert iv.next_question().id == "latency"
        reply = iv.answer(text)
        assert reply.kind == "skip" and said in reply.understood, reply.understood
        assert "latency_target_s" not in iv.answers


def test_the_audit_interview_says_all_answered_in_the_sessions_language():
    from expert.interview.setup_flow import SetupInterview, SETUP_ORDER
    audit = SetupInterview("en")
    audit.done.update(SETUP_ORDER)                       # every question answered
    reply = audit.answer("Wir möchten eigentlich ein grösseres Modell nehmen")
    assert reply.reason.startswith("All questions are answered")


def test_nein_to_the_growth_question_says_no_growth_not_no_preference():
    iv = Interview("de")
    for text in ["qwen3-30b-a3b, 1000 Anfragen pro Tag, kein Fine-Tuning, nicht sensible Daten",
                 "weiss nicht", "weiss nicht", "mieten"]:
        iv.answer(text)
    assert iv.next_question().id == "growth"
    reply = iv.answer("nein")
    assert reply.understood == "kein Wachstum geplant: ausgelegt auf das Modell, wie es ist"
    assert "growth_params_b" not in iv.answers


def test_a_compound_what_if_right_after_a_whole_sentence_applies_both_parts():
    iv = _en_session_after_interview()                   # the last answer was the model (the sentence)
    reply = iv.answer("actually qwen3 32b, servers in Switzerland")
    assert reply.kind == "answer" and iv.answers["model"] == "qwen3-32b" and iv.answers["hosting"] == "ch"
