"""Errors that reach the user as one clear line, never as a traceback.

Every bad input (unknown id, malformed file, schema violation, impossible value) is raised as
`InputError`; the CLI prints `str(error)` to stderr and exits with code 2.
"""

from __future__ import annotations

import re

MAX_WORD = 120
"""A longer run of non-blank characters in a message (a value pasted whole) is shortened to this."""
_LONG_WORD = re.compile(r"\S{%d,}" % (MAX_WORD + 1))


class InputError(Exception):
    """Bad user input: names the file, the field path and what is allowed."""

    def __init__(self, message: str, *, file: str | None = None, path: str | None = None,
                 allowed: str | None = None) -> None:
        self.file = file
        self.path = path
        self.allowed = allowed
        self.reason = message
        super().__init__(self.render())

    def render(self) -> str:
        """The one-line message: `FILE: field PATH: REASON (allowed: ...)`."""
        parts = []
        if self.file:
            parts.append(clean(self.file, shorten=False))
        if self.path:
            parts.append(f"field {clean(self.path)}")
        text = ": ".join(parts + [clean(self.reason)])
        if self.allowed:
            text += f" (allowed: {clean(self.allowed)})"
        return text


def clean(text: str, *, shorten: bool = True) -> str:
    """Text safe for one terminal line: control and other invisible characters escaped (`\\x1b`,
    `\\u202e`), and every run of more than MAX_WORD non-blank characters shortened, saying its length."""
    text = "".join(ch if ch.isprintable() else ascii(ch)[1:-1] for ch in str(text))
    if not shorten:
        return text
    return _LONG_WORD.sub(lambda m: f"{m.group()[:MAX_WORD - 20]}…({len(m.group())} characters)", text)


class UnknownIdError(InputError):
    """An id that is not in the catalog; lists the close matches or the known ids."""

    def __init__(self, kind: str, given: str, known: list[str], *, file: str | None = None,
                 path: str | None = None, close: list[str] | None = None) -> None:
        from expert.close_ids import close_ids

        if close is None:  # models pass their own (`catalog.suggest`: by family and size)
            close = close_ids(given, known)
        hint = ", ".join(close) if close else ", ".join(sorted(known))
        super().__init__(f"unknown {kind} '{given}'", file=file, path=path,
                         allowed=("did you mean " if close else "") + hint)


class EngineError(RuntimeError):
    """A rule action failed inside durable-rules (the engine swallows these; we surface them)."""


def format_loc(loc: tuple | list) -> str:
    """Render a pydantic/jsonschema location tuple as a dotted field path: `a.b[2].c`."""
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out or "(top level)"
