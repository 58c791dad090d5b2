"""Parsers for the numeric follow-up questions: latency, context length, horizon, model growth.

Same contract as the other parsers: text in, `Parsed` out, never an exception. An answer such as
"egal", "no requirement" or "don't know" is understood (ok) with no fields: the default applies.
The choice questions (sector, hosting, deployment, budget, yes/no) are in `choices`.
"""

from __future__ import annotations

import re

from . import aliases, lexicon as lx, numbers as nb
from .choices import NO_PREFERENCE, nothing, undecided
from .model import sizes
from .polarity import blank_denied, denied
from .result import Parsed, fail, num, safe, say

_LAT_UNIT = re.compile(r"(?:^| |(?<=\d))(ms|msec|millisec\w*|millisek\w*|s|sec\w*|sek\w*|min\w*)"
                       r"(?![a-z])")
_REAL_TIME = lx.words("real[- ]?time", "echtzeit", "instant\\w*", "sofort", "asap",
                      "as fast as possible", "so schnell wie möglich", "möglichst schnell")
_LENGTH_WORDS = re.compile(r"(?<![a-z])(tokens?|pages?|seiten?|words?|wörter|woerter|worte|kontext\w*|"
                           r"context)(?![a-z])")
_TIME_AFTER = re.compile(r" ?(ms|msec|millisec\w*|millisek\w*|s|secs?|seconds?|sek|sekunden?|min|"
                         r"mins|minutes?|minuten?)(?![a-z])")
_BITS_AFTER = re.compile(r"[- ]?bits?(?![a-z])")
_A_FEW_PAGES = re.compile(r"(?<![\w])(?:a few|few|several|some|ein paar|einige|mehrere|wenige)"
                          r" (?=(?:pages?|seiten?)(?![a-z]))")
_YEARS = re.compile(r" ?(years?|yrs?|jahre?n?|j|y)(?![a-z])")
_MONTHS = re.compile(r" ?(months?|monate?n?|mo|mt)(?![a-z])")
TOKENS_PER_PAGE = 700
"""Tokens on one page of text (context length, fine-tuning dataset): the context question's rule of thumb."""
TOKENS_PER_WORD = 1.4
"""Tokens per word of text (the context question's rule of thumb)."""
_SAME = lx.words("stays?", "same", "bleibt\\w*", "gleich\\w*", "unchanged", "unverändert")
_DOUBLE = lx.words("doubl\\w*", "verdoppel\\w*", "twice", "2x", "zweimal")


@safe("latency")
def parse_latency(t: str, lang: str = "en") -> Parsed:
    """Latency target → `{latency_target_s: x}`; `500 ms`, `unter 1 Sekunde`, `half a second`.

    A range uses its stricter (lower) value; a bare number ≥ 20 is read as milliseconds.
    """
    nums = nb.scan(t, scales=False, words=True)
    if _LENGTH_WORDS.search(t) and not _LAT_UNIT.search(t):
        return fail("latency", lang, "interview.reply.latency.is_length")
    if not nums:
        if lx.has(NO_PREFERENCE, t) or lx.has(lx.BARE_NO, t):
            return nothing(lang)
        if lx.has(_REAL_TIME, t):
            return Parsed({"latency_target_s": 0.5}, lang=lang,
                          note=say("interview.note.latency.real_time", lang))
        return fail("latency", lang, "interview.reply.latency.none")
    rng = nb.first_range(t, nums)
    n, note = (rng[0] if rng else nums[0]), None
    unit = _LAT_UNIT.match(t, (rng[1] if rng else n).end) or _LAT_UNIT.search(t)
    if unit:
        scale = {"ms": 0.001, "mse": 0.001, "mil": 0.001, "min": 60}.get(unit.group(1)[:3], 1)
    else:
        scale = 0.001 if n.value >= 20 else 1
        note = (say("interview.note.latency.ms", lang) if scale < 1
                else say("interview.note.latency.s", lang))
    if rng:
        note = say("interview.note.latency.range", lang)
    value = n.value * scale
    if not 0.01 <= value <= 600:
        return fail("latency", lang, "interview.reply.latency.out_of_range")
    return Parsed({"latency_target_s": round(float(value), 3)}, lang=lang, note=note)


