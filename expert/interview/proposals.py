"""Vague answers ("not sure", "whatever you recommend", "fast please", "a software company"):
the documents' default, with one line of why, offered to accept or change.

`propose(qid, text, lang)` returns a `Proposal` or None. The flow shows it and waits: `yes`
takes it, anything else is read as a new answer.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from . import lexicon as lx
from .result import say

_LEAVE_IT = lx.words("recommend\\w*", "suggest\\w*", "whatever", "you (choose|decide|pick)",
                     "up to you", "your (choice|call|pick)", "empfehl\\w*", "vorschlag\\w*",
                     "vorschlagen", "egal", "beliebig", "any", "irgendein\\w*", "keine ahnung",
                     "standard", "typical\\w*", "typisch\\w*", "common", "üblich\\w*")
_FAST = lx.words("fast\\w*", "quick\\w*", "snappy", "responsive", "schnell\\w*", "zügig\\w*",
                 "rasch\\w*", "flott\\w*", "chat\\w*", "interactive", "interaktiv\\w*", "normal")
ACCEPT = lx.words("yes", "ja", "ok", "okay", "fine", "good", "accept\\w*", "take it", "sure",
                  "gut", "passt", "einverstanden", "nehmen", "übernehmen", "genau", "klar", "y", "j")


@dataclass(frozen=True)
class Proposal:
    """The fields to take on `yes`, and the line that says what and why."""

    qid: str
    fields: dict
    text: str


def propose(qid: str, text: str, lang: str) -> Proposal | None:
    """The documents' default for a vague answer to question `qid`, or None."""
    vague = lx.skips(text) or lx.has(lx.DONT_KNOW, text) or lx.has(_LEAVE_IT, text)
    if qid == "model" and (vague or lx.has(lx.SKIP, text)):
        return Proposal("model", {"params_b": 13}, say(
            "interview.propose.model", lang))
    if qid == "latency" and (lx.has(_FAST, text) or vague):
        return Proposal("latency", {"latency_target_s": 2}, say(
            "interview.propose.latency", lang))
    if qid == "sector" and re.search(r"[a-zäöü]{3,}", text):
        return Proposal("sector", {"sector": "other"}, say(
            "interview.propose.sector", lang))
    return None


def accepts(text: str) -> bool:
    """Whether `text` (normalized) takes the proposal: `yes`, `ok`, `passt` …"""
    return lx.only(ACCEPT, text)
