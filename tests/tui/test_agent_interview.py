"""An agent interview in the app, end to end: the issue-31 questions asked after steps and tool time,
their answers in the workload, and the advice sized for them (a closed loop, two failure domains)."""

from __future__ import annotations

from tui_helpers import SIZE, screen_text, send
from tui.widgets import ReplyBubble

from test_interview import answer_all, assert_recommendation_shown

AGENT = ("A support agent with tool calls on Llama 3.1 8B, 500 requests per day, no fine-tuning, "
         "no sensitive data")
ANSWERS = {"agent_steps": "about 3, up to 6", "agent_tool_time": "2 s",
           "agent_users": "20 people, 1 minute between tasks", "agent_fan_out": "no sub-agents",
           "agent_final": "3 s, internal steps 20 s", "agent_availability": "yes, it must not fail",
           "budget": "buy"}


async def test_an_agent_interview_walks_the_new_questions_into_the_advice(make_app):
    app = make_app(lang="en")
    async with app.run_test(size=SIZE) as pilot:
        await send(pilot, AGENT)
        asked = await answer_all(pilot, ANSWERS)
        assert asked[0] == "agent_users"   # who waits before the volume (issue 31 departure 2)
        assert asked[asked.index("agent_steps"):asked.index("agent_availability") + 1] == [
            "agent_steps", "agent_tool_time", "agent_fan_out", "agent_final", "agent_availability"]
        workload = app.chat.session.interview.workload()
        assert workload["agent"] == {"kind": "conversational", "steps_mean": 3, "steps_p90": 6,
                                     "tool_time_s": 2.0, "concurrent_users": 20, "think_time_s": 60.0,
                                     "fan_out": 1, "final_latency_target_s": 3.0,
                                     "step_latency_target_s": 20.0}
        assert workload["high_availability"] is True
        replies = " ".join(str(r.content) for r in app.chat.query(ReplyBubble))
        assert "keeps serving when one server fails" in replies   # the users' reply, asked first, scrolled away
        assert "serves 20 users who wait for their tasks" in app.chat.session.interview.sentence()
        assert_recommendation_shown(app)
        report = app.chat.report
        if report.recommendation and report.agent:   # the real pipeline (not the fallback fake)
            # a closed loop of 20 users never holds more sessions than users (issue 31 item 1)
            assert report.agent.sessions_peak <= 20
            # bought and highly available: at least two servers (000 R3)
            assert len(report.recommendation.failure_domains) >= 2
        assert "Traceback" not in screen_text(app)
