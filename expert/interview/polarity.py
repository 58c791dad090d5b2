"""Which way round a word is meant: negation, correction and confirmation, English and German.

One small rule-based negation scope over the lexicon below (data, not one regex per phrase):

- A clause ends at `, ; ! ? :`, a sentence end, or a contrast word (`but`, `aber`, `sondern`,
  `only`, `nur`, `just`, `lieber`, `instead`, `so`, `also` …).
- A negator (`not`, `don't`, `never`, `nothing`, `without`, `nicht`, `kein…`, `nie`, `ohne`,
  `statt` …) denies the words after it up to the clause end ("not in the cloud", "we don't want
  to buy hardware", "nothing sensitive").
- A negator of the German word order (`kein…`, `nicht`, `nichts`, `nie`) or an English one at the
  clause end also denies the option word before it, unless another option word follows it: "wir
  kaufen keine Server" denies *kaufen*; "mieten nicht kaufen" denies only *kaufen*.
- Fixed phrases that contain a negator but deny nothing ("no idea", "kein Problem", "not sure")
  are masked first.

`polar(options, t)` gives each option (a name → pattern) +1 (said), -1 (only denied) or 0 (not
named). Compared with a well-kept library, negspaCy (NegEx for spaCy, pypi.org/project/negspacy,
read 2026-12-04): its termsets are English only (`en`, `en_clinical`, `en_clinical_sensitive`) and
it negates the named entities of a spaCy pipeline, which needs a language model (`en_core_web_sm`)
installed; our option words are a closed set per question and half the answers are German. We
keep NegEx's four kinds of pattern as the lexicon below (pseudo negations → `NOT_NEGATION`,
preceding → `NEGATORS`, following → `BACKWARD`, termination → `CLAUSE_BREAKS`), with no dependency.
"""

from __future__ import annotations

import re

from . import lexicon as lx

NEGATORS = ("not", "no", "don'?t", "do not", "doesn'?t", "does not", "didn'?t", "won'?t", "will not",
            "wouldn'?t", "can'?t", "cannot", "isn'?t", "aren'?t", "never", "nothing", "none", "without",
            "neither", "nor", "instead of", "rather than", "no longer", "anything but", "except",
            "alles ausser", "ausser", "bloss nicht", "auf keinen fall",
            "nicht", "nichts", "kein\\w*", "nie", "niemals", "ohne", "weder", "statt", "anstatt",
            "anstelle", "anstelle von", "nicht mehr")
"""Words that deny what follows them in their clause."""
BACKWARD = ("nicht", "nichts", "kein\\w*", "nie", "niemals", "not", "no", "never", "none")
"""Negators that also deny the option word before them (German word order: "wir kaufen keine
Server"; "fine-tuning brauchen wir nicht"; English "buy? no")."""
NOT_NEGATION = ("no idea", "no preference", "no matter", "no problem", "no doubt", "not sure",
                "no requirements?", "not yet", "no later than", "no more than", "not more than",
                "not longer than", "nicht länger als", "nicht mehr als", "keine ahnung", "kein problem",
                "keine präferenz", "keine rolle", "keine vorgaben?", "keine anforderung\\w*",
                "nicht sicher", "not only", "nicht nur", "no sector", "keine branche")
"""Phrases with a negator that deny no option: masked before the scope is read."""
CLAUSE_BREAKS = ("(?<!anything )but", "aber", "sondern", "only", "nur", "just", "lieber", "rather(?! than)", "instead(?! of)",
                 "stattdessen", "so", "also", "therefore", "deshalb", "daher", "darum", "because",
                 "weil", "da", "denn", "and", "und", "while", "whereas", "während", "jedoch",
                 "however")
"""Words that start a new clause (the negator before them no longer applies)."""
CORRECTION = ("no", "nein", "nope", "nö", "doch")
"""Words that may open a correction of the answer just given ("nein, mieten! nicht kaufen"), or
answer the question asked ("no" to "fine-tuning?"): the question asked reads it first."""
DETERMINER = ("no",)
"""Correction words that, followed by a word with no mark between, deny that word instead ("no
fine-tuning", "no cloud after all", "no more fine-tuning"): not a correction then, unless a word of
`CORRECTION_STRONG` follows ("no I meant 70B"). QA 47 #2."""
NOT_DETERMINED = ("thanks?", "thank you", "way", "please")
"""Words after a `DETERMINER` that leave it a plain no ("no thanks", "no way")."""
CORRECTION_STRONG = ("actually", "eigentlich", "sorry", "correction", "korrektur", "i meant",
                     "ich meinte", "i mean", "wait", "moment", "stop", "oops", "hoppla", "falsch",
                     "wrong", "not quite", "nicht ganz", "no wait", "nein warte")
"""Words that always refer to the answer before ("sorry, I meant 70B" typed at the next question)."""
CONFIRM = ("ok", "okay", "okey", "k", "yes", "yeah", "yep", "ja", "jep", "jo", "sure", "fine",
           "good", "great", "gut", "sehr gut", "passt", "passt so", "genau", "klar", "einverstanden",
           "in ordnung", "alles klar", "agreed", "accept\\w*", "take it", "take that", "go with (that|it|this)",
           "go ahead", "go for it", "sounds good", "sounds right", "that'?s fine", "that works",
           "do that", "do it", "klingt gut", "tönt gut", "sounds great", "perfect", "perfekt", "richtig", "correct", "right", "stimmt",
           "nehmen", "nehmen wir", "nimm das", "übernehmen", "machen wir so", "mach das", "so machen",
           "das passt", "das ist gut", "please", "bitte", "thanks", "danke", "let'?s do that",
           "let'?s go with (that|it|this)", "y", "j")
