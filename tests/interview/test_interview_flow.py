"""The interview flow: question order, skipping, help, what-if edits, the workload it builds."""

from __future__ import annotations

import pytest

from expert.interview import Interview


def run(iv: Interview, answers: list[str]) -> list[str]:
    """Answer in order; return the ids of the questions asked. Every answer must be understood."""
    asked = []
    for text in answers:
        q = iv.next_question()
        assert q is not None, f"no question left for {text!r}"
        asked.append(q.id)
        reply = iv.answer(text)
        assert reply.ok, (q.id, text, reply.reason)
    assert iv.next_question() is None
    return asked


def test_full_flow_english():
    iv = Interview("en")
    asked = run(iv, ["llama 3.1 8b", "300 requests per minute", "yes", "patient data", "under 2 s",
                     "8k", "monthly", "LoRA", "200k pages", "Switzerland only", "buy", "3 years", "Zurich",
                     "20B in a year", "no, must stay bf16"])
    assert asked == ["model", "volume", "fine_tuning", "data", "latency", "context",
                     "fine_tuning_frequency", "fine_tuning_method", "dataset", "hosting", "budget", "horizon",
                     "site_country", "growth", "precision"]
    assert iv.workload() == {  # 200 000 pages × 700 tokens a page = 140 M tokens
        "model": "llama-3.1-8b", "requests_per_second": 5, "latency_target_s": 2.0,
        "context_tokens": 8192,
        "fine_tuning": {"frequency": "monthly", "method": "lora", "dataset_tokens": 140_000_000},
        "data": "sensitive", "sector": "health", "hosting": "ch", "budget": "capex",
        "horizon_months": 36, "growth_params_b": 20, "site_country": "CH", "precision": "bf16"}
    assert iv.sentence().startswith("My AI agent uses a model of size llama-3.1-8b")


def test_full_flow_german():
    iv = Interview("de")
    first = iv.next_question()
    assert first.text.startswith("Welches KI-Modell")
    asked = run(iv, ["13 Milliarden", "50 000 Anfragen pro Tag", "ja", "sensibel", "unter 1 Sekunde",
                     "32 000 Tokens", "quartalsweise", "überspringen", "weiss nicht", "Bank", "nur Schweiz",
                     "mieten", "weiss nicht", "ja, 8 Bit ist in Ordnung"])
    assert asked == ["model", "volume", "fine_tuning", "data", "latency", "context",
                     "fine_tuning_frequency", "fine_tuning_method", "dataset", "sector", "hosting", "budget",
                     "growth", "precision"]
    assert iv.workload() == {
        "params_b": 13, "requests_per_day": 50000, "latency_target_s": 1.0, "context_tokens": 32000,
        "fine_tuning": "quarterly", "data": "sensitive", "sector": "finance", "hosting": "ch",
        "budget": "opex"}
    assert iv.sentence() == ("Mein KI-Agent nutzt ein Modell der Grösse 13B, verarbeitet 50 000 "
                             "Anfragen pro Tag, braucht Fine-Tuning ja (quartalsweise), mit sensiblen "
                             "Daten.")


def test_whole_sentence_skips_the_four_questions():
    iv = Interview("de")
    reply = iv.answer("Mein KI-Agent nutzt ein Modell der Grösse 70B, verarbeitet 50 000 Anfragen pro "
                      "Tag, braucht Fine-Tuning nein, mit nicht sensiblen Daten.")
    assert reply.kind == "answer"
    assert set(reply.changed) == {"params_b", "requests_per_day", "fine_tuning", "data"}
    asked = run(iv, ["egal", "8k", "mieten", "nein", "egal"])
    assert asked == ["latency", "context", "budget", "growth", "precision"]     # no sector, hosting, horizon
    assert "[" not in iv.sentence()


def test_non_sensitive_unregulated_asks_no_hosting_and_renting_no_horizon():
    iv = Interview("en")
    asked = run(iv, ["7B", "1000 a day", "no", "no", "skip", "skip", "rent", "no", "skip"])
    assert asked == ["model", "volume", "fine_tuning", "data", "latency", "context", "budget",
                     "growth", "precision"]
    assert iv.workload() == {"params_b": 7, "requests_per_day": 1000, "fine_tuning": "none",
                             "data": "non_sensitive", "budget": "opex"}


def _to_budget(iv: Interview, data: str, budget: str) -> list[str]:
    """Answer up to and including the rent-or-buy question; the ids asked after it."""
    run_until = ["13B", "1000 a day", "no", data, "skip", "skip"]
    for text in run_until:
        assert iv.answer(text).ok
    asked = []
    while (q := iv.next_question()) is not None:
        asked.append(q.id)
        iv.answer({"budget": budget}.get(q.id, "skip"))
    return asked


