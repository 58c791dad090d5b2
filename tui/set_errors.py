"""A `/set` value the workload or setup schema refuses, said in the chat's language.

Pydantic's own message ("Input should be less than or equal to 1") is English; `refusal` turns the
common kinds (a choice, a range, a number, text, yes/no) into a catalog message naming the field,
the value and what is allowed, the allowed values and bounds read from the field's JSON schema.
Pydantic's detail is kept only for a kind the catalog has no words for. No Textual.
"""

from __future__ import annotations

from typing import Annotated, Any

from expert.messages import t

_NUMBER = {"float_type", "float_parsing", "decimal_type", "decimal_parsing"}
_INTEGER = {"int_type", "int_parsing", "int_from_float", "int_parsing_size"}
_RANGE = {"greater_than", "greater_than_equal", "less_than", "less_than_equal"}
_CHOICE = {"literal_error", "enum"}
_TEXT = {"string_type"}
_BOOL = {"bool_type", "bool_parsing"}
_SECTION = {"dict_type", "model_type", "model_attributes_type"}


def field_schema(schema: dict, loc: tuple | list) -> dict:
    """The JSON schema of the field at `loc` in a model's `schema` ({} where it cannot be found);
    `$ref`s are followed and an optional field's null branch is skipped."""
    defs = schema.get("$defs", {})
    node = schema
    for part in loc:
        node = _resolve(node, defs).get("properties", {}).get(part) if isinstance(part, str) else None
        if node is None:
            return {}
    return _resolve(node, defs)


def _resolve(node: dict, defs: dict) -> dict:
    while True:
        if "$ref" in node:
            node = defs.get(node["$ref"].rsplit("/", 1)[-1], {})
        elif node.get("anyOf") or node.get("allOf"):
            branches = [b for b in node.get("anyOf") or node["allOf"] if b.get("type") != "null"]
            if not branches:
                return node
            node = {**{k: v for k, v in node.items() if k not in ("anyOf", "allOf")}, **branches[0]}
        else:
            return node


def _num(value: Any, lang: str) -> str:
    """A number as the chat writes it: `10,000` / `10 000`, `0.5` / `0,5`."""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, int):
        text = f"{value:,}" if abs(value) >= 10_000 else str(value)
        return text.replace(",", " ") if lang == "de" else text
    text = f"{value:g}" if isinstance(value, float) else str(value)
    return text.replace(".", ",") if lang == "de" else text


def allowed_range(schema: dict, lang: str, integer: bool = False) -> str:
    """`0 to 1`, `at least 1`, `more than 0` … from the schema's bounds; any number where none."""
    low, high = schema.get("minimum"), schema.get("maximum")
    above, below = schema.get("exclusiveMinimum"), schema.get("exclusiveMaximum")
    if low is not None and high is not None:
        return t("chat.set.range.between", lang, min=_num(low, lang), max=_num(high, lang))
    parts = [t(key, lang, **{name: _num(bound, lang)}) for key, name, bound in (
        ("chat.set.range.min", "min", low), ("chat.set.range.above", "min", above),
        ("chat.set.range.max", "max", high), ("chat.set.range.below", "max", below)) if bound is not None]
    if parts:
        return ", ".join(parts)
    return t("chat.set.range.any_integer" if integer else "chat.set.range.any_number", lang)


