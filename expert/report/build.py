"""Assembling a `Report` from the pipeline's parts, with the rounding that makes JSON byte-stable."""

from __future__ import annotations

from typing import Any

from expert.report.models import Report

DECIMALS = 4  # every float in a report is rounded to 4 decimals (documented in README "JSON report")


def rounded(value: Any, decimals: int = DECIMALS) -> Any:
    """Round floats recursively; -0.0 becomes 0.0 so equal inputs print equal bytes. A value that the
    decimals would write as 0 keeps two significant digits (1 request a day: a peak of 3.5e-05 req/s, not
    0.0; QA 47 #11)."""
    kind = type(value)
    if kind is float:
        short = round(value, decimals)
        if short == 0 and value != 0 and value == value and abs(value) != float("inf"):
            short = float(f"{value:.2g}")
        return 0.0 if short == 0 else short
    if kind is dict:
        return {key: rounded(item, decimals) for key, item in value.items()}
    if kind is list or kind is tuple:
        return [rounded(item, decimals) for item in value]
    return value


def _clean_fact(fact: dict[str, Any]) -> dict[str, Any]:
    return {key: item for key, item in fact.items() if key[0] != "_"}


def trace_parts(evaluation) -> tuple[list[dict], list[dict]]:
    """Findings and the firing trace of an engine evaluation, as plain report-shaped dicts."""
    findings = [{"rule_id": f.rule_id, "category": f.category, "severity": f.severity, "title": f.title,
                 "explanation": f.explanation, "advice": f.advice,
                 "source": {"document": f.source.document, "section": f.source.section}, "facts": f.facts}
                for f in evaluation.findings]
    fired = [{"rule_id": f.rule_id, "matched": {alias: _clean_fact(fact) for alias, fact in f.matched.items()},
              "derived": [_clean_fact(d) for d in f.derived]}
             for f in evaluation.fired]
    return findings, fired


SEVERITY_RANK = {"critical": 0, "warning": 1, "info": 2}


def make_report(**parts: Any) -> Report:
    """A validated Report from plain parts (dicts are rounded first); findings most severe first,
    otherwise in firing order (the five mistakes fire first, in the document's order)."""
    unique, seen = [], set()
    for finding in parts.pop("findings", []):  # a rule matching two fact sets says the same thing once
        key = (finding["rule_id"], finding["explanation"])
        if key not in seen:
            seen.add(key)
            unique.append(finding)
    findings = sorted(unique, key=lambda f: SEVERITY_RANK[f["severity"]])
    fired = parts.pop("fired_rules", [])
    # facts are rounded when built (expert.facts.input_facts.clean_fact); the trace quotes them as they are
    return Report.model_validate({**rounded(parts), "findings": findings, "fired_rules": fired})
