"""Answers that belong to another question: "switzerland" at the sector question, "under 3
seconds" at the context question.

`other_question` looks for a clear cue of another question (a country, a time, a number of
tokens, a model size, rent or buy …) and reads the text with that question's parser. The flow
then takes the answer for that field and asks the current question again.
"""

from __future__ import annotations

import re

from . import lexicon as lx
from .result import Parsed

_CUES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("latency", re.compile(r"\d ?(ms|msec|s|secs?|seconds?|sek|sekunden?)(?![a-z])|latenc\w*|latenz\w*|"
                           r"antwortzeit\w*|response time")),
    ("context", re.compile(r"(?<![a-z])(tokens?|pages?|seiten|kontext\w*|context)(?![a-z])")),
    ("hosting", re.compile(r"(?<![a-z])(ch|switzerland|swiss|schweiz\w*|eu|europe\w*|europa|"
                           r"usa|worldwide|weltweit)(?![a-z])")),
    ("model", re.compile(r"\d ?b(?![a-z])|(?<![a-z])(llama|mistral|mixtral|qwen|gemma|phi|"
                         r"deepseek|falcon)")),
    ("volume", re.compile(r"(?<![a-z])(requests?|anfragen|queries|calls|aufrufe)(?![a-z])|"
                          r"(?<![a-z])(per|pro|am|a) (day|tag|minute|min|hour|stunde)(?![a-z])")),
    ("budget", re.compile(r"(?<![a-z])(rent\w*|miete\w*|buy\w*|kauf\w*|capex|opex)(?![a-z])")),
    ("fine_tuning", lx.FINE_TUNING),
    ("sector", re.compile("|".join(p.pattern for s, p in lx.SECTORS.items() if s != "other"))),
    ("data", lx.SENSITIVE),
)
"""Cue of each question, checked in this order (a time before a length, a length before a
number of requests)."""


def other_question(qid: str | None, text: str, lang: str, parse) -> tuple[str, Parsed] | None:
    """(question id, parsed answer) of the other question the normalized `text` answers, or None.

    `parse(qid, text, lang)` runs a question's parser; the question being asked is never chosen.
    """
    for other, cue in _CUES:
        if other == qid or not cue.search(text):
            continue
        got = parse(other, text, lang)
        if got.ok and got.fields:
            return other, got
    return None