def refusal(error: dict, field: str, schema: dict, lang: str) -> str:
    """The chat's one-line message for one pydantic `error` on `field` (its dotted path), whose JSON
    schema is `schema`."""
    kind, value = error.get("type", ""), error.get("input")
    shown = _num(value, lang) if isinstance(value, (int, float)) and not isinstance(value, bool) else str(value)
    integer = schema.get("type") == "integer"
    if kind in _CHOICE:
        choices = schema.get("enum") or ([schema["const"]] if "const" in schema else None)
        allowed = ", ".join(map(str, choices)) if choices else str(error.get("ctx", {}).get("expected", ""))
        return t("chat.set.invalid.choice", lang, field=field, value=shown, allowed=allowed)
    if kind in _RANGE:
        return t("chat.set.invalid.range", lang, field=field, value=shown,
                 allowed=allowed_range(schema, lang, integer))
    if kind in _INTEGER:
        return t("chat.set.invalid.integer", lang, field=field, value=shown,
                 allowed=allowed_range(schema, lang, True))
    if kind in _NUMBER:
        return t("chat.set.invalid.number", lang, field=field, value=shown,
                 allowed=allowed_range(schema, lang, integer))
    if kind in _TEXT:
        return t("chat.set.invalid.text", lang, field=field, value=shown)
    if kind in _BOOL:
        return t("chat.set.invalid.bool", lang, field=field, value=shown)
    if kind in _SECTION:
        return t("chat.set.invalid.section", lang, field=field, value=shown)
    return t("chat.set.invalid.other", lang, field=field, value=shown, detail=error.get("msg", kind))


def check_workload_field(field: str, value: object, lang: str) -> None:
    """Raise ValueError, in `lang`, when the workload schema refuses `value` for `field` (a field
    no interview question reads, such as `prompt_tokens`: its value goes in as typed)."""
    from typing import Annotated

    from pydantic import BaseModel, ConfigDict, TypeAdapter, ValidationError

    from expert.inputs.workload import Workload

    info = Workload.model_fields.get(field)
    if info is None or (isinstance(info.annotation, type) and issubclass(info.annotation, BaseModel)):
        return
    try:
        kind = Annotated[info.annotation, *info.metadata] if info.metadata else info.annotation
        adapter = TypeAdapter(kind, config=ConfigDict(strict=True))
        adapter.validate_python(value)
    except ValidationError as exc:
        error = exc.errors(include_url=False)[0]
        raise ValueError(refusal(error, field, field_schema(Workload.model_json_schema(), (field,)), lang)) from None
    except Exception:  # noqa: BLE001 - a field type the adapter cannot take: the pipeline checks it
        return


def _section(annotation: object):
    """The pydantic model a field holds (`FineTuning` of `FineTuning | Frequency`), else None."""
    from typing import get_args

    from pydantic import BaseModel

    for kind in (annotation, *get_args(annotation)):
        if isinstance(kind, type) and issubclass(kind, BaseModel):
            return kind
    return None


def check_workload_path(path: tuple[str, ...], value: object, lang: str) -> None:
    """Raise ValueError, in `lang`, for `/set fine_tuning.epochs 0`: a dotted workload field that
    does not exist (naming the fields its section has) or a value its schema refuses (naming the
    dotted field and what it allows)."""
    from pydantic import ConfigDict, TypeAdapter, ValidationError

    from expert.inputs.workload import Workload

    model, info = Workload, None
    for depth, part in enumerate(path):
        info = model.model_fields.get(part) if model is not None else None
        if info is None:
            names = ", ".join(model.model_fields) if model is not None else ".".join(path[:depth])
            raise ValueError(t("chat.set.unknown_field", lang, name=repr(".".join(path[:depth + 1])), names=names))
        if depth < len(path) - 1:
            model = _section(info.annotation)
    try:
        kind = Annotated[info.annotation, *info.metadata] if info.metadata else info.annotation
        TypeAdapter(kind, config=ConfigDict(strict=True)).validate_python(value)
    except ValidationError as exc:
        error = exc.errors(include_url=False)[0]
        schema = field_schema(Workload.model_json_schema(), path)
        raise ValueError(refusal(error, ".".join(path), schema, lang)) from None


def check_setup_field(setup: dict, node: str, lang: str = "en") -> None:
    """Raise ValueError when the setup schema rejects field `node`, in `lang`, naming the field and
    what it allows (other problems, such as a field not answered yet, are left to the audit)."""
    from pydantic import ValidationError

    from expert.errors import format_loc
    from expert.inputs.setup_file import Setup

    try:
        Setup.model_validate(setup)
    except ValidationError as exc:
        for error in exc.errors(include_url=False):
            if error["loc"] and error["loc"][0] == node:
                schema = field_schema(Setup.model_json_schema(), error["loc"])
                raise ValueError(refusal(error, format_loc(error["loc"]), schema, lang)) from None
