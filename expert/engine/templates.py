"""Safe text filling for rule explanations: `{alias.field}` and `{alias.field|filter}`.

Templates come from rule files that organisations write, so they are treated as hostile: a regular
expression finds the placeholders and values are looked up in plain dicts only (never `str.format`,
never attribute access), so no template can reach a Python object. `{{` and `}}` write literal braces;
any other brace is an error when the rule pack is loaded.

Text values of the fact vocabulary read in the text's language (the message catalog's
`value.FIELD.VALUE`, `expert.messages.values`: «monthly» → «monatlich»). Filters (German uses a decimal comma;
thousands are separated by a plain space):

    pct     0.35 → "35 %"          gb      15.04 → "15.0 GB"      int   57572.4 → "57 572"
    chf     2310 → "2 310 CHF"     x       1.8 → "1.8×"           round1 / round2: 1 or 2 decimals

In German, an enumerated value without a filter is written as a German word where the message
catalog has one (`{w.data}` → «sensibel»; `expert.messages.values`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from expert.messages import t, value_word
from expert.report.numbers import number

ALIAS_RE = r"[a-z][a-z0-9_]*"
FIELD_RE = r"[A-Za-z][A-Za-z0-9_]*(?:\.[A-Za-z][A-Za-z0-9_]*)*"
FILTERS = ("pct", "gb", "int", "chf", "x", "round1", "round2")

_TOKEN = re.compile(r"\{\{|\}\}|\{([^{}]*)\}|[{}]")
_PLACEHOLDER = re.compile(rf"({ALIAS_RE})\.({FIELD_RE})(?:\|([A-Za-z0-9_]+))?")


class TemplateError(ValueError):
    """A malformed template, an unknown filter, or a value that cannot be filled in."""


@dataclass(frozen=True)
class Placeholder:
    """One `{alias.field|filter}` occurrence; `filter` is None when absent."""

    alias: str
    field: str
    filter: str | None

    @property
    def path(self) -> str:
        """`alias.field`, the form used in a rule's `facts` list."""
        return f"{self.alias}.{self.field}"


def placeholders(text: str) -> list[Placeholder]:
    """Parse every placeholder of `text`; raise TemplateError on malformed braces or filters."""
    found = []
    for match in _TOKEN.finditer(text):
        token = match.group(0)
        if token in ("{{", "}}"):
            continue
        inner = match.group(1)
        if inner is None:
            raise TemplateError(f"stray '{token}' (write '{token * 2}' for a literal brace)")
        parsed = _PLACEHOLDER.fullmatch(inner)
        if parsed is None:
            raise TemplateError(f"malformed placeholder '{token}' (expected {{alias.field}} "
                                "or {alias.field|filter})")
        alias, field, name = parsed.groups()
        if name is not None and name not in FILTERS:
            raise TemplateError(f"unknown filter '{name}' in '{token}' "
                                f"(allowed: {', '.join(FILTERS)})")
        found.append(Placeholder(alias, field, name))
    return found


def lookup(values: Mapping[str, Any], alias: str, field: str) -> Any:
    """The value of `alias.field` (dotted fields descend into nested dicts); KeyError if absent."""
    current: Any = values[alias]
    for part in field.split("."):
        if not isinstance(current, Mapping) or part not in current:
            raise KeyError(f"{alias}.{field}")
        current = current[part]
    return current


def render(text: str, values: Mapping[str, Mapping[str, Any]], lang: str) -> str:
    """Fill every placeholder of `text` from `values` (alias → fact dict) in language `lang`.

    Raises TemplateError for a malformed template or a value that is missing or unfit for its filter.
    """

    def fill(match: re.Match[str]) -> str:
        token = match.group(0)
        if token in ("{{", "}}"):
            return token[0]
        parsed = _PLACEHOLDER.fullmatch(match.group(1) or "")
        if parsed is None:
            raise TemplateError(f"malformed placeholder '{token}'")
        alias, field, name = parsed.groups()
        try:
            value = lookup(values, alias, field)
        except KeyError:
            raise TemplateError(f"no value for {{{alias}.{field}}} in the matched facts") from None
        if name is None:   # German words for values: «sensibel», not «sensitive» (expert.messages.values)
            key = field.rsplit(".", 1)[-1]
            if isinstance(value, (list, tuple)):
                return ", ".join(value_word(key, item, lang) or _plain(item, lang) for item in value)
            word = value_word(key, value, lang)
            if word is not None:
                return word
        return format_value(value, name, lang)

    if "{" not in text and "}" not in text:  # two thirds of the rule texts: nothing to fill
        return text
    return _TOKEN.sub(fill, text)


def format_value(value: Any, name: str | None, lang: str) -> str:
    """Format one value with filter `name` (or none) for language `lang` ('en' or 'de')."""
    if name is None:
        return _plain(value, lang)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TemplateError(f"filter '{name}' needs a number, got {value!r}")
    if name == "pct":
        return number(value * 100, 1, lang, group=False, trim=True) + " %"
    if name == "gb":
        return number(value, 1, lang) + " GB"
    if name == "int":
        return number(value, 0, lang)
    if name == "chf":
        return number(value, 0, lang) + " CHF"
    if name == "x":
        return number(value, 1, lang, group=False) + "×"
    if name in ("round1", "round2"):
        return number(value, int(name[-1]), lang)
    raise TemplateError(f"unknown filter '{name}'")


def _plain(value: Any, lang: str) -> str:
    if value is None:
        return "—"
    if isinstance(value, bool):
        return t(f"value.bool.{str(value).lower()}", lang)
    if isinstance(value, float):
        text = repr(value)
        return text.replace(".", ",") if lang == "de" else text
    if isinstance(value, (list, tuple)):
        return ", ".join(_plain(item, lang) for item in value)
    return str(value)
