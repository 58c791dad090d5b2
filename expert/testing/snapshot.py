"""The outcome of a scenario as stable, readable data for a snapshot.

What is kept: the recommendation and its key numbers, the alternatives with why each lost, the
findings with the facts behind them, and the forward-chaining trace (fired rules with the facts
they matched and derived). Keys are sorted by the JSON snapshot writer; floats are rounded to
2 decimals (money to the centime, memory to 10 MB); nothing volatile (paths, times, session ids)
is included.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from expert.errors import InputError
from expert.fileio import load_mapping

DECIMALS = 2
CHOICE_KEYS = ("gpu", "count", "source", "package", "offer", "precision", "tensor_parallel", "replicas",
               "monthly_cost_chf", "tco_chf", "latency_p95_s", "headroom", "fits")


def _round(value: Any) -> Any:
    if isinstance(value, float):
        value = round(value, DECIMALS)
        return 0.0 if value == 0 else value
    if isinstance(value, dict):
        return {key: _round(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_round(item) for item in value]
    return value


def _choice(choice: dict | None) -> dict | None:
    return None if choice is None else {k: choice.get(k) for k in CHOICE_KEYS if choice.get(k) is not None}


def outcome_view(report) -> dict[str, Any]:
    """The snapshot view of a report (see the module docstring)."""
    data = report.model_dump(mode="json")
    view = {
        "kind": data["kind"],
        "recommendation": _choice(data.get("recommendation")),
        "alternatives": [{**_choice(a), "why_not": a["why_not"]} for a in data.get("alternatives", [])],
        "nothing_fits": data.get("nothing_fits"),
        "findings": [{k: f[k] for k in ("rule_id", "category", "severity", "title", "explanation", "facts")}
                     for f in data.get("findings", [])],
        "fired_rules": data.get("fired_rules", []),
    }
    if data.get("memory"):
        view["memory"] = data["memory"]
    return _round(view)


def scenario_outcome(path: Path, rules_dirs=(), catalog_dirs=()) -> dict[str, Any]:
    """Evaluate one scenario file and return its outcome view."""
    from expert.api import Expert

    name, data = load_mapping(path)
    unknown = set(data) - {"lang", "workload", "setup", "description"}
    if unknown:
        raise InputError("unknown field", file=name, path=sorted(unknown)[0],
                         allowed="lang, workload, setup, description")
    lang = data.get("lang", "en")
    if lang not in ("en", "de"):
        raise InputError(f"unknown language '{lang}'", file=name, path="lang", allowed="en, de")
    if ("workload" in data) == ("setup" in data):
        raise InputError("give exactly one of workload or setup", file=name, path="workload")
    expert = Expert(rules_dirs=rules_dirs, catalog_dirs=catalog_dirs)
    try:
        if "workload" in data:
            report = expert.advise(data["workload"], lang)
        else:
            report = expert.audit(data["setup"], lang)
    except InputError as error:
        prefix = "workload" if "workload" in data else "setup"
        raise InputError(error.reason, file=name, path=f"{prefix}.{error.path}" if error.path else prefix,
                         allowed=error.allowed) from None
    return outcome_view(report)
