"""Bilingual number reading for the interview parsers (English and German, Swiss spellings).

Handles thousands separators (`50 000`, `50'000`, `50.000`, `1,200`), decimal points and commas
(`1.5`, `2,5`), multiplier words (`50k`, `2 Mio.`, `1.2 million`, `13 Mrd.`), small number words
(`drei`, `two`) and ranges (`100-500`, `100 bis 500`, `between 100 and 500`).

Everything here is a plain scanner over the text: no backtracking-prone regexes, linear time.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

MAX_CHARS = 2000
"""Inputs are cut to this many characters before any parsing: bounded time on any input."""

_APOSTROPHES = "'’ʼ´`"
_SPACES = "\u00a0\u2007\u2009\u202f\u2002\u2003\u3000\t"

MULTIPLIERS: dict[str, float] = {
    "k": 1e3, "tsd": 1e3, "tausend": 1e3, "thousand": 1e3, "thousands": 1e3,
    "m": 1e6, "mio": 1e6, "mil": 1e6, "mn": 1e6, "million": 1e6, "millions": 1e6, "millionen": 1e6,
    "mrd": 1e9, "mia": 1e9, "milliarde": 1e9, "milliarden": 1e9, "bn": 1e9, "billion": 1e9,
    "billions": 1e9, "hundred": 1e2, "hundert": 1e2,
}
"""Scale words after a number (English `billion` is 10^9; German `Milliarde` too)."""

WORDS: dict[str, float] = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "twelve": 12, "eighteen": 18, "twenty": 20, "thirty": 30, "fifty": 50,
    "hundred": 100, "half": 0.5,
    "eins": 1, "zwei": 2, "drei": 3, "vier": 4, "fünf": 5, "sechs": 6, "sieben": 7, "acht": 8,
    "neun": 9, "zehn": 10, "zwölf": 12, "achtzehn": 18, "zwanzig": 20, "dreissig": 30,
    "fünfzig": 50, "hundert": 100, "halbe": 0.5, "halbes": 0.5, "halben": 0.5,
    "einem": 1, "einer": 1,
}
"""Small number words accepted where `words=True` (horizons, intervals, latencies)."""

_WORD_RE = re.compile(r"[a-zäöüß]+")

_DE_PARTS: dict[str, int] = {
    "ein": 1, "eins": 1, "eine": 1, "zwei": 2, "drei": 3, "vier": 4, "fünf": 5, "sechs": 6,
    "sieben": 7, "sech": 6, "sieb": 7, "acht": 8, "neun": 9, "zehn": 10, "elf": 11, "zwölf": 12,
    "zwanzig": 20, "dreissig": 30, "vierzig": 40, "fünfzig": 50, "sechzig": 60, "siebzig": 70,
    "achtzig": 80, "neunzig": 90, "hundert": 100, "tausend": 1000, "und": 0,
}
_DE_PART_RE = re.compile("|".join(sorted(_DE_PARTS, key=len, reverse=True)))
_ARTICLE_SCALES = ("a", "an", "one", "eine", "einer", "ein")
"""`a million`, `eine Million`: a scale word after an article counts once."""


def german_compound(word: str) -> float | None:
    """`zwanzigtausend` → 20 000, `zweihundertfünfzig` → 250, `einundzwanzig` → 21; None when
    the word is not a German number written as one word."""
    pos, parts = 0, []
    while pos < len(word):
        m = _DE_PART_RE.match(word, pos)
        if not m:
            return None
        parts.append(m.group())
        pos = m.end()
    if len(parts) < 2 or parts[-1] == "und":
        return None
    total, current = 0, 0
    for part in parts:
        value = _DE_PARTS[part]
        if part == "hundert":
            current = max(current, 1) * 100
        elif part == "tausend":
            total, current = total + max(current, 1) * 1000, 0
        else:
            current += value
    return float(total + current)
_RANGE_WORDS = ("-", "–", "—", "bis", "to", "and", "und", "or", "oder")


@dataclass(frozen=True)
class Number:
    """One number found in a text: its value (multiplier applied), position and raw multiplier."""

    value: float
    start: int
    end: int
    scale: str = ""


def normalize(text: object) -> str:
    """Lower-case, NFC, cut to MAX_CHARS, control characters and odd spaces turned into spaces."""
    if not isinstance(text, str):
        text = "" if text is None else str(text)
    text = unicodedata.normalize("NFC", text[:MAX_CHARS]).lower()
    out = []
    for ch in text:
        if ch in _SPACES or (unicodedata.category(ch)[0] == "C" and ch != "\n"):
            out.append(" ")
        elif ch in _APOSTROPHES:
            out.append("'")
        else:
            out.append(ch)
    return "".join(out).replace("ß", "ss")


def _digits(text: str, i: int) -> int:
    """Index just past the run of ASCII digits starting at i."""
    while i < len(text) and "0" <= text[i] <= "9":
        i += 1
    return i


def _read(text: str, i: int) -> tuple[float, int]:
    """Read one number with separators starting at digit index i; return (value, end).

    `'` and ` ` group thousands (3 digits); `.` and `,` group thousands when 3 digits follow
    (and the integer part is not 0), otherwise they are the decimal mark.
    """
    j = _digits(text, i)
    intpart, frac, thousands = text[i:j], "", None
    while j < len(text) - 1 and text[j] in ".,' " and "0" <= text[j + 1] <= "9":
        sep, k = text[j], _digits(text, j + 1)
        group = text[j + 1:k]
        grouped = len(group) == 3 and thousands in (None, sep) and intpart != "0"
        if sep == " " and k < len(text) and text[k].isalpha():
            grouped = False              # "llama 3 405b": the 405 belongs to the next word
        if grouped:
            thousands, intpart = sep, intpart + group
        elif sep in ".," and thousands != sep:
            frac, j = group, k
            break
        else:
            break
        j = k
    value = float(intpart + ("." + frac if frac else ""))
    if j + 1 < len(text) and text[j] == "e" and text[j + 1].isdigit():   # 1e6
        k = _digits(text, j + 1)
        if k >= len(text) or not text[k].isalpha():
            return value * 10.0 ** min(int(text[j + 1:j + 3]), 15), k
    return value, j


def _scale_at(text: str, j: int) -> tuple[str, int]:
    """A multiplier word right after index j (optional space, optional trailing dot)."""
    k = j + 1 if j < len(text) and text[j] == " " else j
    m = _WORD_RE.match(text, k)
    if not m or m.group() not in MULTIPLIERS:
        return "", j
    end = m.end()
    return m.group(), end + 1 if end < len(text) and text[end] == "." else end


def scan(text: str, *, scales: bool = True, words: bool = False) -> list[Number]:
    """All numbers in a normalized text, left to right."""
    found: list[Number] = []
    i = 0
    while i < len(text):
        ch = text[i]
        if "0" <= ch <= "9" and (i == 0 or not text[i - 1].isalpha() or text[i - 1] == "x"):
            value, j = _read(text, i)
            scale, end = _scale_at(text, j) if scales else ("", j)
            found.append(Number(value * MULTIPLIERS.get(scale, 1.0), i, end, scale))
            i = max(end, i + 1)
        elif "0" <= ch <= "9":
            i = _digits(text, i)
        elif words and ch.isalpha() and (i == 0 or not text[i - 1].isalnum()):
            m = _WORD_RE.match(text, i)
            word = m.group() if m else ""
            value = WORDS.get(word) if word else None
            nxt = _WORD_RE.match(text, m.end() + 1) if m and value == 1 else None
            if nxt and WORDS.get(nxt.group()) == 0.5:   # "einer halben Sekunde": the article is no 1
                i = nxt.start()
                continue
            if value is None and word:
                value = german_compound(word)
            if value is not None:
                after = m.end()
                # "half a million": the article between the number word and the scale
                art = _WORD_RE.match(text, after + 1) if after < len(text) and text[after] == " " else None
                if scales and art and art.group() in ("a", "an", "eine", "einer"):
                    scale, end = _scale_at(text, art.end())
                    if scale:
                        after = art.end()
                scale, end = _scale_at(text, after) if scales else ("", after)
                if not scale:
                    end = m.end()
                found.append(Number(value * MULTIPLIERS.get(scale, 1.0), i, end, scale))
                i = end
                continue
            if scales and word in _ARTICLE_SCALES:
                scale, end = _scale_at(text, m.end())
                if scale and len(scale) > 2:
                    found.append(Number(MULTIPLIERS[scale], i, end, scale))
                    i = end
                    continue
            i = m.end() if m else i + 1
        else:
            i += 1
    return found


def first_range(text: str, nums: list[Number]) -> tuple[Number, Number] | None:
    """The first pair of numbers joined by a range word (`100-500`, `zwischen 1 und 2`)."""
    for a, b in zip(nums, nums[1:]):
        between = text[a.end:b.start].strip()
        if between in _RANGE_WORDS and b.value >= a.value:
            return a, b
    return None


def fmt(value: float, lang: str = "en") -> str:
    """A number for people: `20,000` in English, `20 000` in German; decimals kept short."""
    if abs(value - round(value)) < 1e-9:
        text = f"{int(round(value)):,}"
        return text.replace(",", " ") if lang == "de" else text
    text = f"{value:.3g}" if value < 100 else f"{value:,.1f}"
    return text.replace(".", ",") if lang == "de" else text
