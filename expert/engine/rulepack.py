"""The rule-pack format: typed pydantic models of a YAML rule pack (knowledge as data).

A pack is `{pack, description, rules}`; a rule names its facts and field tests under `when`, what it
concludes under `then`, and English and German texts with `{alias.field|filter}` placeholders. Every
model forbids unknown keys; `knowledge/schemas/rulepack.schema.json` is generated from `RulePack`
(see `expert.engine.schema_gen`). Checks that span fields (aliases, references, placeholders) live in
`expert.engine.checks`; reading files lives in `expert.engine.loader`. `docs/rules.md` is the
author's guide.
"""


import math
from typing import Annotated, Any, ClassVar, Literal, Union

from pydantic import (BaseModel, BeforeValidator, ConfigDict, Discriminator, Field,
                      StringConstraints, Tag, WithJsonSchema, model_validator)
from pydantic_core import PydanticCustomError

from expert.engine.templates import ALIAS_RE, FIELD_RE

CATEGORIES = ("overprovisioning", "underprovisioning", "finetuning-underestimated",
              "non-gpu-bottleneck", "data-sovereignty", "model-growth", "unsuitable-gpu-class",
              "interconnect", "cost", "operations", "quantization",
              "classification", "recommendation")
SILENT_CATEGORIES = ("classification", "recommendation")  # derive facts only, no finding
MAX_RULES, MAX_WHEN, MAX_ANY = 200, 32, 32
"""Limits of one pack (issue 34), far above what the built-in packs use (23 rules, 5 conditions, 4
branches) and below what the engine fails on: more than 256 rules in a ruleset or some 1 800
patterns in a rule end in durable-rules' error 108, and an `any:` of 500 branches compiles for
minutes (470 answered in 0.8 s: the cost grows steeply). Split a larger pack into several."""
OPERATORS = ("eq", "ne", "lt", "lte", "gt", "gte", "in", "exists", "matches", "contains")

RuleId = Annotated[str, StringConstraints(pattern=r"^[a-z0-9]+(-[a-z0-9]+)*$", max_length=80)]
Kind = Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9_]*$", max_length=60)]
Alias = Annotated[str, StringConstraints(pattern=rf"^{ALIAS_RE}$", max_length=40)]
FieldName = Annotated[str, StringConstraints(pattern=rf"^{FIELD_RE}$", max_length=120)]
FactPath = Annotated[str, StringConstraints(pattern=rf"^{ALIAS_RE}\.{FIELD_RE}$", max_length=160)]


def _scalar(value: Any) -> Any:
    if isinstance(value, float) and not math.isfinite(value):
        raise PydanticCustomError("finite", "{value} is not a finite number", {"value": value})
    if isinstance(value, (str, bool, int, float)):
        return value
    got = "nothing" if value is None else f"a {type(value).__name__}"
    raise PydanticCustomError("scalar", "expected a text, number or true/false value, got {got}",
                              {"got": got})


def _number(value: Any) -> Any:
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return _scalar(value)
    raise PydanticCustomError("number", "expected a number, got {got}", {"got": repr(value)})


Scalar = Annotated[Any, BeforeValidator(_scalar),
                   WithJsonSchema({"type": ["string", "number", "boolean"]})]
Number = Annotated[Any, BeforeValidator(_number), WithJsonSchema({"type": "number"})]


def _optional(alias: str | None = None, **kwargs: Any) -> Any:
    """An optional key: absent means None; the schema shows neither null nor a default."""
    return Field(None, alias=alias, json_schema_extra=_drop_default, **kwargs)


def _drop_default(schema: dict[str, Any]) -> None:
    schema.pop("default", None)


class Strict(BaseModel):
    """Base of every rule-pack model: unknown keys and empty values are errors."""

    # defer_build: the validator is built on first validation, which packs read back from the
    # compiled cache (expert._plumbing.compiled) never need
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)
    unknown_kind: ClassVar[str] = "key"

    @model_validator(mode="before")
    @classmethod
    def _known_keys(cls, data: Any) -> Any:
        if isinstance(data, dict):
            allowed = [f.alias or n for n, f in cls.model_fields.items()]
            for key, value in data.items():
                if key not in allowed:
                    raise PydanticCustomError(
                        "unknown_key", "unknown {kind} '{key}'",
                        {"kind": cls.unknown_kind, "key": key, "allowed": ", ".join(allowed)})
                if value is None:
                    raise PydanticCustomError("empty", "'{key}' has no value", {"key": key})
        return data


class Text(Strict):
    """A text in both languages; both are required."""

    en: str = Field(min_length=1)
    de: str = Field(min_length=1)


class Source(Strict):
    """Where the rule's knowledge comes from: document number, section, optional claim id."""

    document: str = Field(min_length=1, description='Document number as text, e.g. "000".')
    section: str = Field(min_length=1)
    claim: str = _optional(description="Inventory claim id, e.g. M1.")
    reference: str = _optional(description="A published source beyond the documents (URL or "
                               "owner/repo@commit:path) for knowledge they do not cover; the document "
                               "and section then name where the documents' guidance applies.")


