"""Assembling a `Report` from the pipeline's parts, with the rounding that makes JSON byte-stable."""

from __future__ import annotations

from typing import Any

from expert.report.models import FiredRule, Finding, Report

DECIMALS = 4  # every float in a report is rounded to 4 decimals (documented in README "JSON report")


def rounded(value: Any) -> Any:
    """Round floats recursively; -0.0 becomes 0.0 so equal inputs print equal bytes."""
    if isinstance(value, float):
        value = round(value, DECIMALS)
        return 0.0 if value == 0 else value
    if isinstance(value, dict):
        return {key: rounded(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [rounded(item) for item in value]
    return value


def _clean_fact(fact: dict[str, Any]) -> dict[str, Any]:
    return {key: item for key, item in fact.items() if not key.startswith("_")}


def trace_parts(evaluation) -> tuple[list[Finding], list[FiredRule]]:
    """Findings and the firing trace of an engine evaluation, as report models."""
    findings = [Finding.model_validate(rounded(f.as_dict())) for f in evaluation.findings]
    fired = [FiredRule(rule_id=f.rule_id,
                       matched={alias: rounded(_clean_fact(fact)) for alias, fact in f.matched.items()},
                       derived=[rounded(_clean_fact(d)) for d in f.derived])
             for f in evaluation.fired]
    return findings, fired


def make_report(**parts: Any) -> Report:
    """A validated Report from plain parts (dicts are rounded first)."""
    return Report.model_validate(rounded(parts))
