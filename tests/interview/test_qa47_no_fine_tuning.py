"""QA 47 #2: "no fine-tuning" typed after the interview turned fine-tuning ON (quarterly).

The leading English "no" was taken for a correction word ("no, …") and dropped, so "fine-tuning"
was read alone: a bare yes, with the assumed frequency (quarterly). Followed by a word with no mark
between, "no" is a determiner that denies that word (`polarity.DETERMINER`); the same reading had
"no cloud" set the cloud, "no buying" buy and "no sensitive data" sensitive data.
"""

from __future__ import annotations

import pytest

from expert.interview import Interview
from expert.interview.polarity import correction
from expert.interview.questions import ORDER
from expert.interview.whatif import what_if

WEEKLY_LORA = {"frequency": "weekly", "method": "lora", "dataset_tokens": 20_000_000}


@pytest.mark.parametrize("text,lang", [
    ("no fine-tuning", "en"),              # before: {'fine_tuning': 'quarterly'}
    ("no more fine-tuning", "en"),         # before: {'fine_tuning': 'quarterly'}
    ("no fine-tuning after all", "en"),    # before: {'fine_tuning': 'quarterly'}
    ("actually no fine-tuning", "en"),
    ("without fine-tuning", "en"),
    ("kein Fine-Tuning", "de"),
    ("doch kein Fine-Tuning mehr", "de"),
])
def test_no_fine_tuning_is_none(text, lang):
    assert what_if(text, lang) == {"fine_tuning": "none"}


@pytest.mark.parametrize("text,fields", [
    ("no cloud", {"deployment": "on_premise"}),             # before: cloud
    ("no cloud after all", {"deployment": "on_premise"}),   # before: cloud
    ("no buying", {"budget": "opex"}),                      # before: capex
    ("no sensitive data", {"data": "non_sensitive"}),       # before: sensitive
    ("no quantization", {"allow_quantization": False}),    # before: {} (not understood)
])
def test_a_leading_no_denies_the_word_after_it_in_other_questions_too(text, fields):
    assert what_if(text, "en") == fields


@pytest.mark.parametrize("text,rest", [
    ("no, fine-tuning monthly", "fine-tuning monthly"),   # a mark after "no": a correction
    ("no I meant 70B", "i meant 70b"),                     # a strong correction word follows
    ("no wait, 5000 per day", "5000 per day"),
    ("nein mieten", "mieten"),                             # German "nein" is never a determiner
])
def test_corrections_still_open_with_no(text, rest):
    assert correction(text.lower()) == rest


def test_no_fine_tuning_is_a_negation_not_a_correction():
    assert correction("no fine-tuning") is None             # before: "fine-tuning"
    assert correction("no more fine-tuning") is None        # before: "more fine-tuning"


@pytest.mark.parametrize("lang,text,said", [
    ("en", "no fine-tuning", "no fine-tuning"),
    ("de", "doch kein Fine-Tuning mehr", "kein Fine-Tuning"),
])
def test_the_change_after_the_interview_turns_fine_tuning_off_and_says_so(lang, text, said):
    iv = Interview(lang)
    iv.answer("Llama 3.1 70B, 3000 requests per day, weekly fine-tuning with LoRA, sensitive data")
    iv.answers["fine_tuning"] = dict(WEEKLY_LORA)
    iv.done.update(ORDER)                                   # the interview is over
    reply = iv.answer(text)
    assert reply.ok and reply.changed == {"fine_tuning": "none"}
    assert iv.answers["fine_tuning"] == "none"
    assert reply.understood == said                          # before: "fine-tuning quarterly (LoRA), …"


def test_no_fine_tuning_typed_at_the_next_question_answers_the_fine_tuning():
    iv = Interview("en")
    for answer in ["Llama 3.1 70B", "3000 per day", "weekly fine-tuning with LoRA"]:
        iv.answer(answer)
    assert iv.next_question().id == "data"
    reply = iv.answer("no fine-tuning")
    # before this fix: fine-tuning quarterly ("no" dropped as a correction word); with only the first
    # half of it: {'data': 'non_sensitive'} (the data question took the "no" of "no fine-tuning")
    assert reply.redirected == "fine_tuning" and reply.changed == {"fine_tuning": "none"}
    assert "data" not in iv.answers and iv.next_question().id == "data"


@pytest.mark.parametrize("text", ["no", "nein", "no, just manuals", "no thanks", "none"])
def test_a_plain_no_still_answers_the_data_question(text):
    from expert.interview.parse import parse_data

    assert parse_data(text, "en").fields == {"data": "non_sensitive"}