class Ref(Strict):
    """A value taken from another matched fact: `{ref: alias.field}`."""

    ref: FactPath


Operand = Annotated[Union[Annotated[Scalar, Tag("<value>")], Annotated[Ref, Tag("<ref>")]],
                    Discriminator(lambda v: "<ref>" if isinstance(v, (dict, Ref)) else "<value>")]
NumOperand = Annotated[Union[Annotated[Number, Tag("<value>")], Annotated[Ref, Tag("<ref>")]],
                       Discriminator(lambda v: "<ref>" if isinstance(v, (dict, Ref)) else "<value>")]


class Ops(Strict):
    """Operator tests on one field; several operators in one mapping must all hold."""

    unknown_kind: ClassVar[str] = "operator"
    eq: Operand = _optional()
    ne: Operand = _optional()
    lt: NumOperand = _optional()
    lte: NumOperand = _optional()
    gt: NumOperand = _optional()
    gte: NumOperand = _optional()
    in_: list[Scalar] = _optional(alias="in", min_length=1)
    exists: bool = _optional()
    matches: str = _optional(min_length=1, description="Regex that must match the whole value.")
    contains: Scalar = _optional(description="The list field holds this value.")

    @model_validator(mode="after")
    def _not_empty(self) -> "Ops":
        if not self.model_fields_set:
            raise PydanticCustomError("empty", "a field test needs at least one operator")
        return self


def _test_tag(value: Any) -> str:
    if isinstance(value, (dict, Ref, Ops)):
        return "<ref>" if isinstance(value, Ref) or (isinstance(value, dict) and set(value) == {"ref"}) \
            else "<ops>"
    return "<value>"


Test = Annotated[Union[Annotated[Scalar, Tag("<value>")], Annotated[Ref, Tag("<ref>")],
                       Annotated[Ops, Tag("<ops>")]], Discriminator(_test_tag)]
Where = dict[FieldName, Test]


class NotPattern(Strict):
    """The fact inside a `not`: no alias, since a fact that must be absent cannot be named."""

    fact: Kind
    where: Where = Field(default_factory=dict)


class Pattern(Strict):
    """One fact of kind `fact` whose fields pass every test under `where`; `as` names it."""

    fact: Kind
    as_: Alias = _optional(alias="as")
    where: Where = Field(default_factory=dict)


class Not(Strict):
    """Negation: the rule holds only if no fact matches the pattern (checked after all derivations)."""

    not_: NotPattern = Field(alias="not")


class AnyOf(Strict):
    """Disjunction: at least one of the patterns must match (all must share the same `as`)."""

    any: list[Pattern] = Field(min_length=1, max_length=MAX_ANY)


def _condition_tag(value: Any) -> str:
    if isinstance(value, (Not, AnyOf, Pattern)):
        return {Not: "<not>", AnyOf: "<any>"}.get(type(value), "<fact>")
    if isinstance(value, dict) and "not" in value:
        return "<not>"
    return "<any>" if isinstance(value, dict) and "any" in value else "<fact>"


Condition = Annotated[Union[Annotated[Pattern, Tag("<fact>")], Annotated[Not, Tag("<not>")],
                            Annotated[AnyOf, Tag("<any>")]], Discriminator(_condition_tag)]
SetValue = Annotated[Union[Annotated[Scalar, Tag("<value>")], Annotated[Ref, Tag("<ref>")]],
                     Discriminator(lambda v: "<ref>" if isinstance(v, (dict, Ref)) else "<value>")]


class Derive(Strict):
    """A fact the rule asserts for other rules: kind `fact`, fields from `set`."""

    fact: Kind
    set: dict[FieldName, SetValue] = Field(default_factory=dict)


class Then(Strict):
    """What a firing concludes: derived facts, and whether it reports a finding."""

    derive: list[Derive] = Field(default_factory=list)
    finding: bool = _optional(
        description="Default: true, except for classification and recommendation rules.")
    join: list[FactPath] = _optional(
        description="One finding for all firings of the rule: these values are listed (distinct, in firing "
                    "order: a list, which the texts write as 'a, b'; a fact's own fields, not nested ones); the "
                    "other values are the first firing's.")


class Rule(Strict):
    """One rule: identity, classification, source, conditions, conclusions and texts."""

    id: RuleId
    title: Text
    category: Literal[CATEGORIES]  # type: ignore[valid-type]
    severity: Literal["info", "warning", "critical"] = "info"
    source: Source
    priority: int = _optional(ge=0, description="Lower fires first.")
    when: list[Condition] = Field(min_length=1, max_length=MAX_WHEN)
    then: Then = Field(default_factory=Then)
    explanation: Text
    advice: Text
    facts: list[FactPath] = _optional(
        description="Matched values shown with the finding (default: those in the texts).")

    @property
    def emits_finding(self) -> bool:
        """True when a firing reports a finding (see `then.finding`)."""
        if self.then.finding is not None:
            return self.then.finding
        return self.category not in SILENT_CATEGORIES


class RulePack(Strict):
    """A rule pack file: a unique pack name, a description and its rules."""

    pack: RuleId
    description: str = ""
    rules: list[Rule] = Field(min_length=1, max_length=MAX_RULES)
