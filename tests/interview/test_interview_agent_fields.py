"""The chat's agent questions for the issue-31 fields: who waits (closed loop), fan-out, the final
answer's target, availability; each read from typical answers in both languages, negations included."""

from __future__ import annotations

import pytest

from expert.inputs.workload import Workload
from expert.interview.agent_followups import parse_agent_users, parse_availability, parse_fan_out, parse_final
from expert.interview.flow import Interview

CODING = "A coding agent with tool calls on Qwen2.5 32B, 2000 requests per day, no fine-tuning, no sensitive data"
CODING_DE = ("Ein Coding-Agent mit Werkzeugen auf Qwen2.5 32B, 2000 Anfragen pro Tag, kein Fine-Tuning, "
             "keine sensiblen Daten")


@pytest.mark.parametrize("text,lang,block", [
    ("40 developers, 2 minutes between tasks", "en", {"concurrent_users": 40, "think_time_s": 120.0}),
    ("40 Entwickler, 2 Minuten Pause", "de", {"concurrent_users": 40, "think_time_s": 120.0}),
    ("100 users, they pause 30 s", "en", {"concurrent_users": 100, "think_time_s": 30.0}),
    ("etwa 25 Personen gleichzeitig, 90 Sekunden Pause", "de", {"concurrent_users": 25, "think_time_s": 90.0}),
])
def test_people_waiting_make_a_closed_loop(text, lang, block):
    got = parse_agent_users(text, lang)
    assert got.ok and got.fields == {"agent": block}


def test_users_without_a_pause_get_tracelabs_think_time_stated():
    got = parse_agent_users("100 users")
    assert got.fields == {"agent": {"concurrent_users": 100}}   # think_time_s stays the kind's 84 s
    assert "84 s" in got.note


def test_tasks_per_day_at_the_users_question_are_the_volume():
    got = parse_agent_users("about 2000 tasks per day")
    assert got.ok and got.fields == {"requests_per_day": 2000} and "open loop" in got.note


@pytest.mark.parametrize("text,lang", [
    ("nobody waits, it runs in CI", "en"), ("niemand wartet", "de"),
    ("keine Nutzer, nur Batch-Jobs", "de"), ("no users wait, nightly pipelines", "en"),
])
def test_nobody_waiting_is_a_batch_open_loop(text, lang):
    """Issue 31 departure 3: nobody waits → a batch (no peak factor, no final answer)."""
    got = parse_agent_users(text, lang)
    assert got.ok and got.fields == {"agent": {"batch": True}}


def test_dont_know_keeps_the_open_loop():
    got = parse_agent_users("don't know")
    assert got.ok and got.fields == {}


@pytest.mark.parametrize("text,lang,fan_out", [
    ("3 sub-agents", "en", 3), ("bis zu 4 parallel", "de", 4), ("ja, 5 Unteragenten", "de", 5),
    ("no sub-agents", "en", 1), ("keine Unteragenten", "de", 1), ("one at a time", "en", 1),
    ("nein", "de", 1), ("no, never in parallel", "en", 1), ("nacheinander", "de", 1),
])
def test_fan_out(text, lang, fan_out):
    assert parse_fan_out(text, lang).fields == {"agent": {"fan_out": fan_out}}


def test_fan_out_yes_without_a_count_asks_how_many():
    got = parse_fan_out("yes")
    assert not got.ok and "How many" in got.reason


@pytest.mark.parametrize("text,lang,block", [
    ("5 s, internal steps 30 s", "en", {"final_latency_target_s": 5.0, "step_latency_target_s": 30.0}),
    ("die Schlussantwort in 3 Sekunden, Zwischenschritte 20 s", "de",
     {"final_latency_target_s": 3.0, "step_latency_target_s": 20.0}),
    ("under 2 seconds", "en", {"final_latency_target_s": 2.0}),
    ("500 ms", "en", {"final_latency_target_s": 0.5}),
    ("half a minute per step and 4 s for the answer", "en",
     {"step_latency_target_s": 30.0, "final_latency_target_s": 4.0}),
])
def test_final_answer_and_step_targets(text, lang, block):
    assert parse_final(text, lang).fields == {"agent": block}


@pytest.mark.parametrize("text,lang", [("no target", "en"), ("egal", "de"), ("keine Vorgabe", "de")])
def test_no_final_target_keeps_the_default(text, lang):
    got = parse_final(text, lang)
    assert got.ok and got.fields == {}


@pytest.mark.parametrize("text,lang,value", [
    ("yes, it runs around the clock", "en", True), ("ja", "de", True), ("it must not fail", "en", True),
    ("der Agent darf nicht ausfallen", "de", True), ("nein, ein Server reicht", "de", False),
    ("no redundancy needed", "en", False), ("keine Redundanz nötig", "de", False),
    ("no, it may fail for an hour", "en", False),
])
def test_availability(text, lang, value):
    assert parse_availability(text, lang).fields == {"high_availability": value}


