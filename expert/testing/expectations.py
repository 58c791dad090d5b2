"""A scenario's `expect:` block: what must hold of its outcome, checked before the snapshot.

A snapshot records an outcome; it does not say which parts of it matter, so `--snapshot-update`
would approve a lost finding as readily as a reworded one. The `expect:` block states the parts
that matter, derived from the documents:

    expect:
      fires: [rule-id, ...]            # each must fire
      not_fires: [rule-id, ...]        # none may fire
      gpu_family: [l40s]               # recommended GPU family must be one of these (advice only)
      count: {min: 1, max: 2}          # recommended GPU count bounds (advice only)
      precision: [fp16]                # recommended precision must be one of these (advice only)
      categories: [overprovisioning]   # finding categories that must appear
      no_categories: [cost]            # finding categories that must not appear
      severity_at_most: info           # no finding above this severity
      xfail_reason: "..."              # optional: a known departure; violations are reported as xfail

`check` returns one message per violated line, naming the field (`expect.fires`) and what was
found instead, so a failing scenario says exactly which expectation broke.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from expert.errors import InputError

SEVERITIES = ("info", "warning", "critical")
FAMILIES = ("l40s", "a100", "h100", "h200", "b200", "rtx-pro-6000", "amd", "gaudi", "entry", "consumer",
            "workstation", "other")  # expert.facts.input_facts.gpu_family
ADVICE_ONLY = ("gpu_family", "count", "precision")
PRECISIONS = ("fp32", "bf16", "fp16", "fp8", "int8", "int4", "mxfp4")  # expert.inputs.workload.Precision


class CountBounds(BaseModel):
    """Bounds of the recommended GPU count (each optional, inclusive)."""

    model_config = ConfigDict(extra="forbid")
    min: int | None = Field(default=None, ge=0)
    max: int | None = Field(default=None, ge=0)


class Expectation(BaseModel):
    """The `expect:` block of a scenario file (every key optional)."""

    model_config = ConfigDict(extra="forbid")
    fires: list[str] = []
    not_fires: list[str] = []
    gpu_family: list[Literal[FAMILIES]] = []  # type: ignore[valid-type]
    count: CountBounds | None = None
    precision: list[Literal[PRECISIONS]] = []  # type: ignore[valid-type]
    categories: list[str] = []
    no_categories: list[str] = []
    severity_at_most: Literal[SEVERITIES] | None = None  # type: ignore[valid-type]
    xfail_reason: str | None = Field(default=None, min_length=1)

    @model_validator(mode="after")
    def _consistent(self) -> "Expectation":
        both = sorted(set(self.fires) & set(self.not_fires))
        if both:
            raise ValueError(f"rule '{both[0]}' is in both fires and not_fires")
        return self


def parse_expectation(data: Any, file: str, kind: str, rule_ids: set[str], categories: set[str]) -> Expectation:
    """The validated block; InputError (file, `expect.<field>`, what is allowed) when it is wrong."""
    try:
        expect = Expectation.model_validate(data)
    except ValidationError as error:
        first = error.errors()[0]
        path = ".".join(str(p) for p in ("expect", *first["loc"]))
        raise InputError(first["msg"], file=file, path=path) from None
    for field in ("fires", "not_fires"):
        unknown = [r for r in getattr(expect, field) if r not in rule_ids]
        if unknown:
            raise InputError(f"unknown rule id '{unknown[0]}'", file=file, path=f"expect.{field}",
                             allowed="the ids of `gpu-expert rules`")
    for field in ("categories", "no_categories"):
        unknown = [c for c in getattr(expect, field) if c not in categories]
        if unknown:
            raise InputError(f"unknown category '{unknown[0]}'", file=file, path=f"expect.{field}",
                             allowed=", ".join(sorted(categories)))
    if kind == "setup":
        for field in ADVICE_ONLY:
            if getattr(expect, field):
                raise InputError("applies to advice (workload) scenarios only", file=file, path=f"expect.{field}")
    return expect


def check(expect: Expectation, outcome: dict[str, Any], family: str | None) -> list[str]:
    """One message per violated expectation; `family` is the recommended GPU's family (advice)."""
    fired = [f["rule_id"] for f in outcome.get("fired_rules", [])]
    findings = outcome.get("findings", [])
    seen = {f["category"] for f in findings}
    problems = [f"expect.fires: '{r}' did not fire" for r in expect.fires if r not in fired]
    problems += [f"expect.not_fires: '{r}' fired" for r in expect.not_fires if r in fired]
    problems += [f"expect.categories: no finding of category '{c}' (found: {', '.join(sorted(seen)) or 'none'})"
                 for c in expect.categories if c not in seen]
    problems += [f"expect.no_categories: a finding of category '{c}' appeared "
                 f"({', '.join(f['rule_id'] for f in findings if f['category'] == c)})"
                 for c in expect.no_categories if c in seen]
    if expect.severity_at_most is not None:
        limit = SEVERITIES.index(expect.severity_at_most)
        above = [f"{f['rule_id']} ({f['severity']})" for f in findings if SEVERITIES.index(f["severity"]) > limit]
        if above:
            problems.append(f"expect.severity_at_most: {expect.severity_at_most}, but {', '.join(above)}")
    rec = outcome.get("recommendation")
    label = f"{rec['count']}× {rec['gpu']}" if rec else "nothing"
    if expect.gpu_family and family not in expect.gpu_family:
        problems.append(f"expect.gpu_family: recommended {label} (family {family or 'none'}), "
                        f"expected one of {', '.join(expect.gpu_family)}")
    if expect.count is not None:
        count = rec["count"] if rec else None
        low, high = expect.count.min, expect.count.max
        if count is None or (low is not None and count < low) or (high is not None and count > high):
            bounds = f"{low if low is not None else 0}..{high if high is not None else '∞'}"
            problems.append(f"expect.count: recommended {label}, expected a count in {bounds}")
    if expect.precision and (rec is None or rec["precision"] not in expect.precision):
        problems.append(f"expect.precision: recommended {label} in {rec['precision'] if rec else 'nothing'}, "
                        f"expected one of {', '.join(expect.precision)}")
    return problems
