"""The result type shared by all interview parsers, and the never-raise wrapper around them.

What a parser replies or notes comes from the message catalog (`interview.reply.*`,
`interview.note.*` in `expert.messages.replies`): `fail` and `say` take a catalog key.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Callable

from expert.messages import t as _t

from . import lexicon as lx, numbers as nb
from .questions import example as _example


@dataclass(frozen=True)
class Parsed:
    """What a parser understood: workload `fields`, or `ok=False` with `reason` and `example`.

    `note` says which assumption was made (a range's upper bound, an ambiguous model name);
    `follow_up` names a question the flow should ask next (e.g. `fine_tuning_frequency`).
    """

    fields: dict = field(default_factory=dict)
    ok: bool = True
    reason: str | None = None
    example: str | None = None
    note: str | None = None
    follow_up: str | None = None
    lang: str = "en"
    negated: bool = False
    """Refused because the value was named only to be denied ("not 70B", `negation.guarded`)."""
    unread: tuple[str, ...] = ()
    """The clauses of a whole sentence that no part of it took (`sentence.parse_sentence`): the
    flow reads them as answers to other questions, or names them as not understood."""


def fail(qid: str, lang: str, key: str, **values: object) -> Parsed:
    """A not-understood result: the reason (catalog `key`, `values` filled in) and the example
    answer of question `qid`, in `lang`."""
    return Parsed({}, False, _t(key, lang, **values), _example(qid, lang), lang=lang)


def safe(qid: str) -> Callable:
    """Decorator: normalize the text, detect the language, and turn any exception into `fail`."""
    def wrap(fn: Callable) -> Callable:
        @functools.wraps(fn)
        def parser(text: object, lang: str = "en", **kw) -> Parsed:
            lang = lang if lang in ("en", "de") else "en"
            try:
                t = nb.normalize(text)
                lang = lx.detect_lang(t, lang)
                if not t.strip():
                    return fail(qid, lang, "interview.reply.empty")
                return fn(t, lang, **kw)
            except Exception:  # noqa: BLE001 - a parser must never raise
                return fail(qid, lang, "interview.reply.unreadable")
        return parser
    return wrap


def num(x: float) -> float | int:
    """Whole numbers as int, others rounded to 3 decimals."""
    return int(round(x)) if abs(x - round(x)) < 1e-9 else round(x, 3)


def say(key: str, lang: str, **values: object) -> str:
    """The catalog message `key` in `lang`: `expert.messages.t` under a name that the parsers'
    text argument (`t`) does not shadow."""
    return _t(key, lang, **values)
