"""The result type shared by all interview parsers, and the never-raise wrapper around them."""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Callable

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


def fail(qid: str, lang: str, en: str, de: str) -> Parsed:
    """A not-understood result with the reason and the example answer in `lang`."""
    return Parsed({}, False, de if lang == "de" else en, _example(qid, lang), lang=lang)


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
                    return fail(qid, lang, "Empty answer.", "Leere Antwort.")
                return fn(t, lang, **kw)
            except Exception:  # noqa: BLE001 - a parser must never raise
                return fail(qid, lang, "Could not read that.", "Das konnte ich nicht lesen.")
        return parser
    return wrap


def num(x: float) -> float | int:
    """Whole numbers as int, others rounded to 3 decimals."""
    return int(round(x)) if abs(x - round(x)) < 1e-9 else round(x, 3)


def say(lang: str, en: str, de: str) -> str:
    """The English or the German text, by `lang`."""
    return de if lang == "de" else en
