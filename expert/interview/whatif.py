"""A change typed in plain words after the interview ("actually under half a second", "buy
instead", "nicht in der Cloud", "10 000 Anfragen pro Tag"): which field it changes, and to what.

`what_if(text, lang)` finds the topic of the text by a cue word (the table below, checked in order)
and reads it with that question's own parser, so a what-if understands what the answer did
(negations, number words, cities). It returns the workload fields, {} when no topic fits; of the fine-tuning only the keys named
("actually QLoRA" → `{fine_tuning: {method: qlora}}`, "2 epochs" → `{fine_tuning: {epochs: 2}}`,
"20M tokens, 2 epochs" → `{fine_tuning: {dataset_tokens: 20000000, epochs: 2}}`),
which `Interview.set` merges key by key (QA 46 #2, #3).
"""

from __future__ import annotations

import re
from dataclasses import replace

from . import lexicon as lx, numbers as nb, parse as p
from expert.messages import t as msg

from .dataset import nest, parse_dataset
from .negation import guarded
from .polarity import correction
from .precision import parse_precision
from .redirect import _PLACE
from .result import Parsed
from .sentence import clauses

PARSERS = {"model": p.parse_model, "volume": p.parse_volume, "fine_tuning": p.parse_fine_tuning,
           "data": p.parse_data, "latency": p.parse_latency, "context": p.parse_context,
           "sector": p.parse_sector, "hosting": p.parse_hosting_place, "budget": p.parse_budget,
           "horizon": p.parse_horizon, "growth": p.parse_growth, "deployment": p.parse_deployment,
           "site_country": p.parse_site_country, "precision": parse_precision, "dataset": parse_dataset}
"""The parser of each question a what-if can change."""

CUES = (
    ("dataset", r"\bepoch\w*"),
    ("latency", r"latenz|latency|antwortzeit|response time|\d\s*(ms|s|sec\w*|sekunden?)\b|"
                r"\b(seconds?|sekunden?|millisec\w*|millisek\w*)\b"),
    ("context", r"context|kontext|tokens?\b"),
    ("hosting", r"hosting|schweiz|switzerland|swiss|\beu\b|europ|\busa\b|"
                r"\b(in|im|outside|ausserhalb) (the |den )?us\b"),
    ("budget", r"\b(rent\w*|buy\w*|bought|miete\w*|gemietet|kauf\w*|gekauft|capex|opex)\b"),
    ("horizon", r"horizon|horizont|\d+\s*(months|monate|years|jahre)\b"),
    ("data", r"sector|branche|health|gesundheit|finance|finanz|public|verwaltung"),
    ("growth", r"grow\w*|wachs\w*|wächst|grösser|bigger|larger"),
    ("deployment", r"on[- ]?prem\w*|cloud|rechenzentrum|data ?cent(er|re)|eigene\w* server"),
    ("volume", lx.REQUESTS.pattern + r"|\b(per|pro|a|am) (day|tag|minute|min|hour|stunde)\b"),
    ("fine_tuning", lx.FINE_TUNING.pattern),
    # a dataset size ("20M tokens", "Datensatz 5 GB"): after the context, which takes a length it can
    # hold ("32k tokens"), and the volume, which takes requests of some tokens (QA 46 #3 remainder)
    ("dataset", r"\btokens?\b|\bdata ?sets?\b|datensatz|datensätze|trainingsdaten|training data"),
    ("data", "|".join(x.pattern for x in (lx.SENSITIVE, lx.NON_SENSITIVE, lx.DATA))),
    ("precision", r"\b(\d+[- ]?bit|fp\d+|bf16|int\d|quanti\w*|präzision|precision)\b"),
    ("model", r"\d\s?b\b|\b(llama|mistral|mixtral|qwen|gemma|phi|deepseek|falcon|gpt\w*|model\w*)"),
    ("site_country", r"\b(site|standort|based in|located in|we'?re in|wir sind in|sitz)\b"),
    ("site_country", _PLACE.pattern),
)
"""The cue of each topic, checked in this order (a time before a length, a length before a number
of requests); the first whose parser understands the text wins."""
_CUES = tuple((qid, re.compile(pattern)) for qid, pattern in CUES)


def _read(low: str, lang: str) -> Parsed:
    """One change: the first topic whose cue is in `low` and whose parser understands it; a value
    named only to be denied ("not 70B") is refused (`negation.guarded`); not understood otherwise."""
    refused = None
    for qid, cue in _CUES:
        if cue.search(low):
            got = guarded(qid, PARSERS[qid], low, lang)
            if got.ok and got.fields:
                return replace(got, fields=nest(got.fields))   # "2 epochs": in the fine-tuning mapping
            refused = refused or (got if got.negated else None)
    return refused or Parsed({}, False, lang=lang)


def read_parts(parts: list[str], lang: str = "en") -> tuple[dict, list[tuple[str, Parsed]]]:
    """Each part read as one change (`_read`): the fields of the parts understood, and each part
    not understood with why (`negated` for a refused "not X"). Parts that name keys of one mapping
    ("20M tokens", "2 epochs": both of `fine_tuning`) add up, key by key."""
    fields: dict = {}
    missed: list[tuple[str, Parsed]] = []
    for part in parts:
        got = _read(part, lang)
        if got.ok:
            for key, value in got.fields.items():
                both = isinstance(value, dict) and isinstance(fields.get(key), dict)
                fields[key] = {**fields[key], **value} if both else value
        else:
            missed.append((part, got))
    return fields, missed


def read_what_if(text: str, lang: str = "en") -> Parsed:
    """A free-text change read part by part ("eigentlich Qwen3 32B, Server in der Schweiz"): each
    clause is one change; what was understood is in `fields`, and `note` names each part that was
    not understood (or refused). Not ok when no part was understood (`reason` says why for a
    refused one). A leading "actually", "eigentlich", "no," is dropped."""
    low = nb.normalize(text)
    low = correction(low) or low
    parts = clauses(low)
    parts = parts if len(parts) > 1 else [low]
    fields, missed = read_parts(parts, lang)
    if not fields:       # no part alone: the whole line (one change over several clauses), else why not
        whole = _read(low, lang) if len(parts) > 1 else Parsed({}, False, lang=lang)
        refused = next((got for _, got in missed if got.negated), None)
        return whole if whole.ok else refused or whole
    parts_missed = ", ".join(f"«{m}»" for m, _ in missed)
    note = msg("interview.what_if.not_understood", lang, parts=parts_missed) if missed else None
    return Parsed(fields, lang=lang, note=note)


def what_if(text: str, lang: str = "en") -> dict:
    """The workload fields of a free-text change ("latency 0.3 s", "buy instead"); {} if none."""
    return dict(read_what_if(text, lang).fields)
