"""Issue 15: `/set` of a running setup's precision and engine, and `/set` values the interview's
parser refuses (they once printed ✓ and then ✗ from the pipeline)."""

from __future__ import annotations

import re

import pytest
from tui_helpers import SIZE, screen_text, send, workers_done


async def test_set_precision_and_engine_of_a_running_setup(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await workers_done(app)
        await send(pilot, "/audit examples/idle-h100.yaml")
        await send(pilot, "/set precision fp8")
        setup = app.chat.session.setup
        assert setup["workload"]["precision"] == "fp8"
        assert app.chat.report.kind == "audit" and "✗" not in screen_text(app)
        # fp8 weights take half the memory of fp16: the change line says the reserve grew
        was, now = map(int, re.search(r"changed: memory reserve (\d+)% → (\d+)%", screen_text(app)).groups())
        assert now > was
        await send(pilot, "/set engine vllm")
        engine = "engine" if "engine" in app.chat.session.setup else "inference_engine"
        assert app.chat.session.setup[engine] == "vllm"
        # a change that moves neither a finding nor the memory says so in words, not "changed: —"
        assert "changed: —" not in screen_text(app) and "findings unchanged" in screen_text(app)


async def test_set_with_a_value_the_parser_refuses_changes_nothing(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await workers_done(app)
        await send(pilot, "/load examples/rag-agent.yaml")
        before = dict(app.chat.session.interview.answers)
        report = app.chat.report
        await send(pilot, "/set requests lots")
        text = screen_text(app).split("/set requests lots")[-1]
        assert "✓" not in text and "No number of requests found" in text
        assert app.chat.session.interview.answers == before and app.chat.report is report
        await send(pilot, "/set requests a few thousand")       # read as 3 000, and said so
        assert app.chat.session.interview.answers["requests_per_day"] == 3000


def test_set_site_reads_a_country_name_or_keeps_an_iso_code():
    from tui.commands import field_edit

    assert field_edit("site Schweiz", "de") == {"site_country": "CH"}
    assert field_edit("site_country in Germany") == {"site_country": "DE"}
    assert field_edit("site_country no") == {"site_country": "NO"}      # Norway's code, kept as text
    try:
        field_edit("site purple elephants")
    except ValueError as exc:
        assert str(exc).startswith("Which country is your own site in") and "/set site Switzerland" in str(exc)
    else:
        raise AssertionError("an unreadable site was accepted")


def test_set_refusals_are_said_in_the_chats_language():
    # issue 17: `/set` errors were English in a German chat ("usage: …", "unknown field …")
    from tui.commands import field_edit, setup_edit

    cases = [(lambda lang: field_edit("latency", lang), "usage: /set FIELD VALUE, e.g. /set latency 0.4",
              "Aufruf: /set FIELD VALUE, z. B. /set latency 0.4"),
             (lambda lang: field_edit("colour blue", lang), "unknown field 'colour'; try: ",
              "unbekanntes Feld 'colour'; möglich: "),
             (lambda lang: field_edit("site purple elephants", lang), "Which country is your own site in",
              "In welchem Land ist Ihr eigener Standort"),
             (lambda lang: setup_edit({"gpu": "h100-sxm"}, "utilisation 0.5", lang),
              "unknown setup field 'utilisation'; allowed: ", "unbekanntes Setup-Feld 'utilisation'; erlaubt: ")]
    for edit, en, de in cases:
        for lang, start in (("en", en), ("de", de)):
            with pytest.raises(ValueError) as exc:
                edit(lang)
            assert str(exc.value).startswith(start), (lang, str(exc.value))


def test_a_value_the_schema_refuses_is_said_in_the_chats_language_with_what_is_allowed():
    # issue 17: `/set utilization.mean 1.5` showed pydantic's English "Input should be less than or
    # equal to 1"; the bounds and choices below are the schema's (expert/inputs/setup_file.py, expert/inputs/workload.py)
    import yaml

    from tui.commands import field_edit, setup_edit

    setup = yaml.safe_load(open("examples/idle-h100.yaml", encoding="utf-8"))
    cases = [
        (lambda lang: setup_edit(setup, "utilization.mean 1.5", lang),
         "utilization.mean: 1.5 is out of range; allowed: 0 to 1",
         "utilization.mean: 1,5 liegt ausserhalb des Bereichs; erlaubt: 0 bis 1"),
        (lambda lang: setup_edit(setup, "count two", lang),
         "count: two is not a whole number; allowed: 1 to 4096",
         "count: two ist keine ganze Zahl; erlaubt: 1 bis 4096"),
        (lambda lang: setup_edit(setup, "precision fp7", lang),
         "workload.precision: fp7 is not allowed; allowed: fp32, bf16, fp16, fp8, int8, int4, mxfp4",
         "workload.precision: fp7 ist nicht erlaubt; erlaubt: fp32, bf16, fp16, fp8, int8, int4, mxfp4"),
        # workload fields no interview question reads were once taken as typed, refused later in English
        (lambda lang: field_edit("context_tokens 0", lang),
         "context_tokens: 0 is out of range; allowed: 1 to 10,000,000",
         "context_tokens: 0 liegt ausserhalb des Bereichs; erlaubt: 1 bis 10 000 000"),
        (lambda lang: field_edit("target_utilization 2", lang),
         "target_utilization: 2 is out of range; allowed: more than 0, at most 1",
         "target_utilization: 2 liegt ausserhalb des Bereichs; erlaubt: mehr als 0, höchstens 1"),
    ]
    for edit, en, de in cases:
        for lang, said in (("en", en), ("de", de)):
            with pytest.raises(ValueError) as exc:
                edit(lang)
            assert str(exc.value) == said
            assert "Input should" not in str(exc.value)
    assert field_edit("peak_to_average 2", "de") == {"peak_to_average": 2}   # a whole number is a number
    assert field_edit("prompt_tokens 500") == {"prompt_tokens": 500}


async def test_a_refused_set_value_in_a_german_audit_is_german_on_screen(make_app):
    app = make_app(lang="de")
    async with app.run_test(size=SIZE) as pilot:
        await workers_done(app)
        await send(pilot, "/audit examples/idle-h100.yaml")
        before = app.chat.session.setup
        await send(pilot, "/set utilization.mean 1.5")
        text = screen_text(app).split("/set utilization.mean 1.5")[-1]
        assert "1,5 liegt ausserhalb des Bereichs; erlaubt: 0 bis 1" in text and "Input should" not in text
        assert app.chat.session.setup == before
