"""QA 46 #2 and #3: a change of the fine-tuning method keeps the rest of the fine-tuning answer, and
the number of epochs can be given (with the dataset size, alone, or as a change afterwards)."""

from __future__ import annotations

import pytest

from expert.interview import Interview
from expert.interview.dataset import parse_dataset
from expert.interview.fine_tuning import merge
from expert.interview.questions import ORDER
from expert.interview.whatif import what_if

WEEKLY_LORA = {"frequency": "weekly", "method": "lora", "dataset_tokens": 20_000_000}


@pytest.mark.parametrize("text,lang", [("actually QLoRA", "en"), ("eigentlich QLoRA", "de"),
                                       ("switch to qlora", "en"), ("QLoRA statt LoRA", "de")])
def test_a_method_change_names_the_method_only(text, lang):
    # before: {'fine_tuning': {'frequency': 'quarterly', 'method': 'qlora'}} (an assumed frequency)
    assert what_if(text, lang) == {"fine_tuning": {"method": "qlora"}}


@pytest.mark.parametrize("text,lang", [("2 epochs", "en"), ("2 Epochen", "de"), ("zwei Epochen", "de")])
def test_epochs_typed_after_the_interview_are_a_change(text, lang):
    assert what_if(text, lang) == {"fine_tuning": {"epochs": 2}}     # before: {}


@pytest.mark.parametrize("text,fields", [
    ("20 Mio. Tokens, 2 Epochen", {"dataset_tokens": 20_000_000, "epochs": 2}),
    ("50M tokens for 3 epochs", {"dataset_tokens": 50_000_000, "epochs": 3}),
    ("2 Epochen", {"epochs": 2}),                  # the size keeps its default
    ("1.5 epochs", {"epochs": 1.5}),
])
def test_the_dataset_answer_reads_epochs(text, fields):
    got = parse_dataset(text, "de")
    assert got.ok and got.fields == fields


@pytest.mark.parametrize("text", ["0 Epochen", "200 epochs"])
def test_epochs_out_of_the_schema_range_are_refused(text):
    got = parse_dataset(text, "en")
    assert not got.ok and "epochs" in got.reason.lower() and "100" in got.reason


def test_merge_keeps_every_key_the_change_does_not_name():
    assert merge(WEEKLY_LORA, {"method": "qlora"}) == ({**WEEKLY_LORA, "method": "qlora"}, False)
    assert merge(WEEKLY_LORA, "monthly") == ({**WEEKLY_LORA, "frequency": "monthly"}, False)
    assert merge(WEEKLY_LORA, "none") == ("none", False)
    # no frequency anywhere: the parser's own assumption (quarterly), reported as assumed
    assert merge("none", {"method": "qlora"}) == ({"frequency": "quarterly", "method": "qlora"}, True)
    assert merge(None, "weekly") == ("weekly", False)


def _finished(lang: str) -> Interview:
    iv = Interview(lang)
    iv.answer("Llama 3.1 70B, 3000 Anfragen pro Tag, wöchentliches Fine-Tuning mit LoRA, sensible Daten")
    iv.answers["fine_tuning"] = dict(WEEKLY_LORA)
    iv.done.update(ORDER)                          # the interview is over
    return iv


def test_eigentlich_qlora_changes_only_the_method_and_says_the_whole_answer():
    iv = _finished("de")
    reply = iv.answer("eigentlich QLoRA")
    # before: {'frequency': 'quarterly', 'method': 'qlora'} (weekly and the 20 M tokens lost)
    assert iv.answers["fine_tuning"] == {"frequency": "weekly", "method": "qlora", "dataset_tokens": 20_000_000}
    assert reply.understood == "Fine-Tuning wöchentlich (QLoRA), 20 000 000 Tokens pro Fine-Tuning-Lauf"


def test_epochs_after_the_interview_go_into_the_fine_tuning_mapping():
    iv = _finished("en")
    reply = iv.answer("2 epochs")
    assert reply.ok and iv.answers["fine_tuning"] == {**WEEKLY_LORA, "epochs": 2}
    assert reply.understood.endswith("2 epochs")


