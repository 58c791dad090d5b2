"""A "not X" never sets X (QA 45): an answer a parser reads only from inside a negation is refused.

Most questions take only what the user wants: a model, a volume, a time, a place. "not 70B", "nicht
in den USA", "servers not in the US" name a value only to deny it, and reading the value would set the
opposite of what was said. `guarded` runs a question's parser on the text and on the text with the
denied words blanked (`polarity.blank_denied`); when the value came from the denied words only, it
refuses with a hint to say what is wanted instead. The questions whose parsers read negations
themselves ("no fine-tuning", "nothing sensitive", "not in the cloud", "wir kaufen keine Server",
"nicht quantisieren") are left alone.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Callable

from . import numbers as nb
from .polarity import blank_denied
from .result import Parsed, fail

NEGATION_AWARE = frozenset({"fine_tuning", "fine_tuning_frequency", "fine_tuning_method", "data",
                            "deployment", "budget", "precision", "agent_availability"})
"""Questions whose parsers read a negation as an answer of its own (`polarity.polar`)."""


def guarded(qid: str, parser: Callable[..., Parsed], text: str, lang: str, **kw) -> Parsed:
    """`parser(text, lang, **kw)`, refused when what it read stands only inside a negation."""
    got = parser(text, lang, **kw)
    if qid in NEGATION_AWARE or not (got.ok and got.fields):
        return got
    t = nb.normalize(text)
    plain = blank_denied(t)
    if plain == t:
        return got
    again = parser(plain, lang, **kw)
    if again.ok and again.fields == got.fields:
        return got                          # the value stands outside the negation ("8B, not 70B")
    return replace(fail(qid, got.lang, "interview.reply.negated", said=t.strip(" .!")), negated=True)
