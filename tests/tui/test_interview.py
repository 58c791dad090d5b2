"""The interview in the app: English, German, the one-sentence answer, an unparseable answer."""

from __future__ import annotations

from tui_helpers import SIZE, screen_text, send
from tui.widgets import AnswerView, QuestionBubble, RecommendationCard, ReplyBubble

EN = {"model": "Llama 3.1 8B", "volume": "20 000 per day", "fine_tuning": "no",
      "data": "no, nothing sensitive", "latency": "under 2 seconds", "context": "8k tokens",
      "budget": "rent in the cloud", "horizon": "36 months", "growth": "no"}
DE = {"model": "Llama 3.1 8B", "volume": "20 000 pro Tag", "fine_tuning": "nein",
      "data": "nein, keine sensiblen Daten", "latency": "unter 2 Sekunden", "context": "8k Tokens",
      "budget": "mieten in der Cloud", "horizon": "36 Monate", "growth": "nein"}


async def answer_all(pilot, answers: dict) -> list[str]:
    """Answer every question the flow asks, by question id; return the ids in order."""
    asked = []
    while (q := pilot.app.chat.session.interview.next_question()) is not None:
        assert len(asked) < 15, asked
        asked.append(q.id)
        await send(pilot, answers.get(q.id, "skip"))
    return asked


def assert_recommendation_shown(app) -> None:
    report = app.chat.report
    assert report is not None and report.kind == "advice"
    assert len(app.chat.query(AnswerView)) == 1
    card = str(app.chat.query_one(RecommendationCard).content)
    if report.recommendation:
        rec = report.recommendation
        assert f"{rec.count}× {rec.gpu}" in card
        assert "CHF" in card
    else:
        assert report.nothing_fits and "Nothing fits" in card or "Nichts passt" in card


async def test_full_interview_in_english_ends_in_a_recommendation(make_app):
    app = make_app(lang="en")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        first = app.chat.query(QuestionBubble).first()
        assert "Which AI model" in str(first.content)
        asked = await answer_all(pilot, EN)
        assert asked[:4] == ["model", "volume", "fine_tuning", "data"]
        assert_recommendation_shown(app)
        assert "[X]" not in app.chat.session.interview.sentence()


async def test_full_interview_in_german_ends_in_a_recommendation(make_app):
    app = make_app(lang="de")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert "Welches KI-Modell" in str(app.chat.query(QuestionBubble).first().content)
        await answer_all(pilot, DE)
        assert_recommendation_shown(app)
        assert app.chat.report.lang == "de"
        assert "Empfehlung" in screen_text(app)


async def test_one_sentence_fills_the_four_parts_at_once(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await send(pilot, "My AI agent uses a model of size 13B, processes 5000 requests per day, "
                          "needs fine-tuning no, with non-sensitive data.")
        iv = app.chat.session.interview
        assert {"params_b", "requests_per_day", "fine_tuning", "data"} <= set(iv.workload())
        sentence = str(app.chat.query_one("#sentence").content)
        assert "‹" not in sentence and "13B" in sentence and "5,000" in sentence
        assert iv.next_question().id == "latency"   # only the follow-ups are left
        assert "How soon must the first words" in str(app.chat.query(QuestionBubble).last().content)


async def test_unparseable_answer_gets_a_reason_an_example_and_the_question_again(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await send(pilot, "Llama 3.1 8B")
        before = str(app.chat.query(QuestionBubble).last().content)
        await send(pilot, "purple elephants")
        reply = app.chat.query(ReplyBubble).last()
        assert reply.has_class("unclear")
        text = str(reply.content)
        assert "Not understood" in text and "Example:" in text
        assert str(app.chat.query(QuestionBubble).last().content) == before   # repeated
        assert app.chat.session.interview.next_question().id == "volume"
        await send(pilot, "?")
        assert app.chat.query(ReplyBubble).last().has_class("help")


async def test_own_site_answered_in_the_chat_reaches_the_sovereignty_rules(make_app):
    """Patient data on bought servers: the chat asks where the own site is; answered, the advice no
    longer warns that the servers' location is unknown (000 M4); skipped, it still does."""
    answers = {**EN, "data": "yes, patient data", "sector": "health", "hosting": "Switzerland only",
               "budget": "buy, own server room", "site_country": "in Zürich"}
    for site, warned in (("in Zürich", False), ("skip", True)):
        app = make_app(lang="en")
        async with app.run_test(size=SIZE) as pilot:
            asked = await answer_all(pilot, {**answers, "site_country": site})
            assert "site_country" in asked
            assert "In which country would bought servers stand" in screen_text(app)
            assert_recommendation_shown(app)
            workload = app.chat.session.interview.workload()
            assert workload.get("site_country") == (None if warned else "CH")
            rules = {f.rule_id for f in app.chat.report.findings}
            assert ("m4-server-location-unknown" in rules) is warned, sorted(rules)


async def test_dataset_size_answered_in_the_chat_reaches_the_training_plan(make_app):
    """Fine-tuned monthly: the chat asks the dataset size (issue 12); answered, the advice's training
    plan trains on it (given, not ASSUMED); skipped, the plan shows its default as an assumption."""
    answers = {**EN, "fine_tuning": "yes, monthly", "fine_tuning_method": "LoRA"}
    for said, tokens in (("20 000 documents of 2 000 tokens", 40_000_000), ("skip", None)):
        app = make_app(lang="en")
        async with app.run_test(size=SIZE) as pilot:
            asked = await answer_all(pilot, {**answers, "dataset": said})
            assert "dataset" in asked
            assert "How much data does one fine-tuning run train on" in screen_text(app)
            assert_recommendation_shown(app)
            plan = app.chat.report.training_plan
            assert plan is not None and plan.dataset_assumed is (tokens is None)
            job = plan.lines[0]
            if tokens:  # 20 000 documents × 2 000 tokens = 40 M tokens per run
                assert plan.dataset_tokens == tokens
                assert "on 40 M tokens" in job and "dataset given" in job, job
            else:
                assert "ASSUMED" in job, job