def test_the_dataset_question_keeps_the_epochs():
    iv = Interview("de")
    for answer in ["Llama 3.1 70B", "3000 pro Tag", "ja, wöchentlich mit LoRA", "nein", "skip", "skip"]:
        iv.answer(answer)
    assert iv.next_question().id == "dataset"
    reply = iv.answer("20 Mio. Tokens, 2 Epochen")
    assert iv.answers["fine_tuning"] == {"frequency": "weekly", "method": "lora", "dataset_tokens": 20_000_000,
                                         "epochs": 2}
    assert reply.understood == "20 000 000 Tokens pro Fine-Tuning-Lauf, 2 Epochen"


def test_a_method_without_fine_tuning_assumes_the_frequency_and_asks_it():
    iv = Interview("en")
    iv.answer("Llama 3.1 8B, 100 per day, no fine-tuning, non-sensitive data")
    iv.done.update(ORDER)
    iv.done.discard("fine_tuning_frequency")
    iv.answer("actually QLoRA")
    assert iv.answers["fine_tuning"] == {"frequency": "quarterly", "method": "qlora"}
    assert iv.next_question().id == "fine_tuning_frequency"


def test_set_takes_a_dotted_workload_field_checked_by_the_schema():
    from tui.commands import field_edit

    assert field_edit("fine_tuning.epochs 2") == {"fine_tuning": {"epochs": 2}}   # before: unknown field
    assert field_edit("ft.method qlora") == {"fine_tuning": {"method": "qlora"}}
    with pytest.raises(ValueError, match=r"^fine_tuning\.epochs: 0 is out of range; allowed: more than 0, at most 100$"):
        field_edit("fine_tuning.epochs 0")
    with pytest.raises(ValueError, match=r"^fine_tuning\.method: dora is not allowed; allowed: full, lora, qlora$"):
        field_edit("fine_tuning.method dora")
    with pytest.raises(ValueError, match=r"unknown field 'fine_tuning\.foo'; try: frequency, method, dataset_tokens, epochs"):
        field_edit("fine_tuning.foo 1")


@pytest.mark.parametrize("text,lang", [("20M tokens, 2 epochs", "en"), ("20 Mio. Tokens, 2 Epochen", "de"),
                                       ("20 million tokens and 2 epochs", "en")])
def test_a_what_if_reads_the_dataset_size_with_the_epochs(text, lang):
    # QA 46 #3 remainder; before: {'fine_tuning': {'epochs': 2}} and «20m tokens» not understood
    # (the context's cue took "tokens", and 20 M is no context length)
    assert what_if(text, lang) == {"fine_tuning": {"dataset_tokens": 20_000_000, "epochs": 2}}


@pytest.mark.parametrize("text,fields", [
    ("50M tokens", {"fine_tuning": {"dataset_tokens": 50_000_000}}),
    ("Datensatz 30 Mio. Tokens", {"fine_tuning": {"dataset_tokens": 30_000_000}}),
    ("32k tokens", {"context_tokens": 32_768}),             # a length the context holds stays the context's
    ("context 8k tokens", {"context_tokens": 8_192}),
])
def test_a_token_count_is_a_context_where_it_can_be_one_else_a_dataset(text, fields):
    assert what_if(text, "de" if "Datensatz" in text else "en") == fields


def test_dataset_and_epochs_after_the_interview_keep_the_rest_of_the_fine_tuning():
    iv = _finished("en")
    reply = iv.answer("50M tokens, 2 epochs")
    assert reply.ok and iv.answers["fine_tuning"] == {**WEEKLY_LORA, "dataset_tokens": 50_000_000, "epochs": 2}
    assert reply.understood == "fine-tuning weekly (LoRA), 50,000,000 tokens per fine-tuning run, 2 epochs"
    assert reply.note == "changed after the interview"      # before: "…; not understood, so not changed: «50m tokens»"
