"""Answers that belong to another question: "we're in Zurich" at the latency question, "under 3
seconds" at the context question.

`other_question` looks for a clear cue of another question (a country, a time, a number of
tokens, a model size, rent or buy …) and reads the text with that question's parser. The flow
then takes the answer for that field and asks the current question again. A place alone
("Switzerland" at the sector question, "we're in Zurich") says where the organisation is (its own
site), not where its data must stay: that takes a hosting word ("only", "servers", "data", "nur" …).
"""

from __future__ import annotations

import re

from . import lexicon as lx
from .result import Parsed
from .setup_place import _PLACES

_LANGUAGE_WORDS = ("german", "deutsch*", "french", "franzoesisch*", "italian", "italienisch*",
                   "dutch", "english", "spanish", "spanisch*", "polish", "polnisch*", "de", "us", "nl",
                   "uk", "ch")
"""Place words that are also language names or common words: no cue of a place alone."""
_PLACE = re.compile(r"(?<![a-z])(?:" + "|".join(
    re.escape(n.rstrip("*")) + (r"\w*" if n.endswith("*") else "") for n in sorted(_PLACES, key=len, reverse=True)
    if n not in _LANGUAGE_WORDS) + r"|zürich|österreich\w*|genève|münchen|nürnberg)(?![a-z])")
_HOSTING_WORDS = lx.words("only", "nur", "ausschliesslich\\w*", "exclusively", "host\\w*", "gehostet",
                          "server\\w*", "data", "daten", "stay\\w*", "bleiben", "must", "müssen",
                          "residency", "within", "innerhalb", "region")

_CUES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("latency", re.compile(r"\d ?(ms|msec|s|secs?|seconds?|sek|sekunden?)(?![a-z])|latenc\w*|latenz\w*|"
                           r"antwortzeit\w*|response time")),
    ("context", re.compile(r"(?<![a-z])(tokens?|pages?|seiten|kontext\w*|context)(?![a-z])")),
    ("site_country", _PLACE),
    ("hosting", re.compile(r"(?<![a-z])(ch|switzerland|swiss|schweiz\w*|eu|europe\w*|europa|"
                           r"usa|worldwide|weltweit)(?![a-z])")),
    ("model", re.compile(r"\d ?b(?![a-z])|(?<![a-z])(llama|mistral|mixtral|qwen|gemma|phi|"
                         r"deepseek|falcon)")),
    ("volume", re.compile(r"(?<![a-z])(requests?|anfragen|queries|calls|aufrufe)(?![a-z])|"
                          r"(?<![a-z])(per|pro|am|a) (day|tag|minute|min|hour|stunde)(?![a-z])")),
    ("budget", re.compile(r"(?<![a-z])(rent\w*|miete\w*|buy\w*|kauf\w*|capex|opex|cloud\w*|on-?prem\w*|"
                          r"\w*rechenzentrum|serverraum|data ?cent(er|re)s?)(?![a-z])")),
    ("fine_tuning", lx.FINE_TUNING),
    ("sector", re.compile("|".join(p.pattern for s, p in lx.SECTORS.items() if s != "other"))),
    ("data", lx.SENSITIVE),
    ("precision", re.compile(r"(?<![a-z])(fp ?(8|16|32)|bf ?16|int ?[48]|awq|gptq)(?![a-z0-9])|\d ?-?bits?(?![a-z])")),
)
"""Cue of each question, checked in this order (a time before a length, a length before a
number of requests)."""


def other_question(qid: str | None, text: str, lang: str, parse) -> tuple[str, Parsed] | None:
    """(question id, parsed answer) of the other question the normalized `text` answers, or None.

    `parse(qid, text, lang)` runs a question's parser; the question being asked is never chosen.
    """
    for other, cue in _CUES:
        if other == qid or not cue.search(lx.strong(text) if other == "data" else text):
            continue
        if other == "site_country" and lx.has(_HOSTING_WORDS, text):
            continue                     # "servers in Switzerland only": the hosting question's
        got = parse(other, text, lang)
        if got.ok and got.fields:
            return other, got
    return None
