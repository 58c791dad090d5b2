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
            lang, "13B — document 000 U1: conversational (RAG) chat agents use 7–13B models; "
                  "sized for the upper end. Take it? (yes, or type another size or model)",
                  "13B — Dokument 000 U1: Chat-Agenten mit RAG nutzen Modelle von 7–13B; "
                  "ausgelegt auf das obere Ende. Übernehmen? (ja, oder eine andere Grösse bzw. "
                  "ein Modell eingeben)"))
    if qid == "latency" and (lx.has(_FAST, text) or vague):
        return Proposal("latency", {"latency_target_s": 2}, say(
            lang, "2 s — document 000 U1: a chat agent's target latency is under 2 s. "
                  "Take it? (yes, or type a time such as 0.5 s)",
                  "2 s — Dokument 000 U1: Ziel-Latenz eines Chat-Agenten unter 2 s. "
                  "Übernehmen? (ja, oder eine Zeit wie 0,5 s eingeben)"))
    if qid == "sector" and re.search(r"[a-zäöü]{3,}", text):
        return Proposal("sector", {"sector": "other"}, say(
            lang, "“other” — not one of the regulated sectors of document 000 (health, finance, "
                  "public administration). Right? (yes, or name the sector)",
                  "«andere» — keine der regulierten Branchen aus Dokument 000 (Gesundheit, "
                  "Finanzen, öffentliche Verwaltung). Stimmt das? (ja, oder die Branche nennen)"))
    return None


def accepts(text: str) -> bool:
    """Whether `text` (normalized) takes the proposal: `yes`, `ok`, `passt` …"""
    return lx.only(ACCEPT, text)
