"""Parsers for the agent questions after steps and tool time (issue 31): who waits, fan-out, the
final answer's target, availability over two failure domains.

Same contract as `followups`: text in, `Parsed` out, never an exception; "don't know" / "egal" is
understood with no fields (the `agent:` block's default applies, docs/agents.md). Reasoning, session
affinity and where the KV waits during tools are not asked: a newcomer cannot tell them, the
defaults (kept, affinity, held on the GPU) are stated in the summary.
"""

from __future__ import annotations

from . import lexicon as lx, numbers as nb
from .choices import nothing, undecided
from .followups import parse_latency
from .parse import parse_volume
from .polarity import affirmed, denied, polar
from .result import Parsed, fail, safe, say

_PEOPLE = lx.words("users?", "people", "persons?", "developers?", "devs?", "engineers?", "colleagues?",
                   "employees?", "nutzer\\w*", "benutzer\\w*", "anwender\\w*", "personen", "leute",
                   "entwickler\\w*", "mitarbeite\\w*", "kolleg\\w*", "at once", "gleichzeitig", "concurrent\\w*")
_WAIT = lx.words("wait\\w*", "warte\\w*", "interactive\\w*", "interaktiv\\w*")
_PER_DAY = lx.words("per day", "a day", "daily", "pro tag", "am tag", "täglich", "batch\\w*", "ci",
                    "pipelines?", "nightly", "nächtlich\\w*", "automati\\w*", "jobs?")
_NOBODY = lx.words("nobody", "no one", "noone", "niemand", "keiner")
_BATCH = lx.words("batch\\w*", "ci", "pipelines?", "nightly", "nächtlich\\w*", "automati\\w*", "jobs?")
_MUST_NOT_FAIL = lx.words("(must|may|should|can)(n'?t| not) (fail|stop|go down)", "darf nicht (ausfallen|stehen\\w*)",
                          "nie (ausfallen|stillstehen)", "never (fail|stop|go down)")
_TIME = lx.words("s", "secs?", "seconds?", "sek\\w*", "min\\w*", "ms")
_BRANCHES = lx.words("sub[- ]?agent\\w*", "unter[- ]?agent\\w*", "parallel\\w*", "at once", "gleichzeitig",
                     "branch\\w*", "zweig\\w*", "fan[- ]?out", "helpers?", "helfer\\w*", "workers?")
_SERIAL = lx.words("one (at a time|after (the )?other)", "nacheinander", "sequential\\w*", "sequenziell\\w*",
                   "seriell\\w*", "single", "einzeln\\w*")
_STEP = lx.words("steps?", "schritt\\w*", "intern\\w*", "tool[- ]?calls?", "werkzeug\\w*", "zwischen\\w*")
_HA = lx.words("server\\w*", "fail\\w*", "ausf[aä]ll\\w*", "redundan\\w*", "high[- ]?availab\\w*",
               "hochverfügbar\\w*", "failure domains?", "ausfallbereich\\w*", "two machines", "zwei maschinen",
               "always", "immer", "24/7", "critical", "kritisch\\w*")


@safe("agent_users")
def parse_agent_users(t: str, lang: str = "en") -> Parsed:
    """People who wait for their tasks → `{agent: {concurrent_users: N, think_time_s: x}}`
    (a closed loop: `40 developers, 2 minutes between tasks`); tasks per day, a batch, CI or
    "nobody waits" → an open loop whose volume counts tasks: `2000 tasks per day` fills it
    (`requests_per_day`, the volume question is then not asked), else the volume question follows;
    nobody waiting (a batch, CI, "nobody waits") → `{agent: {batch: true}}` as well (no peak factor)."""
    nums = nb.scan(t, scales=True, words=True)
    open_loop = lx.has(_PER_DAY, t) and not lx.has(_PEOPLE, t)
    if open_loop or polar({"x": _PEOPLE}, t)["x"] == -1 or denied(_WAIT, t) or lx.has(_NOBODY, t):
        volume = parse_volume(t, lang)
        fields = dict(volume.fields) if volume.ok else {}
        if lx.has(_NOBODY, t) or lx.has(_BATCH, t) or denied(_WAIT, t):  # nobody waits: a batch (no peak factor)
            return Parsed({**fields, "agent": {"batch": True}}, lang=lang,
                          note=say("interview.note.agent_users.batch", lang))
        return Parsed(fields, lang=lang, note=say("interview.note.agent_users.per_day", lang))
    if not nums:
        if undecided(t):
            return nothing(lang)
        return fail("agent_users", lang, "interview.reply.agent_users")
    users = next((n for n in nums if not _TIME.match(t, n.end + (t[n.end:n.end + 1] == " "))), None)
    if users is None or not 1 <= users.value <= 10_000_000:
        return fail("agent_users", lang, "interview.reply.agent_users")
    block: dict = {"concurrent_users": int(round(users.value))}
    rest = t[users.end:]
    think = parse_latency(rest, lang) if any(n.start >= users.end for n in nums) else None
    note = say("interview.note.agent_users.think", lang)
    if think is not None and think.ok and "latency_target_s" in think.fields:
        block["think_time_s"], note = think.fields["latency_target_s"], None
    return Parsed({"agent": block}, lang=lang, note=note)


