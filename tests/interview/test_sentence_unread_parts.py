"""QA 46 (chat): the first whole sentence names each part it did not understand, as a what-if does.

"Qwen3 32B, 50k requests a day, no fine-tuning, not in the US" used to take the first three parts and
drop the fourth in silence: "not in the US" was even read as a second "no" to fine-tuning.
"""

from __future__ import annotations

from expert.interview import Interview, parse_sentence


def test_the_parser_hands_back_the_clauses_no_part_took():
    got = parse_sentence("Qwen3 32B, 50k requests a day, no fine-tuning, not in the US")
    # model, 50 000 requests a day (50k), "no fine-tuning" → none; the fourth clause is no part
    assert got.fields == {"model": "qwen3-32b", "requests_per_day": 50000, "fine_tuning": "none"}
    assert got.unread == ("not in the us",)


def test_a_yes_with_a_schedule_still_answers_the_fine_tuning():
    got = parse_sentence("Qwen3 32B, 50k requests a day, yes, weekly LoRA")
    assert got.fields["fine_tuning"] == {"frequency": "weekly", "method": "lora"} and got.unread == ()


def test_the_first_sentence_names_a_denied_part_and_applies_the_rest():
    iv = Interview("en")
    reply = iv.answer("Qwen3 32B, 50k requests a day, no fine-tuning, not in the US")
    assert reply.kind == "answer"
    assert iv.answers == {"model": "qwen3-32b", "requests_per_day": 50000, "fine_tuning": "none"}
    assert reply.note == ("«not in the us» says what you do not want, so it is not applied; "
                          "say what you want instead")
    assert iv.next_question().id == "data"


def test_the_first_sentence_applies_a_part_of_another_question_and_names_the_unknown_one():
    iv = Interview("en")
    reply = iv.answer("Qwen3 32B, 50k requests a day, no fine-tuning, servers in Switzerland, hello there")
    assert iv.answers["hosting"] == "ch"        # the hosting question's answer, read as a what-if reads it
    assert reply.note == "not understood, so not applied: «hello there»"


def test_a_german_sentence_names_its_denied_part_in_german():
    iv = Interview("de")
    reply = iv.answer("Qwen3 32B, 1000 Anfragen pro Tag, kein Fine-Tuning, nicht in den USA")
    assert "site_country" not in iv.answers and "hosting" not in iv.answers
    assert reply.note.startswith("«nicht in den usa» sagt, was Sie nicht wollen")