@safe("context")
def parse_context(t: str, lang: str = "en") -> Parsed:
    """Context length → `{context_tokens: N}`; `8k` = 8192, `32 000 Tokens`, `10 pages` ≈ 7000,
    `a few pages` ≈ 3 pages. A time (`under 3 seconds`) is refused: it answers another question."""
    few = _A_FEW_PAGES.search(t)
    if few:
        t = t[:few.start()] + "3 " + t[few.end():]
    nums = nb.scan(t)
    if any(_TIME_AFTER.match(t, n.end) for n in nums) and not _LENGTH_WORDS.search(t):
        return fail("context", lang, "interview.reply.context.is_time")
    if any(_BITS_AFTER.match(t, n.end) for n in nums) and not _LENGTH_WORDS.search(t):
        return fail("context", lang, "interview.reply.context.is_precision")  # "8-bit is fine"
    if not nums:
        if lx.has(NO_PREFERENCE, t):
            return nothing(lang)
        return fail("context", lang, "interview.reply.context.none")
    n, note = max(nums, key=lambda x: x.value), None
    value = n.value / 1000 * 1024 if n.scale == "k" else n.value
    if re.search(r"(?<![a-z])(pages?|seiten?)(?![a-z])", t):
        value *= TOKENS_PER_PAGE
        note = say("interview.note.tokens_per_page", lang, n=TOKENS_PER_PAGE)
        if few:
            note = say("interview.note.context.a_few_pages", lang)
    elif re.search(r"(?<![a-z])(words?|wörter|woerter|worte)(?![a-z])", t):
        value *= TOKENS_PER_WORD
        note = say("interview.note.tokens_per_word", lang)
    elif value < 256 and not n.scale:
        value *= 1024
        note = say("interview.note.context.thousands", lang)
    if not 256 <= value <= 10_000_000:
        return fail("context", lang, "interview.reply.context.out_of_range")
    return Parsed({"context_tokens": int(round(value))}, lang=lang, note=note)


@safe("horizon")
def parse_horizon(t: str, lang: str = "en") -> Parsed:
    """Horizon → `{horizon_months: N}`; `3 years`, `36 Monate`, `zwei Jahre`; bare ≤ 10 = years.

    A range uses its shorter period, the safer assumption for a purchase.
    """
    nums = nb.scan(t, scales=False, words=True)
    if not nums:
        if lx.has(NO_PREFERENCE, t):
            return nothing(lang)
        return fail("horizon", lang, "interview.reply.horizon.none")
    rng = nb.first_range(t, nums)
    n, note = (rng[0] if rng else nums[0]), None
    after = t[(rng[1] if rng else n).end:]
    if _MONTHS.match(after):
        months = n.value
    elif _YEARS.match(after):
        months = n.value * 12
    elif n.value <= 10:
        months, note = n.value * 12, say("interview.note.horizon.years", lang)
    else:
        months, note = n.value, say("interview.note.horizon.months", lang)
    if rng:
        note = say("interview.note.horizon.range", lang)
    if not 1 <= months <= 240:
        return fail("horizon", lang, "interview.reply.horizon.out_of_range")
    return Parsed({"horizon_months": int(round(months))}, lang=lang, note=note)


_GROWS = lx.words("grow\\w*", "wachs\\w*", "wächst", "grösser\\w*", "bigger", "larger", "changes?",
                  "ändern", "ändert")
"""Words of growth: a denied one ("no growth", "wird nicht grösser") answers the growth question."""


