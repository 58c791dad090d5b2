"""A what-if edit refills the answer on screen instead of building a new one, in one batch of
screen updates that always ends.

The answer view, its rule cards and the change line are reused (an open card stays open while its
rule still fires); the refinement of an answer updates its change line instead of adding a second;
a rejected edit or a new session leaves no pending refinement, and the app never switches the
garbage collector off.
"""

from __future__ import annotations

import gc

from tui_helpers import SIZE, screen_text, send, workers_done
from tui_fakes import FakeAdvisor
from tui.widgets import AnswerView, ChangeBubble, RuleCard

SENTENCE = ("My AI agent uses a model of size Llama 3.1 8B, processes 20000 requests per day, "
            "needs fine-tuning no, with non-sensitive data.")


async def answered(pilot) -> None:
    await send(pilot, SENTENCE)
    while pilot.app.chat.session.interview.next_question() is not None:
        await send(pilot, "skip")


def released(app) -> bool:
    """Nothing held: the collector runs, no refinement is pending, and the screen paints (the
    `batch_update` block has ended: a refresh asked for now is done on the next idle)."""
    return gc.isenabled() and not app.chat.refining and not app.chat.showing


async def test_what_if_refills_the_same_view_and_keeps_an_open_card_open(make_app):
    app = make_app(advisor=FakeAdvisor())
    async with app.run_test(size=SIZE) as pilot:
        await answered(pilot)
        view = app.chat.query_one(AnswerView)
        (chat_card,) = app.chat.query(RuleCard)           # FakeAdvisor: one INFO finding at 2 s
        chat_card.collapsed = False
        await send(pilot, "/set latency 0.3")             # FakeAdvisor: H100, + "H100 justified"
        assert app.chat.query_one(AnswerView) is view
        cards = list(app.chat.query(RuleCard))
        assert [c.finding.rule_id for c in cards] == ["h100-justified", "use-case-chat"]  # warning first
        # the open card followed its rule to the second place; the new card is closed and marked
        assert [c.collapsed for c in cards] == [True, False]
        assert cards[0].title.startswith("★ new")
        log = app.chat.query_one("#log")
        assert log.children[-1] is app.chat.query_one(ChangeBubble)    # the change line is last
        assert log.children[-2] is view
        assert released(app)


async def test_refinement_updates_the_change_line_instead_of_adding_one(make_app):
    app = make_app()                                      # the real pipeline: it refines
    async with app.run_test(size=SIZE) as pilot:
        await answered(pilot)
        await send(pilot, "actually 70B")
        assert app.chat.report.sensitivity                # the refined report is on screen
        assert len(app.chat.query(ChangeBubble)) == 1
        assert len(app.chat.query(AnswerView)) == 1
        await send(pilot, "actually 8B")
        assert len(app.chat.query(ChangeBubble)) == 2     # one per edit
        assert released(app)


async def test_a_rejected_edit_releases_the_screen(make_app):
    app = make_app(advisor=FakeAdvisor())
    async with app.run_test(size=SIZE) as pilot:
        await answered(pilot)
        report = app.chat.report
        await send(pilot, "/set horizon 0")               # FakeAdvisor raises InputError
        assert app.chat.report is report and released(app)
        await send(pilot, "/set latency 0.3")             # and the next edit still paints
        assert app.chat.report is not report and released(app)


async def test_new_session_drops_the_answer_and_its_pending_refinement(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await answered(pilot)
        await send(pilot, "/set latency 0.5")
        app.chat.handle("/set latency 0.4")               # no waiting: its refinement is pending
        assert app.chat.refining
        app.chat.new_session(True)                         # /new, answered yes
        assert app.chat.report is None and not app.chat.refining
        await workers_done(pilot.app)
        await pilot.pause(app.chat.REFINE_DELAY_S + 0.2)  # the dropped refinement would land now
        await workers_done(pilot.app)
        await pilot.pause()
        assert app.chat.report is None and not app.chat.query(AnswerView)
        assert released(app)


async def test_the_refinement_of_a_first_answer_keeps_its_start_in_view(make_app):
    app = make_app()                                      # the real pipeline: it refines
    async with app.run_test(size=SIZE) as pilot:
        await answered(pilot)
        assert app.chat.report.sensitivity               # refined
        log = app.chat.query_one("#log")
        view = app.chat.query_one(AnswerView)
        assert not log.is_anchored                       # not pulled down to the answer's end
        assert log.scroll_y == view.virtual_region_with_margin.y   # the recommendation on top


def test_findings_of_one_rule_are_numbered():
    from types import SimpleNamespace

    from tui.widgets.findings import _nths

    findings = [SimpleNamespace(rule_id=r) for r in ("a", "g13", "b", "g13")]
    assert _nths(findings) == ["", "1/2", "", "2/2"]


async def test_the_fast_path_batches_the_screen_and_always_lets_go(make_app, monkeypatch):
    from textual.app import App

    batches = []
    batch = App.batch_update

    def counted(self):
        batches.append(1)
        return batch(self)

    monkeypatch.setattr(App, "batch_update", counted)
    app = make_app(advisor=FakeAdvisor())
    async with app.run_test(size=SIZE) as pilot:
        await answered(pilot)
        before = len(batches)
        await send(pilot, "/set latency 0.3")
        assert len(batches) > before and released(app)   # batched for the answer, ended after
        await send(pilot, "still typing")                # the screen takes input and paints
        assert "still typing" in screen_text(app)


async def test_an_error_while_showing_an_answer_is_one_line_not_the_end(make_app, monkeypatch):
    app = make_app(advisor=FakeAdvisor())
    async with app.run_test(size=SIZE) as pilot:
        await answered(pilot)

        async def broken(self, *args, **kwargs):
            raise RuntimeError("display bug")

        monkeypatch.setattr(AnswerView, "show", broken)
        await send(pilot, "/set latency 0.3")
        assert app.is_running and "RuntimeError: display bug" in screen_text(app)
        assert released(app)


async def test_a_thread_result_for_an_older_session_is_dropped(make_app, tmp_path):
    import yaml

    path = tmp_path / "setup.yaml"
    path.write_text(yaml.safe_dump({"gpu": "h100-sxm", "count": 2, "workload": {
        "model": "llama-3.1-8b", "requests_per_day": 20000}}), encoding="utf-8")
    app = make_app()                                      # audits run in a thread
    async with app.run_test(size=SIZE) as pilot:
        await workers_done(app)
        app.chat.handle(f"/audit {path}")
        app.chat.new_session(True)                        # /new (yes) before the audit came back
        await workers_done(app)
        await pilot.pause(0.2)
        assert app.chat.report is None and app.chat.session.mode == "advice"
        assert "Error" not in screen_text(app) and "✗" not in screen_text(app)


def test_an_open_card_keeps_its_finding_when_a_twin_of_its_rule_goes():
    from types import SimpleNamespace as F

    from tui.widgets.findings import _keys

    a = F(rule_id="g13", facts={"f.reason": "finetuning"})
    b = F(rule_id="g13", facts={"f.reason": "large-model"})
    before, after = _keys([a, b]), _keys([b])
    assert before[0] != before[1] and after[0] not in before  # b's card is not a's card reused
    assert _keys([F(rule_id="x", facts={"n": 1})]) == _keys([F(rule_id="x", facts={"n": 2})])
