"""Issue 15: a German session is German on screen, the first German answer switches an English
chat to German, and the memory sum on the answer card adds up.

The German session is the issue's architect: 70B, 20 000 requests a day, patient data, under one
second, buying — every English word they met (`◂ you`, `(purchase)`, offer ids, «sensitive»,
`0.52 s`, a doubled note) is checked here.
"""

from __future__ import annotations

import re
from types import SimpleNamespace

from tui_helpers import SIZE, screen_text, send, workers_done
from tui.app import GpuExpertApp
from tui.widgets.cards import Card
from tui.widgets.recommendation import memory_sum

ARCHITECT = ["Llama 3.1 70B", "20000 pro Tag", "nein", "ja, Patientendaten", "unter 1 Sekunde", "8k",
             "egal", "kaufen", "3 Jahre", "Schweiz", "nein", "weiss nicht"]


async def test_a_german_session_shows_no_english_words(make_app):
    app = make_app(lang="de")
    async with app.run_test(size=(120, 40)) as pilot:
        await workers_done(app)
        for answer in ARCHITECT:
            await send(pilot, answer)
        assert app.chat.report is not None and app.chat.report.recommendation is not None
        for card in app.chat.query(Card):
            card.collapsed = False
        await pilot.pause()
        text = screen_text(app)
    assert "◂ Sie" in text and "◂ you" not in text
    for english in ("(purchase", "purchase:", "package ", "«sensitive»", "«health»", "Schweregrad"):
        assert english not in text, english
    # seconds with a decimal point (`0.52 s`) next to German ones (`0,5 s`)
    assert not re.findall(r"(?<![\w.-])\d+\.\d+ s\b", text)
    assert not re.search(r"keine Vorgabe[^\n]*\(keine Vorgabe", text)


async def test_the_first_german_answer_switches_the_chat_to_german(state_dir):
    from tui_fakes import FakeAdvisor

    app = GpuExpertApp(lang="en", resume=False, cursor_blink=False, advisor=FakeAdvisor(),
                       lang_chosen=False)                 # as `gpu-expert` without --lang
    async with app.run_test(size=SIZE) as pilot:
        await send(pilot, "ein Modell mit 13 Milliarden Parametern")
        assert app.chat.session.lang == "de"
        text = screen_text(app)
        assert "Sie schreiben Deutsch" in text           # it says so
        assert "Wie viele Anfragen" in text              # the next question is German
        assert app.chat.query_one("#prompt").placeholder.startswith("Antwort eingeben")
        await send(pilot, "20000 per day")               # later English answers do not switch back
        assert app.chat.session.lang == "de"


async def test_an_english_answer_keeps_english_and_a_chosen_language_stays(state_dir):
    from tui_fakes import FakeAdvisor

    app = GpuExpertApp(lang="en", resume=False, cursor_blink=False, advisor=FakeAdvisor())
    async with app.run_test(size=SIZE) as pilot:           # --lang en given: German never switches
        await send(pilot, "ein Modell mit 13 Milliarden Parametern")
        assert app.chat.session.lang == "en"


def test_the_memory_sum_adds_up_with_overhead_per_gpu():
    # the card: weights 8.0 + KV 0.3 + overhead 6.2 = 20.7 GB; 20.7 − 8.0 − 0.3 = 12.4 = 2 × 6.2
    m = SimpleNamespace(weights_gb=8.0, kv_cache_gb=0.3, overhead_gb=6.2, total_gb=20.7)
    assert memory_sum(m, "en") == "memory: weights 8.0 + KV 0.3 + overhead 2 × 6.2 = 20.7 GB"
    one = SimpleNamespace(weights_gb=8.0, kv_cache_gb=0.3, overhead_gb=6.2, total_gb=14.5)
    assert memory_sum(one, "de") == "Speicher: Gewichte 8,0 + KV 0,3 + Overhead 6,2 = 14,5 GB"
    odd = SimpleNamespace(weights_gb=70.0, kv_cache_gb=2.7, overhead_gb=6.2, total_gb=97.6)
    assert memory_sum(odd, "en").endswith("overhead 24.9 = 97.6 GB")     # 97.6 − 70 − 2.7


async def test_the_palette_switches_the_language_by_message(state_dir):
    from tui_fakes import FakeAdvisor

    app = GpuExpertApp(lang="en", resume=False, cursor_blink=False, advisor=FakeAdvisor())
    async with app.run_test(size=SIZE) as pilot:
        entry = next(c for c in app.get_system_commands(app.screen) if c.title == "Sprache: Deutsch")
        entry.callback()                                   # posts ChatScreen.Typed("/lang de")
        await pilot.pause()
        assert app.chat.session.lang == "de"
        keys = [active.binding.description for active in app.chat.active_bindings.values()]
        assert "Hilfe" in keys and "Regelkarten" in keys and "Help" not in keys   # the key bar too