def test_garbage_is_refused_with_the_example_not_a_traceback():
    for parser in (parse_agent_users, parse_fan_out, parse_final, parse_availability):
        got = parser("purple", "en")
        assert not got.ok and got.example


def _walk(lang: str, desc: str, answers: dict[str, str]) -> tuple[list[str], Interview]:
    iv, asked = Interview(lang), []
    iv.answer(desc)
    while (q := iv.next_question()) is not None:
        asked.append(q.id)
        iv.answer(answers.get(q.id, "skip"))
    return asked, iv


@pytest.mark.parametrize("lang,desc,answers", [
    ("en", CODING, {"agent_steps": "about 8, up to 20", "agent_tool_time": "15 s",
                    "agent_users": "40 developers, 2 minutes between tasks", "agent_fan_out": "no sub-agents",
                    "agent_final": "5 s, internal steps 30 s", "agent_availability": "yes, it runs around the clock"}),
    ("de", CODING_DE, {"agent_steps": "etwa 8, bis 20", "agent_tool_time": "15 Sekunden",
                       "agent_users": "40 Entwickler, 2 Minuten Pause", "agent_fan_out": "keine Unteragenten",
                       "agent_final": "Schlussantwort 5 s, Zwischenschritte 30 s",
                       "agent_availability": "ja, rund um die Uhr"}),
])
def test_an_agent_interview_fills_the_new_fields(lang, desc, answers):
    asked, iv = _walk(lang, desc, answers)
    assert asked[0] == "agent_users"   # who waits comes first (at the volume's place)
    assert asked[asked.index("agent_tool_time"):asked.index("agent_availability") + 1] == [
        "agent_tool_time", "agent_fan_out", "agent_final", "agent_availability"]
    w = iv.workload()
    assert w["agent"] == {"kind": "coding", "steps_mean": 8, "steps_p90": 20, "tool_time_s": 15.0,
                          "concurrent_users": 40, "think_time_s": 120.0, "fan_out": 1,
                          "final_latency_target_s": 5.0, "step_latency_target_s": 30.0}
    assert w["high_availability"] is True
    Workload.model_validate(w)


NO_VOLUME = "A coding agent with tool calls on Qwen2.5 32B, no fine-tuning, no sensitive data"


@pytest.mark.parametrize("users,asked_volume", [
    ("40 developers, 2 minutes between tasks", False),   # the users make the load: no daily volume
    ("about 2000 tasks per day", False),                 # the volume, given here
    ("nobody waits", True),                              # a batch: its volume is asked next
])
def test_who_waits_is_asked_before_the_volume(users, asked_volume):
    """Issue 31 departure 2: the chat asked the daily volume before the users of a closed loop, a figure
    that follows from them (X = N / (R + Z))."""
    asked, iv = _walk("en", NO_VOLUME, {"agent_users": users, "volume": "3000 per day"})
    assert asked[0] == "agent_users"
    assert ("volume" in asked) is asked_volume
    if asked_volume:
        assert asked[1] == "volume" and iv.workload()["requests_per_day"] == 3000
    Workload.model_validate(iv.workload())


def test_a_closed_loop_chat_needs_no_volume_and_its_sentence_says_the_users():
    asked, iv = _walk("en", NO_VOLUME, {"agent_users": "40 developers, 2 minutes between tasks"})
    assert "requests_per_day" not in iv.workload()
    assert "serves 40 users who wait for their tasks (120 s of thought between tasks)" in iv.sentence()


def test_skipping_every_agent_question_states_the_defaults():
    iv = Interview("en")
    iv.answer(CODING)
    said = {}
    while (q := iv.next_question()) is not None:
        said[q.id] = iv.answer("skip").understood
    assert "tasks per day from the volume" in said["agent_users"]
    assert "one session per task" in said["agent_fan_out"]
    assert "one failure domain" in said["agent_availability"]
    assert iv.workload()["agent"] == {"kind": "coding"} and "high_availability" not in iv.workload()


def test_a_chatbot_is_not_asked_availability():
    asked, _ = _walk("en", "A chatbot on Llama 3.1 8B, 5000 requests per day, no fine-tuning, no sensitive data", {})
    assert not {"agent_users", "agent_fan_out", "agent_final", "agent_availability"} & set(asked)


def test_tool_time_states_where_the_kv_waits_and_the_affinity_kept():
    from expert.interview.followups import parse_tool_time
    assert "KV stays on the GPU while a tool runs" in parse_tool_time("15 s").note
    assert "bleibt der KV der Sitzung während des Werkzeugs auf der GPU" in parse_tool_time("15 Sekunden", "de").note