@safe("agent_fan_out")
def parse_fan_out(t: str, lang: str = "en") -> Parsed:
    """Sub-agents or parallel tool calls one task runs at once → `{agent: {fan_out: N}}`; `3 sub-agents`,
    `bis zu 4 parallel`; "no sub-agents", "keine Unteragenten", "one after the other" → 1."""
    nums = [n for n in nb.scan(t, scales=False, words=True) if 1 <= n.value <= 1000]
    if (denied(_BRANCHES, t) or lx.has(_SERIAL, t) or lx.only(lx.BARE_NO, t)
            or (lx.has(lx.NO, t) and not nums and not affirmed(_BRANCHES, t))):
        return Parsed({"agent": {"fan_out": 1}}, lang=lang)
    if not nums:
        if undecided(t):
            return nothing(lang)
        return fail("agent_fan_out", lang, "interview.reply.agent_fan_out")
    return Parsed({"agent": {"fan_out": int(round(max(n.value for n in nums)))}}, lang=lang)


@safe("agent_final")
def parse_final(t: str, lang: str = "en") -> Parsed:
    """The final, user-visible answer's target → `{agent: {final_latency_target_s: x}}`; a part that
    names the steps (`30 s per step`, `Zwischenschritte 20 s`) → `step_latency_target_s`."""
    block, notes = {}, []
    for part in _parts(t):
        got = parse_latency(part, lang)
        if not got.ok or "latency_target_s" not in got.fields:
            continue
        key = "step_latency_target_s" if lx.has(_STEP, part) else "final_latency_target_s"
        block.setdefault(key, got.fields["latency_target_s"])
        notes += [got.note] if got.note else []
    if block:
        return Parsed({"agent": block}, lang=lang, note="; ".join(notes) or None)
    if undecided(t) or lx.has(lx.NO, t):
        return nothing(lang)
    return fail("agent_final", lang, "interview.reply.agent_final")


def _parts(t: str) -> list[str]:
    """The clauses of an answer that may name two targets ("8 s for the answer, 30 s per step")."""
    cuts = [0] + [m.start() for m in lx.words("and", "und", "but", "aber").finditer(t)] + [len(t)]
    pieces = [t[a:b] for a, b in zip(cuts, cuts[1:])]
    return [s for piece in pieces for s in piece.replace(";", ",").split(",") if s.strip()]


@safe("agent_availability")
def parse_availability(t: str, lang: str = "en") -> Parsed:
    """Whether the agent must keep serving when one server fails → `{high_availability: bool}`;
    `yes, 24/7`, `nein, ein Server reicht`, `no redundancy needed`."""
    if lx.has(_MUST_NOT_FAIL, t):
        return Parsed({"high_availability": True}, lang=lang,
                      note=say("interview.note.agent_availability", lang))
    no_first = lx.find(lx.NO, t)
    yes_first = lx.find(lx.YES, t)
    if denied(_HA, t) or (no_first >= 0 and (yes_first < 0 or no_first < yes_first)):
        return Parsed({"high_availability": False}, lang=lang)
    if yes_first >= 0 or affirmed(_HA, t):
        return Parsed({"high_availability": True}, lang=lang,
                      note=say("interview.note.agent_availability", lang))
    if undecided(t):
        return nothing(lang)
    return fail("agent_availability", lang, "interview.reply.agent_availability")

