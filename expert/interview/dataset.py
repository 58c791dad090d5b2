"""The fine-tuning dataset size: the chat's follow-up after the fine-tuning questions (issue 12).

`parse_dataset("50M tokens")` → `{dataset_tokens: 50 000 000}`; also `50 million tokens`,
`50 Mio. Tokens`, `20 000 documents of 2 000 tokens`, `200k pages` (≈ 700 tokens a page, the
context question's rule), `5 GB of text` (≈ 4 bytes a token, an own estimate) and `don't know`
(understood, no field: the advice shows its default as an assumption with its source). A count of
documents without their length (`10'000 Dokumente`) fails with `fields={"documents": N}`: the
flow keeps it and asks only for the length.

The number of epochs (passes over the dataset) may come with it or alone: `20 Mio. Tokens, 2
Epochen` → `{dataset_tokens: 20 000 000, epochs: 2}`, `2 epochs` → `{epochs: 2}` (QA 46 #3). Both
belong to the workload's `fine_tuning` mapping: `nest` puts them there.
"""

from __future__ import annotations

import re

from . import lexicon as lx, numbers as nb
from .choices import NO_PREFERENCE, nothing
from .followups import TOKENS_PER_PAGE, TOKENS_PER_WORD
from .result import Parsed, fail, safe, say

BYTES_PER_TOKEN = 4.0
"""Own estimate: BPE tokenizers of English-language LLMs average about 4 characters (bytes of plain
text) per token (OpenAI's tokenizer help page: "1 token ≈ 4 characters in English"); German text
runs a little longer per token, so this is the rounder, slightly conservative figure."""

_UNITS: tuple[tuple[str, str], ...] = (
    ("tokens", r"tokens?"), ("pages", r"pages?|seiten?"), ("words", r"words?|wörter|woerter|worte"),
    ("tb", r"tb|terabytes?"), ("gb", r"gb|gigabytes?"), ("mb", r"mb|megabytes?"),
    ("docs", r"documents?|docs?|dokumente?n?|files?|dateien?|texte?|records?|beispiele?|examples?|"
             r"samples?|datensätze?"),
)
_UNIT_RE = re.compile(r"(?<![a-zäöü])(?:" + "|".join(f"(?P<{k}>{p})" for k, p in _UNITS) + r")(?![a-zäöü])")
_BYTES = {"tb": 1e12, "gb": 1e9, "mb": 1e6}
_DONT_KNOW = lx.words("no idea", "don'?t know", "do not know", "wei(?:ss|ß) nicht", "wei(?:ss|ß) ich nicht",
                      "not yet known", "noch offen", "keine ahnung", "unklar", "unknown", "unbekannt", "not sure", "nicht sicher")


_EPOCHS = re.compile(r"(?<![a-zäöü])(?:epochs?|epochen|epoche)(?![a-zäöü])")
FT_KEYS = ("dataset_tokens", "epochs")
"""The fields this parser reads; they are keys of the workload's `fine_tuning` mapping."""


def nest(fields: dict) -> dict:
    """`{dataset_tokens: N, epochs: E, …}` → `{fine_tuning: {dataset_tokens: N, epochs: E}, …}`:
    what this parser read, as the workload field it belongs to (other fields unchanged)."""
    inner = {k: fields[k] for k in FT_KEYS if k in fields}
    rest = {k: v for k, v in fields.items() if k not in FT_KEYS}
    return {"fine_tuning": inner, **rest} if inner else rest


def _plain(value: float) -> float | int:
    """2.0 → 2 (the saved YAML says `epochs: 2`); 1.5 stays."""
    return int(value) if float(value).is_integer() else value


def _unit_after(t: str, end: int) -> str | None:
    """The unit word that follows a number (the nearest one after it), or None."""
    m = _UNIT_RE.search(t, end)
    return m.lastgroup if m else None


@safe("dataset")
def parse_dataset(t: str, lang: str = "en") -> Parsed:
    """Tokens per fine-tuning run (one epoch) → `{dataset_tokens: N}`, with `epochs: E` where the
    passes are named ("2 Epochen", 1-100 as the workload schema allows); a range uses its upper value."""
    nums = nb.scan(t, words=True)              # "etwa zehntausend Dokumente"
    epochs = [n for n in nums if _EPOCHS.match(t, n.end + (t[n.end:n.end + 1] == " "))]
    nums = [n for n in nums if n not in epochs]
    if epochs and not 0 < epochs[0].value <= 100:
        return fail("dataset", lang, "interview.reply.dataset.epochs")
    fields = {"epochs": _plain(epochs[0].value)} if epochs else {}
    if epochs and not nums:                    # "2 Epochen": the size keeps its default
        return Parsed(fields, lang=lang)
    if not nums:
        if lx.has(NO_PREFERENCE, t) or lx.has(_DONT_KNOW, t) or lx.only(lx.BARE_NO, t):
            return nothing(lang)
        return fail("dataset", lang, "interview.reply.dataset.no_size")
    by_unit: dict[str | None, float] = {}
    for n in nums:
        unit = _unit_after(t, n.end)
        by_unit[unit] = max(by_unit.get(unit, 0.0), n.value)
    notes: list[str] = []
    docs = by_unit.pop("docs", None)
    if docs is not None and not by_unit:       # the count is kept: the flow asks only for the length
        asked = fail("dataset", lang, "interview.reply.dataset.document_length")
        return Parsed({"documents": docs}, False, asked.reason, asked.example, lang=lang)
    unit = next((u for u in ("tokens", "pages", "words", "tb", "gb", "mb") if u in by_unit), None)
    value = by_unit[unit]
    if unit is None:
        notes.append(say("interview.note.dataset.tokens", lang))
    elif unit == "pages":
        value *= TOKENS_PER_PAGE
        notes.append(say("interview.note.tokens_per_page", lang, n=TOKENS_PER_PAGE))
    elif unit == "words":
        value *= TOKENS_PER_WORD
        notes.append(say("interview.note.tokens_per_word", lang))
    elif unit in _BYTES:
        value *= _BYTES[unit] / BYTES_PER_TOKEN
        notes.append(say("interview.note.dataset.bytes_per_token", lang))
    if docs is not None:
        value *= docs
    if not 10_000 <= value <= 10**13:
        return fail("dataset", lang, "interview.reply.dataset.out_of_range")
    fields = {"dataset_tokens": int(round(value)), **fields}
    return Parsed(fields, lang=lang, note="; ".join(notes) or None)
