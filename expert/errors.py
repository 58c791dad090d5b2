"""Errors that reach the user as one clear line, never as a traceback.

Every bad input (unknown id, malformed file, schema violation, impossible value) is raised as
`InputError`; the CLI prints `str(error)` to stderr and exits with code 2.
"""

from __future__ import annotations


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
            parts.append(str(self.file))
        if self.path:
            parts.append(f"field {self.path}")
        text = ": ".join(parts + [self.reason]) if parts else self.reason
        if self.allowed:
            text += f" (allowed: {self.allowed})"
        return text


class UnknownIdError(InputError):
    """An id that is not in the catalog; lists the close matches or the known ids."""

    def __init__(self, kind: str, given: str, known: list[str], *, file: str | None = None,
                 path: str | None = None, close: list[str] | None = None) -> None:
        import difflib

        if close is None:  # models pass their own (`catalog.suggest`: by family and size)
            close = difflib.get_close_matches(given.lower(), known, n=3, cutoff=0.5)
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
