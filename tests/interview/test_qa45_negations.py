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