def test_own_site_asked_exactly_when_protected_data_may_go_onto_bought_hardware():
    # sensitive data, on premise (bought): the own site decides whether the servers meet the hosting
    assert "site_country" in _to_budget(Interview("en"), "patient data", "buy, own server room")
    assert "site_country" in _to_budget(Interview("de"), "sensible Daten", "egal, was günstiger ist")
    # non-sensitive data, or sensitive data rented in the cloud: nothing bought, nothing asked
    assert "site_country" not in _to_budget(Interview("en"), "no", "buy, own server room")
    assert "site_country" not in _to_budget(Interview("en"), "no", "rent in the cloud")
    assert "site_country" not in _to_budget(Interview("en"), "patient data", "rent in the cloud")


def test_own_site_answer_skip_and_same_as_hosting():
    iv = Interview("de")
    run(iv, ["13B", "1000 pro Tag", "nein", "Patientendaten", "überspringen", "überspringen",
             "nur Schweiz", "kaufen", "3 Jahre", "wie das Hosting", "nein", "weiss nicht"])
    assert iv.workload()["site_country"] == "CH"          # Swiss hosting: the site is in CH
    iv = Interview("en")
    for text in ["13B", "1000 a day", "no", "patient data", "skip", "skip", "EU", "buy", "skip"]:
        iv.answer(text)
    assert iv.next_question().id == "site_country"
    reply = iv.answer("skip")
    assert reply.kind == "skip" and reply.understood == "skipped — default: own site unknown"
    assert "site_country" not in iv.workload() and iv.next_question().id == "growth"
    iv.set("site_country", None)                           # removed: its question comes back
    assert iv.next_question().id == "site_country"
    unclear = iv.answer("purple elephants")
    assert unclear.kind == "unclear" and "own site" in unclear.reason and unclear.example == "Switzerland"


def test_help_and_unclear_keep_the_question():
    iv = Interview("en")
    help_reply = iv.answer("?")
    assert help_reply.kind == "help" and "memory" in help_reply.help
    unclear = iv.answer("the big one")
    assert unclear.kind == "unclear" and not unclear.ok
    assert unclear.reason and unclear.example
    assert iv.next_question().id == "model"


def test_model_cannot_be_skipped_but_others_can():
    iv = Interview("de")
    offer = iv.answer("überspringen")   # the model has no default: the documents' 13B is offered
    assert offer.kind == "propose" and iv.next_question().id == "model"
    iv.answer("llama 3.1 8b")           # a new answer instead of "ja" drops the offer
    reply = iv.answer("skip")
    assert reply.kind == "skip" and iv.next_question().id == "fine_tuning"


def test_skip_shows_the_default_in_plain_words():
    iv = Interview("en")
    iv.answer("13B")
    iv.answer("1000 per day")
    iv.answer("no")
    iv.answer("no")
    assert iv.answer("default").understood == (   # the 2 s advise applies (QA 45 D6)
        "skipped — default: the first words within 2 s (000 U1: a chat agent answers in under 2 s)")


def test_set_what_if_edits():
    iv = Interview("en")
    iv.answer("My AI agent uses a model of size 13B, processes 20000 requests per day, needs "
              "fine-tuning no, with non-sensitive data.")
    assert iv.set("model", "llama-3.1-70b") == {"model": "llama-3.1-70b"}
    assert "params_b" not in iv.workload()
    iv.set("requests_per_second", 5)
    assert "requests_per_day" not in iv.workload()
    iv.set("data", "sensitive")
    assert iv.next_question().id == "latency"
    iv.set("latency_target_s", 1.0)
    iv.set("context_tokens", 8192)
    assert iv.next_question().id == "sector"      # sensitive now: sector and hosting apply
    assert iv.set("sector", None) == {}
    with pytest.raises(ValueError):
        iv.set("colour", "blue")


def test_plain_words_reply():
    iv = Interview("de")
    reply = iv.answer("Llama 3.1 8B")
    assert reply.understood == "Modell llama-3.1-8b" and reply.changed == {"model": "llama-3.1-8b"}
    reply = iv.answer("2 Mio. pro Monat")
    assert reply.understood == "66 667 Anfragen pro Tag" and "Tag" in reply.note


def test_answer_after_the_end_still_edits_by_sentence():
    iv = Interview("en")
    run(iv, ["8B", "100 per day", "no", "no", "skip", "skip", "rent", "no", "skip"])
    reply = iv.answer("actually 70B and sensitive data")
    assert reply.changed == {"params_b": 70, "data": "sensitive"}
    assert iv.next_question().id == "sector"


