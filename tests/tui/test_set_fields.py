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
