"""Turning pydantic and JSON Schema failures into one clear `InputError` with a field path."""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from expert.errors import InputError, format_loc
from expert._plumbing.paths import schema_path

M = TypeVar("M", bound=BaseModel)


def validate_model(cls: type[M], data: Any, file: str | None) -> M:
    """Validate `data` as `cls`; the first problem becomes an InputError naming the field."""
    try:
        return cls.model_validate(data)
    except ValidationError as exc:
        raise _first_error(exc, file) from None


def _first_error(exc: ValidationError, file: str | None) -> InputError:
    errors = exc.errors(include_url=False)
    first = [part for part in errors[0]["loc"] if not _is_union_tag(part)]
    same_place = [e for e in errors if [p for p in e["loc"] if not _is_union_tag(p)] == first]
    # for a union (a mapping or a word), the word's error says what is allowed; prefer it
    error = next((e for e in same_place if e["type"] in ("literal_error", "enum")), same_place[0])
    message = error["msg"]
    if error["type"] == "extra_forbidden":
        message = "unknown field"
    elif error["type"] == "missing":
        message = "required field is missing"
    ctx = error.get("ctx") or {}
    allowed = str(ctx["expected"]) if "expected" in ctx and str(ctx["expected"]) not in message else None
    return InputError(message, file=file, path=format_loc(first), allowed=allowed)


def _is_union_tag(part: Any) -> bool:
    # pydantic inserts the union member's type name into the location (`FineTuning`,
    # `literal['none','monthly']`, `function-before[...]`); users never wrote it. Field names are lowercase.
    return isinstance(part, str) and (part[:1].isupper() or "[" in part or part.startswith(("function-", "tagged-union"))
                                      or part in {"int", "float", "str", "bool"})


@lru_cache(maxsize=None)
def _validator(name: str) -> jsonschema.protocols.Validator:  # noqa: F821 - imported here, not at start-up
    import jsonschema

    schema = json.loads(schema_path(name).read_text(encoding="utf-8"))
    cls = jsonschema.validators.validator_for(schema)
    return cls(schema)


def validate_schema(name: str, data: Any, file: str | None) -> None:
    """Validate `data` against the shipped JSON Schema `name` (e.g. 'workload')."""
    import jsonschema

    error = jsonschema.exceptions.best_match(_validator(name).iter_errors(data))
    if error is not None:
        raise InputError(_short(error.message), file=file, path=format_loc(list(error.absolute_path)))


def _short(message: str, limit: int = 200) -> str:
    return message if len(message) <= limit else message[: limit - 1] + "…"