@safe("growth")
def parse_growth(t: str, lang: str = "en", models: dict[str, str] | None = None,
                 current_params_b: float | None = None) -> Parsed:
    """Expected model size in 12–18 months → `{growth_params_b: N}`; no / don't know → nothing.

    Accepts a size (`70B`), a catalog model (`llama 3.1 70b`), or `double` when the current size
    is known; of several sizes (`from 8B to 70B`) the largest counts.
    """
    hit = aliases.exact(t, models or aliases.DEFAULT_MODEL_ALIASES)
    if hit and aliases.params_of(hit[0]):
        return Parsed({"growth_params_b": num(aliases.params_of(hit[0]))}, lang=lang)
    found = sizes(t, loose=True)
    if found:
        return Parsed({"growth_params_b": num(max(s[0] for s in found))}, lang=lang)
    if current_params_b and lx.has(_DOUBLE, t):
        return Parsed({"growth_params_b": num(2 * current_params_b)}, lang=lang)
    nums = nb.scan(t, scales=False)
    if len(nums) == 1 and 0.1 <= nums[0].value <= 2000 and not lx.has(lx.DONT_KNOW, t):
        return Parsed({"growth_params_b": num(nums[0].value)}, lang=lang,
                      note=say("interview.note.billions", lang))
    no = lx.only(lx.NO, t) or denied(_GROWS, t) or (blank_denied(t) == t and lx.has(lx.NO, t))
    if (no or lx.has(_SAME, t)) and not lx.has(lx.DONT_KNOW, t):   # not "not in the US": another question's
        return Parsed({}, lang=lang, note=say("interview.note.growth.none", lang))
    if lx.has(lx.DONT_KNOW, t):
        return nothing(lang)
    return fail("growth", lang, "interview.reply.growth")


# --- agents that use tools (docs/agents.md): asked only when the description mentions tools ---
_TOOLS = lx.words("tools?", "tool[- ]?calls?", "tool[- ]?use", "function[- ]?call\\w*", "werkzeug\\w*",
                  "agentic", "multi[- ]?step", "mehrstufig\\w*", "coding[- ]?agent\\w*", "code[- ]?agent\\w*",
                  "api[- ]?calls?", "api[- ]?aufruf\\w*")
_CODING = lx.words("cod\\w*", "programm\\w*", "software\\w*", "devops", "operations?", "betrieb\\w*")
_ANALYTICAL = lx.words("analy\\w*", "auswert\\w*", "report\\w*", "bericht\\w*")
P90_PER_MEAN = 2.6  # TraceLab: steps per request p90 20 over mean 7.8 (uw-syfi/TraceLab@0b8a262)


def mentions_tools(t: str) -> bool:
    """Whether a (normalized) description calls for the agent questions: it uses tools."""
    return lx.has(_TOOLS, t)


def agent_kind(t: str) -> str:
    """The agent kind a description suggests: coding, analytical or conversational."""
    return "coding" if lx.has(_CODING, t) else "analytical" if lx.has(_ANALYTICAL, t) else "conversational"


@safe("agent_steps")
def parse_agent_steps(t: str, lang: str = "en") -> Parsed:
    """Model calls per task → `{agent: {steps_mean, steps_p90}}`; `about 8, up to 20`, `5-10`.

    Two numbers are the typical and the high count; one number gets TraceLab's p90 / mean ratio 2.6.
    """
    nums = [n for n in nb.scan(t, scales=False, words=True) if 1 <= n.value <= 1000]
    if not nums:
        if undecided(t):
            return nothing(lang)
        return fail("agent_steps", lang, "interview.reply.agent_steps")
    mean = nums[0].value
    if len(nums) > 1 and nums[1].value >= mean:
        return Parsed({"agent": {"steps_mean": num(mean), "steps_p90": num(nums[1].value)}}, lang=lang)
    return Parsed({"agent": {"steps_mean": num(mean), "steps_p90": num(round(mean * P90_PER_MEAN, 1))}},
                  lang=lang, note=say("interview.note.agent_steps.high", lang))


@safe("agent_tool_time")
def parse_tool_time(t: str, lang: str = "en") -> Parsed:
    """Time of one tool call → `{agent: {tool_time_s: x}}`; read like a latency (`2 s`, `500 ms`).
    The note states what is not asked: the session's KV waits on the GPU, its steps keep their replica."""
    got = parse_latency(t, lang)
    if not got.ok or "latency_target_s" not in got.fields:
        return got if not got.ok else nothing(lang)
    held = say("interview.note.agent_defaults", lang)  # not asked: a newcomer cannot tell (issue 31)
    return Parsed({"agent": {"tool_time_s": got.fields["latency_target_s"]}}, lang=lang,
                  note=f"{got.note}; {held}" if got.note else held)