@pytest.mark.parametrize("answers", [
    ["llama 3.1 8b", "300 requests per minute", "yes", "patient data", "under 2 s", "8k", "monthly",
     "LoRA", "5 GB of text", "Switzerland only", "buy", "3 years", "Switzerland", "20B in a year", "yes, 4-bit too"],
    ["13 Milliarden", "50 000 pro Tag", "ja", "sensibel", "skip", "skip", "skip", "skip", "skip", "skip",
     "skip", "kaufen im eigenen Rechenzentrum", "skip", "Schweiz", "nein", "int8"],
])
def test_workload_validates_against_the_schema(answers):
    workload = pytest.importorskip("expert.inputs.workload")
    iv = Interview("en")
    for text in answers:
        iv.answer(text)
    assert iv.next_question() is None
    workload.Workload.model_validate(iv.workload())


def test_removing_a_field_brings_its_question_back():
    iv = Interview("en")
    iv.answer("13B")
    assert iv.next_question().id == "volume"
    assert iv.set("params_b", None) == {"params_b": None}
    assert iv.next_question().id == "model"


def _answer_all(iv: Interview, answers: list[str]) -> list[str]:
    """Like `run`, for an interview that goes on after these answers."""
    asked = []
    for text in answers:
        asked.append(iv.next_question().id)
        assert iv.answer(text).ok, (asked[-1], text)
    return asked


def test_dataset_is_asked_only_when_the_model_is_fine_tuned():
    """The dataset size follows the fine-tuning questions (issue 12) and lands in the fine-tuning mapping."""
    no_ft = Interview("en")
    asked = run(no_ft, ["8B", "100 per day", "no", "no", "skip", "skip", "rent", "no", "yes"])
    assert "dataset" not in asked
    iv = Interview("de")
    asked = _answer_all(iv, ["8B", "100 pro Tag", "ja, monatlich mit LoRA", "nein", "skip", "skip",
                             "20'000 Dokumente à 2'000 Tokens"])
    assert asked[-1] == "dataset"
    # 20 000 documents × 2 000 tokens = 40 M tokens
    assert iv.workload()["fine_tuning"] == {"frequency": "monthly", "method": "lora", "dataset_tokens": 40_000_000}
    assert iv.next_question().id == "budget"


def test_skipping_the_dataset_keeps_the_default():
    iv = Interview("en")
    assert _answer_all(iv, ["8B", "100 per day", "yes, monthly LoRA", "no", "skip", "skip"])
    assert iv.next_question().id == "dataset"
    reply = iv.answer("skip")
    assert reply.kind == "skip" and "default dataset size" in reply.understood
    assert iv.workload()["fine_tuning"] == {"frequency": "monthly", "method": "lora"}
    assert iv.next_question().id == "budget"


def test_precision_question_open_kept_or_int4():
    """Issue 22: the chat asks whether the model may run quantised; an open answer leaves the precision
    out of the workload (the configurator may quantise), a named one states it, "must stay" keeps the
    model's own precision (`allow_quantization: false`), 4-bit opts into int4."""
    for answer, fields in (("yes, 8-bit is fine", {}), ("not sure", {}), ("skip", {}),
                           ("no, it must stay as validated", {"allow_quantization": False}),
                           ("nein, muss bf16 bleiben", {"precision": "bf16"}),
                           ("ja, auch 4 Bit", {"allow_int4": True}), ("int4", {"precision": "int4"})):
        iv = Interview("en")
        run(iv, ["70B", "100 per day", "no", "no", "skip", "skip", "rent", "no", answer])
        got = {k: v for k, v in iv.workload().items() if k in ("precision", "allow_int4", "allow_quantization")}
        assert got == fields, answer
    iv = Interview("de")
    _answer_all(iv, ["70B", "100 pro Tag", "nein", "nein", "skip", "skip", "mieten", "nein"])
    assert iv.next_question().text.startswith("Darf das Modell quantisiert laufen")
    unclear = iv.answer("lila Elefanten")
    assert unclear.kind == "unclear" and "Präzision" in unclear.reason


@pytest.mark.parametrize("model, kept", [("gpt-oss-120b", "mxfp4"), ("70B", "fp16")])
def test_must_stay_validated_keeps_the_models_own_precision(model, kept):
    """Issue 30's leftover: "must stay as validated" keeps the precision the model was validated in —
    gpt-oss ships its experts in MXFP4 (knowledge/models.yaml `native_precision`), a dense 70B has no
    format of its own and stays at 16-bit (000 D1) — never a 16-bit copy of gpt-oss."""
    from expert.api import advise

    iv = Interview("en")
    run(iv, [model, "100 per day", "no", "no", "skip", "skip", "rent", "no", "no, it must stay as validated"])
    assert iv.next_question() is None and iv.workload()["allow_quantization"] is False
    report = advise(iv.workload())
    assert report.recommendation.precision == kept
    assert all(a.precision == kept for a in report.alternatives)        # kept: nothing quantised below it
