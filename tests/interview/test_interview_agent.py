"""The chat asks about an agent's tool loop only when the user's description mentions tools."""

from __future__ import annotations

from expert.interview.flow import Interview
from expert.interview.followups import agent_kind, mentions_tools, parse_agent_steps, parse_tool_time
from expert.inputs.workload import Workload

CHAT = "A chatbot on Llama 3.1 8B, 5000 requests per day, no fine-tuning, no sensitive data"
CODING = "A coding agent with tool calls on Qwen2.5 32B, 2000 requests per day, no fine-tuning, no sensitive data"


def _asked(iv: Interview) -> list[str]:
    asked = []
    while (q := iv.next_question()) is not None:
        asked.append(q.id)
        iv.answer({"agent_steps": "about 8, up to 20", "agent_tool_time": "15 s"}.get(q.id, "skip"))
    return asked


def test_a_chatbot_gets_no_agent_questions():
    iv = Interview("en")
    iv.answer(CHAT)
    assert not {"agent_steps", "agent_tool_time"} & set(_asked(iv))
    assert "agent" not in iv.workload()


def test_an_agent_with_tools_gets_them_and_a_valid_agent_block():
    iv = Interview("en")
    iv.answer(CODING)
    asked = _asked(iv)
    assert asked.index("agent_steps") < asked.index("agent_tool_time")
    assert "context" not in asked  # the loop sizes an agent's growing context
    block = iv.workload()["agent"]
    assert block == {"kind": "coding", "steps_mean": 8, "steps_p90": 20, "tool_time_s": 15.0}
    Workload.model_validate(iv.workload())


def test_german_description_and_kinds():
    assert mentions_tools("ein analyse-agent mit werkzeugen") and agent_kind("ein analyse-agent") == "analytical"
    assert agent_kind("kundenservice mit api-aufrufen") == "conversational"
    assert not mentions_tools("ein chatbot für kunden")


def test_step_and_tool_time_parsers():
    # one number: p90 = 2.6 × typical (TraceLab 20 / 7.8)
    assert parse_agent_steps("5").fields == {"agent": {"steps_mean": 5, "steps_p90": 13}}
    assert parse_agent_steps("etwa 3, höchstens 10", "de").fields == {"agent": {"steps_mean": 3, "steps_p90": 10}}
    assert not parse_agent_steps("many").ok
    assert parse_tool_time("500 ms").fields == {"agent": {"tool_time_s": 0.5}}
    assert parse_tool_time("2 Sekunden", "de").fields == {"agent": {"tool_time_s": 2.0}}
