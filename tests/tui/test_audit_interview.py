"""Audit mode without a setup file: `/audit` alone asks about the setup, one question at a time,
and ends in the same audit as the equivalent setup file would."""

from __future__ import annotations

import yaml

from tui_helpers import SETUP, SIZE, screen_text, send, workers_done
from tui.widgets import QuestionBubble, RuleCard


ANSWERS_EN = ["2× H100 SXM", "rented", "Llama 3.1 8B, 20000 requests per day, patient data",
              "15 %, peak 30 %", "0.9 s", "servers in the US, provider in the US too", "PCIe",
              "no monitoring, no backups", "8 cores, 64 GB RAM, HDD with 150 MB/s"]


def question_ids(app) -> str | None:
    q = app.chat.session.interview.next_question()
    return q.id if q else None


async def test_audit_interview_in_english_builds_the_setup_file_and_audits_it(make_app, tmp_path):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await workers_done(app)
        await send(pilot, "/audit")
        assert app.chat.session.mode == "audit" and question_ids(app) == "gpu"
        asked = []
        for answer in ANSWERS_EN:
            asked.append(question_ids(app))
            await send(pilot, answer)
        assert asked == ["gpu", "ownership", "workload", "utilization", "latency_p95", "location",
                         "interconnect", "operations", "host"]
        assert app.chat.session.data() == SETUP
        report = app.chat.report
        assert report is not None and report.kind == "audit"
        # the same findings as auditing the equivalent file
        path = tmp_path / "setup.yaml"
        path.write_text(yaml.safe_dump(SETUP), encoding="utf-8")
        from_file = app.advisor.audit(SETUP, "en")
        assert [f.rule_id for f in report.findings] == [f.rule_id for f in from_file.findings]
        categories = {f.category for f in report.findings}
        assert {"overprovisioning", "data-sovereignty", "non-gpu-bottleneck", "operations"} <= categories
        assert len(app.chat.query(RuleCard)) == len(report.findings), screen_text(app)[-1500:]
        await send(pilot, f"/save {tmp_path / 'saved.yaml'}")
        assert yaml.safe_load((tmp_path / "saved.yaml").read_text(encoding="utf-8")) == SETUP


async def test_audit_interview_in_german_with_skips_and_a_what_if(make_app):
    app = make_app(lang="de")
    async with app.run_test(size=SIZE) as pilot:
        await workers_done(app)
        await send(pilot, "/audit")
        assert "Welche GPUs" in str(app.chat.query(QuestionBubble).last().content)
        await send(pilot, "überspringen")                     # the GPU cannot be skipped
        assert question_ids(app) == "gpu" and "braucht es die GPU" in screen_text(app)
        await send(pilot, "eine L40S")
        await send(pilot, "gehört uns")
        await send(pilot, "Mistral 7B, 3000 Anfragen pro Tag, keine sensiblen Daten")
        await send(pilot, "im Schnitt 70 %, Spitze 90 %")
        while question_ids(app) is not None:                  # the rest: skipped
            await send(pilot, "weiss nicht")
        data = app.chat.session.data()
        assert data["gpu"] == "l40s" and data["count"] == 1 and data["ownership"] == "owned"
        assert data["utilization"] == {"mean": 0.7, "peak": 0.9}
        assert "interconnect" not in data                    # one GPU: not asked
        report = app.chat.report
        assert report is not None and report.kind == "audit" and report.lang == "de"
        await send(pilot, "/set utilization.mean 0.2")       # a what-if on the audited setup
        assert app.chat.report is not report
        assert app.chat.session.data()["utilization"]["mean"] == 0.2


async def quit_during_audit_then_resume(make_app, answers: list[str]):
    """Answer the audit interview with `answers`, quit (Ctrl+Q); return a new app that will offer
    to resume."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await workers_done(app)
        await send(pilot, "/audit")
        for answer in answers:
            await send(pilot, answer)
        await pilot.press("ctrl+q")
    app = make_app(resume=None)
    return app


async def resume(app, pilot) -> None:
    """Accept the offer to resume the autosaved session."""
    from tui.screens import ResumeScreen

    await pilot.pause()
    assert isinstance(app.screen, ResumeScreen)
    await pilot.press("y", "enter")
    await pilot.pause()


async def test_an_audit_interview_quit_halfway_resumes_where_it_stopped(make_app, state_dir):
    app = await quit_during_audit_then_resume(make_app, ["4x A100 80GB SXM", "owned"])
    saved = yaml.safe_load((state_dir / "autosave.yaml").read_text(encoding="utf-8"))
    assert saved == {"gpu": "a100-80gb-sxm", "count": 4, "ownership": "owned"}
    async with app.run_test(size=SIZE) as pilot:
        await resume(app, pilot)
        assert app.chat.session.mode == "audit"
        assert app.chat.session.data() == saved
        assert question_ids(app) == "workload"              # continues where it stopped
        assert app.chat.report is None                       # no audit before the questions end


async def test_audit_edits_are_checked_and_undone_when_refused(make_app, tmp_path):
    path = tmp_path / "setup.yaml"
    path.write_text(yaml.safe_dump(SETUP), encoding="utf-8")
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await workers_done(app)
        await send(pilot, f"/audit {path}")
        report = app.chat.report
        await send(pilot, "/set count two")                   # wrong type: refused at once
        assert "count" in screen_text(app) and app.chat.session.data() == SETUP
        await send(pilot, "/set utilisation 0.5")             # not a setup field
        assert "unknown setup field 'utilisation'" in screen_text(app)
        await send(pilot, "/set gpu h999")                    # the audit refuses it: undone
        assert app.chat.session.data() == SETUP and app.chat.report is report
        await send(pilot, "/unset hosting")                   # its question comes back …
        assert question_ids(app) == "location"
        await send(pilot, "skip")                             # … and skipping it re-audits
        assert app.chat.report is not report
        assert "hosting" not in app.chat.session.data()


async def test_unset_gpu_then_resume_asks_for_the_gpu(make_app, state_dir):
    app = await quit_during_audit_then_resume(make_app, ["2x H100 SXM", "/unset gpu"])
    async with app.run_test(size=SIZE) as pilot:
        await resume(app, pilot)
        assert app.chat.session.mode == "audit" and question_ids(app) == "gpu"


def test_a_gpu_answer_does_not_take_words_for_places():
    from expert.interview.setup_flow import SetupInterview

    for text in ("2 H100 serving us since 2023", "4x A100 80GB SXM, de facto idle"):
        iv = SetupInterview("en")
        iv.answer(text)
        assert "hosting" not in iv.setup(), text


def test_an_answer_about_the_gpus_also_fills_ownership_and_location():
    from expert.catalog.loader import load_catalog
    from expert.interview.setup_flow import SetupInterview

    catalog = load_catalog()
    gpus = {n: g.id for g in catalog.gpus.values() for n in (g.id, g.name, *g.aliases)}
    iv = SetupInterview("en", gpus=gpus)
    reply = iv.answer("2 H100 rented from AWS in Frankfurt")
    assert iv.setup() == {"gpu": "h100-sxm", "count": 2, "ownership": "rented",
                          "hosting": {"country": "DE", "provider_seat": "US"}}
    assert reply.understood == "2× h100-sxm, rented, servers in DE, provider seat US"
    assert iv.next_question().id == "workload"          # ownership and location not asked again
    iv = SetupInterview("en", gpus=gpus)
    iv.answer("2x H100 SXM")                             # nothing else said: nothing else set
    assert iv.setup() == {"gpu": "h100-sxm", "count": 2} and iv.next_question().id == "ownership"

