"""The clarification sentence of document 000 ("Methodik der Bedarfsklärung"), both ways.

`parse_sentence` reads the whole sentence — or a loose list like "llama 3.1 8b, 300 pro Minute,
monatliches Fine-Tuning, Gesundheitsdaten" — into the four parts at once (and a latency target
when one is named: "latency 0.3 s" typed as a change after the interview); the clauses no part
takes ("not in the US", "context 8k") come back in `unread`. The text is cut into
clauses; the model is taken out of each clause first (so its digits never count as volume), then each
clause goes to the parser of the part it talks about. `render_sentence` writes the sentence back
with the parts known so far and `[X]`-style blanks for the rest.
"""

from __future__ import annotations

import re

from . import aliases, lexicon as lx, numbers as nb
from .model import find_model
from .followups import parse_latency
from .parse import TIME_UNIT, parse_data, parse_fine_tuning, parse_volume, time_unit
from .render import render_sentence  # noqa: F401 - part of this module's interface
from .result import Parsed, safe, say

PARTS = {"model": ("model", "params_b"), "volume": ("requests_per_day", "requests_per_second"),
         "fine_tuning": ("fine_tuning",), "data": ("data",)}
"""The four parts of the sentence and the workload fields that fill each."""

_SPLIT = re.compile(r"(;|\n|, |,(?=[a-zäöü])| (?:and|und|with|mit|plus|sowie|&) |\. )")
_ABBREV = {"mrd", "mio", "mia", "tsd", "ca", "bzw", "evtl", "inkl", "max", "min", "std", "sek",
           "z", "b", "d", "h", "u", "usw", "vs", "approx", "e", "g", "i", "etc", "param", "params"}
_LATENCY = lx.words("latenc\\w*", "latenz\\w*", "antwortzeit\\w*", "reaktionszeit\\w*",
                    "response times?", "p95", "answers? within", "antworten? innert",
                    "antworten? innerhalb")
_DURATION = re.compile(r"\d ?(?:ms|msec|millisec\w*|millisek\w*|s|sec|secs|seconds?|sek|sekunden?)"
                       r"(?![a-zäöü/])")
"""A latency clause: `latency 0.3 s`, `Antwortzeit unter 1 s`, `answers within 500 ms` — a time
span, not a rate (`per second` is a rate: the volume)."""
_FOLLOW_UPS = lx.words("context\\w*", "kontext\\w*", "tokens?", "months?", "monate?n?", "years?",
                       "jahre?n?", "horizon\\w*", "horizont\\w*", "grow\\w*", "wachs\\w*",
                       "wächst")
"""Words of the follow-up questions (context, horizon, growth): a number next to them is not the
request volume (`context 8k`, `over 24 months`); `tui.commands.what_if` reads those."""
_GROWTH = lx.words("grow\\w*", "wachs\\w*", "wächst")
_DATAISH = (lx.DATA, lx.SENSITIVE, lx.NON_SENSITIVE, *(p for s, p in lx.SECTORS.items() if s != "other"))


def clauses(t: str) -> list[str]:
    """Cut a normalized text at commas, semicolons, `and/und/with/mit`, and sentence ends."""
    pieces = _SPLIT.split(t)
    out = [pieces[0]]
    for sep, piece in zip(pieces[1::2], pieces[2::2]):
        last = re.findall(r"[a-zäöü]+$", out[-1])
        if sep == ". " and last and last[0] in _ABBREV:
            out[-1] += sep + piece  # "13 Mrd. Parameter", "2 Mio. pro Monat"
        else:
            out.append(piece)
    return [c.strip(" .!?:") for c in out if c.strip(" .!?:")]


def _volume_span(rest: str) -> tuple[int, int]:
    """From the first number to the end of the time unit after it (`3000 requests a day`)."""
    first = nb.scan(rest)[0]
    unit = TIME_UNIT.search(rest, first.end)
    return first.start, unit.end() if unit else first.end