"""A plain yes to a suggestion, alone or strung together ("ok, go with that", "ja, gut")."""

_NEG = lx.words(*NEGATORS)
_BACK = lx.words(*BACKWARD)
_MASK = lx.words(*NOT_NEGATION)
_BREAK = re.compile(r"[,;!?:()]|\.(?:\s|$)|" + lx.words(*CLAUSE_BREAKS).pattern)
_CORRECTION = re.compile(r"\s*(?:" + lx.words(*CORRECTION_STRONG, *CORRECTION).pattern + r")[\s,.!:;-]+")
_STRONG = re.compile(r"\s*(?:" + lx.words(*CORRECTION_STRONG).pattern + r")")
_DETERMINER = re.compile(r"\s*(?:" + lx.words(*DETERMINER).pattern + r")\s+(?!" + lx.words(*NOT_DETERMINED).pattern
                         + r")(?=\w)")
CONFIRM_WORDS = lx.words(*CONFIRM)


def _clauses(t: str) -> list[tuple[int, int]]:
    """(start, end) of each clause of the normalized text."""
    cuts = [0] + [p for m in _BREAK.finditer(t) for p in (m.start(), m.end())] + [len(t)]
    return [(cuts[i], cuts[i + 1]) for i in range(0, len(cuts), 2)]


def polar(options: dict[str, re.Pattern[str]], t: str) -> dict[str, int]:
    """Each option: +1 when said (once outside a negation is enough), -1 when only denied, 0 when
    not named. `t` is normalized text (`numbers.normalize`)."""
    masked = _MASK.sub(lambda m: "_" * len(m.group()), t)
    hits = sorted((m.start(), m.end(), name) for name, p in options.items() for m in p.finditer(masked))
    said = {name: 0 for name in options}
    for lo, hi in _clauses(masked):
        negs = [m for m in _NEG.finditer(masked, lo, hi)]
        inside = [h for h in hits if lo <= h[0] < hi]
        for start, end, name in inside:
            denied = any(n.end() <= start for n in negs) or any(
                n.start() >= end and _BACK.fullmatch(n.group())
                and not any(h[0] >= n.end() for h in inside) for n in negs)
            said[name] = (said[name] or -1) if denied else 1
    return said


def blank_denied(t: str) -> str:
    """`t` with the words a negator denies blanked (same length): from the first negator of each
    clause to the clause end, the negator itself kept ("not 70b" → "not    "; "no" stays "no").
    A value a parser finds in `t` but not here was read from inside a negation."""
    masked = _MASK.sub(lambda m: "_" * len(m.group()), t)
    out = list(t)
    for lo, hi in _clauses(masked):
        neg = _NEG.search(masked, lo, hi)
        if neg is not None:
            out[neg.end():hi] = " " * (hi - neg.end())
    return "".join(out)


def denied(pattern: re.Pattern[str], t: str) -> bool:
    """Whether the pattern occurs in `t` only inside a negation ("nothing sensitive")."""
    return polar({"x": pattern}, t)["x"] == -1


def affirmed(pattern: re.Pattern[str], t: str) -> bool:
    """Whether the pattern occurs in `t` at least once outside a negation."""
    return polar({"x": pattern}, t)["x"] == 1


def correction(t: str) -> str | None:
    """The rest of a correction ("nein, mieten! nicht kaufen" → "mieten! nicht kaufen"), or None
    when `t` does not open with a correction word followed by more, or opens with a `DETERMINER`
    that denies the word after it ("no fine-tuning" stays whole, read as a negation)."""
    masked = _MASK.sub(lambda m: "_" * len(m.group()), t)
    m = _CORRECTION.match(masked)
    rest = t[m.end():].strip() if m else ""
    det = _DETERMINER.match(masked)       # "no wait, …", "no I meant …" stay corrections
    if det and not (refers_back(t) or refers_back(t[det.end():])):
        return None                          # "no fine-tuning": a negation, not "no," + "fine-tuning"
    return rest if rest and not lx.only(lx.BARE_NO, rest) else None


def answers_no(t: str) -> int:
    """Position of the first word of `lexicon.NO` that answers no ("no", "nein, danke", "none"), -1
    when none does: a `DETERMINER` followed by a word denies that word instead, so "no fine-tuning"
    typed at the data question says nothing of the data (QA 47 #2)."""
    return next((m.start() for m in lx.NO.finditer(t) if not _DETERMINER.match(t, m.start())), -1)


def refers_back(t: str) -> bool:
    """Whether `t` opens with a word that always means the answer before ("sorry, I meant …")."""
    return _STRONG.match(t) is not None


def confirms(t: str) -> bool:
    """Whether `t` is nothing but a plain yes ("ok", "ok, go with that", "passt", "ja genau")."""
    return lx.only(CONFIRM_WORDS, t)
