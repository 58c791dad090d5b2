"""Issue 35 in the app: a negated answer, a correction typed at the next question, a plain "ok"
to a suggestion and a what-if in plain words reach the recommendation's input the right way round."""

from __future__ import annotations

from tui_helpers import SIZE, screen_text, send
from tui.widgets import ReplyBubble


def recording(app, monkeypatch) -> list[dict]:
    """Every workload the chat hands to the pipeline, in order (the advisor's calls recorded; the
    advisor is shared by the tests, so the recorder is undone after this one)."""
    calls: list[dict] = []
    advise = app.advisor.advise

    def record(workload, lang, sensitivity=True):
        calls.append(dict(workload))
        return advise(workload, lang, sensitivity=sensitivity)

    monkeypatch.setattr(app.advisor, "advise", record)
    return calls


async def test_negation_and_correction_reach_the_recommendation_input(make_app, monkeypatch):
    app = make_app(lang="de")
    async with app.run_test(size=SIZE) as pilot:
        calls = recording(app, monkeypatch)
        iv = app.chat.session.interview
        for answer in ("Llama 3.1 8B", "20 000 pro Tag", "wir planen kein Nachtrainieren",
                       "nein, keine sensiblen Daten", "schnell bitte", "passt", "8k Tokens"):
            await send(pilot, answer)
        assert iv.answers["fine_tuning"] == "none" and iv.answers["latency_target_s"] == 2
        assert iv.next_question().id == "budget"
        await send(pilot, "wir kaufen keine Server, nur Cloud")           # negated: rent
        assert iv.answers["budget"] == "opex" and iv.answers["deployment"] == "cloud"
        await send(pilot, "kaufen")                                        # changed their mind …
        assert iv.answers["budget"] == "capex"
        await send(pilot, "nein, mieten! nicht kaufen")                  # … and back, at the next question
        note = str(app.chat.query(ReplyBubble).last().content)
        assert "korrigiert" in note and "Miete oder Kauf" in note, note
        assert iv.answers["budget"] == "opex"
        while (q := iv.next_question()) is not None:
            await send(pilot, "weiss nicht" if q.id != "growth" else "nein")
        assert app.chat.report is not None and calls
        sent = calls[-1]
        assert sent["budget"] == "opex" and sent["deployment"] == "cloud"
        assert sent["fine_tuning"] == "none" and sent["data"] == "non_sensitive"
        assert sent["latency_target_s"] == 2
        await send(pilot, "eigentlich unter einer halben Sekunde")      # a what-if in plain words
        assert calls[-1]["latency_target_s"] == 0.5
        assert "Alle Fragen sind beantwortet" not in screen_text(app)


async def test_paste_of_a_document_count_keeps_it_and_asks_only_the_length(make_app):
    app = make_app(lang="de")
    async with app.run_test(size=SIZE) as pilot:
        iv = app.chat.session.interview
        for answer in ("Llama 3.1 8B", "1000 pro Tag", "ja, monatlich mit LoRA", "nein", "2 s", "8k"):
            await send(pilot, answer)
        assert iv.next_question().id == "dataset"
        await send(pilot, "10'000 Dokumente")
        reply = app.chat.query(ReplyBubble).last()
        assert not reply.has_class("unclear") and "10 000 Dokumente notiert" in str(reply.content)
        await send(pilot, "je 2 Seiten")
        # 10 000 × 2 pages × 700 tokens a page = 14 000 000 tokens per run
        assert iv.answers["fine_tuning"]["dataset_tokens"] == 14_000_000


async def test_dont_know_in_the_audit_interview_skips_like_skip(make_app):
    app = make_app(lang="de")
    async with app.run_test(size=SIZE) as pilot:
        await send(pilot, "/audit")
        await send(pilot, "2× H100 SXM")
        iv = app.chat.session.interview
        asked = []
        for dont_know in ("weiss nicht", "keine Ahnung", "weiß ich nicht", "I don't know"):
            asked.append(iv.next_question().id)
            await send(pilot, dont_know)
            reply = app.chat.query(ReplyBubble).last()
            assert not reply.has_class("unclear") and "übersprungen" in str(reply.content), dont_know
        assert asked == ["ownership", "workload", "utilization", "latency_p95"]


async def test_the_first_sentence_says_which_part_it_did_not_apply(make_app):
    """QA 46: the fourth part of the first sentence, a "not in the US", is named, not dropped."""
    app = make_app(lang="en")
    async with app.run_test(size=SIZE) as pilot:
        iv = app.chat.session.interview
        await send(pilot, "Qwen3 32B, 50k requests a day, no fine-tuning, not in the US")
        assert iv.answers == {"model": "qwen3-32b", "requests_per_day": 50000, "fine_tuning": "none"}
        said = str(app.chat.query(ReplyBubble).last().content)
        assert "«not in the us» says what you do not want" in said, said