def _kind(rest: str, had_model: bool) -> set[str]:
    """Which parts a clause (model already removed) talks about."""
    kinds = set()
    if lx.has(lx.FINE_TUNING, rest):
        kinds.add("fine_tuning")
    if any(lx.has(p, lx.strong(rest)) for p in _DATAISH):   # "internal agent": asked, not guessed
        kinds.add("data")
    has_number = bool(nb.scan(rest))
    if has_number and not kinds and not lx.has(lx.REQUESTS, rest) and lx.has(_FOLLOW_UPS, rest) \
            and not time_unit(rest):
        return set()
    if has_number and not kinds and not time_unit(rest) and (
            lx.has(_LATENCY, rest) or _DURATION.search(rest)):
        return {"latency"}
    rate = lx.has(lx.REQUESTS, rest) or ("fine_tuning" not in kinds and time_unit(rest))
    if has_number and rate:
        kinds.add("volume")
    elif has_number and not kinds and not had_model and not lx.has(lx.MODEL, rest):
        kinds.add("volume")
    return kinds


def _yes_no_part(rest: str, last: str, lang: str) -> set[str]:
    """The part a clause of only "yes"/"nein" (+ a frequency or method) answers, after `last`.

    A bare "yes"/"nein" belongs to the part before it when that part takes one (fine-tuning, data);
    after the volume it is the sentence's next blank, fine-tuning [yes/no]. So is "ja
    monatlich" or "yes, weekly LoRA" — a yes/no followed by what `parse_fine_tuning` reads on its
    own (a schedule, a method); "not in the US" is no fine-tuning answer (nothing read after "not").
    """
    if re.fullmatch(r"[\s:]*", lx.YES.sub("", lx.NO.sub("", rest))):
        return {last} if last in ("fine_tuning", "data") else {"fine_tuning"}
    starts = re.match(r"\s*(?:%s|%s)" % (lx.YES.pattern, lx.NO.pattern), rest)
    if starts and not nb.scan(rest) and parse_fine_tuning(rest[starts.end():], lang).ok:
        return {"fine_tuning"}
    return set()


@safe("model")
def parse_sentence(t: str, lang: str = "en", models: dict[str, str] | None = None) -> Parsed:
    """The whole clarification sentence → fields of all parts found (`ok` if at least one)."""
    models = models or aliases.DEFAULT_MODEL_ALIASES
    fields: dict = {}
    groups: dict[str, list[str]] = {"volume": [], "fine_tuning": [], "data": [], "latency": []}
    notes, last, unread = [], None, []
    for clause in clauses(t):
        if lx.has(_GROWTH, clause) and not lx.has(lx.REQUESTS, clause) and not time_unit(clause):
            continue  # "growing to 70B" is the growth question's, asked later; "traffic grows to 100k/day" is not
        model, start, end = find_model(clause, lang, models, strict=True)
        had_model = start >= 0
        if "model" not in fields and "params_b" not in fields and had_model:
            fields.update(model.fields)
            notes += [n for n in (model.note, model.reason) if n]
        rest = clause[:start] + " " * (end - start) + clause[end:] if had_model else clause
        kinds = _kind(rest, had_model)
        if not kinds and last:
            kinds = _yes_no_part(rest, last, lang)
        if not kinds and not had_model:
            unread.append(clause)   # "not in the US", "servers in Switzerland": no part of the sentence
        for kind in kinds:
            if kind != "volume" and "volume" in kinds:
                a, b = _volume_span(rest)
                groups[kind].append(rest[:a] + " " * (b - a) + rest[b:])
            else:
                groups[kind].append(rest)
        last = next(iter(kinds)) if len(kinds) == 1 else last
    follow = None
    for kind, parser in (("volume", parse_volume), ("fine_tuning", parse_fine_tuning),
                         ("data", parse_data), ("latency", parse_latency)):
        if groups[kind]:
            text = ", ".join(groups[kind])
            got = parser(lx.strong(text) if kind == "data" else text, lang)
            if got.ok:
                fields.update(got.fields)
                notes += [got.note] if got.note else []
                follow = follow or got.follow_up
    if not fields:
        return Parsed({}, False, say("interview.reply.sentence", lang), render_sentence({}, lang),
                      lang=lang)
    return Parsed(fields, lang=lang, note="; ".join(notes) or None, follow_up=follow, unread=tuple(unread))


def found_parts(fields: dict) -> list[str]:
    """The parts of the sentence (`model`, `volume`, …) that `fields` fill."""
    return [part for part, names in PARTS.items() if any(n in fields for n in names)]
