"""The outcome of a scenario as stable, readable data for a snapshot.

What is kept:

- `recommendation`: the chosen configuration and its key numbers (GPU, count, source, offer,
  provider, hosting country, precision, monthly cost, TCO, latency, headroom);
- `alternatives`: the same numbers for each alternative, with why it lost;
- `memory` and `capacity` (advice) — the sizing numbers the choice rests on; `agent` for an agent
  loop (sessions, KV per session, cache hit rate, task latency; docs/agents.md);
- `findings`: rule id, category, severity, title, explanation and the facts behind each finding;
- `training_plan` (fine-tuning: the chosen source of the runs' GPUs, the cost lines, the plan's lines)
  and `pool` (a pool of agents: its lines);
- `fired_rules`: every rule that fired, in firing order, with the facts it matched and derived.
  Of each matched fact only the fields the rule looks at are kept (fields tested in `when`, fields
  named by `{ref: ...}`, by its texts and by its `facts:` list, plus the kind `t`), so a change of
  one number shows up only where a rule depends on it.

Precision: the JSON writer sorts keys; every float is rounded to `DECIMALS` = 2 decimals (money to
the centime, memory to 10 MB, shares to one percent point), and -0.0 is written as 0.0. Nothing
volatile is included: no paths, times, session ids or versions.
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from typing import Any, Iterable

from expert.errors import InputError
from expert.report.build import rounded
from expert._plumbing.fileio import load_mapping

DECIMALS = 2
CHOICE_KEYS = ("gpu", "count", "source", "package", "offer", "provider", "country", "precision",
               "tensor_parallel", "replicas", "monthly_cost_chf", "tco_chf", "horizon_months",
               "latency_p95_s", "headroom", "fits")
FINDING_KEYS = ("rule_id", "category", "severity", "title", "explanation", "facts")
SCENARIO_KEYS = ("description", "lang", "workload", "setup", "expect")


def _choice(choice: dict | None) -> dict | None:
    return None if choice is None else {k: choice.get(k) for k in CHOICE_KEYS if choice.get(k) is not None}


def _refs(value: Any, found: list[str]) -> list[str]:
    """Every `{ref: alias.field}` target inside a dumped test or derive value."""
    if isinstance(value, dict):
        if isinstance(value.get("ref"), str):
            found.append(value["ref"])
        for item in value.values():
            _refs(item, found)
    elif isinstance(value, list):
        for item in value:
            _refs(item, found)
    return found


def rule_fields(rule) -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    """(fields by alias, fields by fact kind for unaliased patterns) that a rule looks at."""
    from expert.engine.rulepack import AnyOf, Not
    from expert.engine.templates import placeholders

    by_alias: dict[str, set[str]] = defaultdict(set)
    by_kind: dict[str, set[str]] = defaultdict(set)

    def use(path: str) -> None:
        alias, _, field = path.partition(".")
        by_alias[alias].add(field.split(".")[0])

    for condition in rule.when:
        if isinstance(condition, Not):
            for path in _refs(condition.not_.model_dump(by_alias=True), []):
                use(path)
            continue
        for pattern in condition.any if isinstance(condition, AnyOf) else [condition]:
            target = by_alias[pattern.as_] if pattern.as_ else by_kind[pattern.fact]
            for name, test in pattern.where.items():
                target.add(name.split(".")[0])
                dumped = test.model_dump(by_alias=True) if hasattr(test, "model_dump") else test
                for path in _refs(dumped, []):
                    use(path)
    for derive in rule.then.derive:
        for path in _refs({k: (v.model_dump() if hasattr(v, "model_dump") else v)
                           for k, v in derive.set.items()}, []):
            use(path)
    for text in (rule.title, rule.explanation, rule.advice):
        for lang_text in (text.en, text.de):
            for placeholder in placeholders(lang_text):
                use(placeholder.path)
    for path in rule.facts or ():
        use(path)
    return dict(by_alias), dict(by_kind)


def _rules_by_id(rules_dirs: Iterable[str | Path]) -> dict[str, Any]:
    from expert.engine.rule_base import load_rule_packs

    return {rule.id: rule for pack in load_rule_packs(rules_dirs) for rule in pack.rules}


def _firing(firing: dict, rules: dict[str, Any]) -> dict:
    rule = rules.get(firing["rule_id"])
    if rule is None:  # not one of these packs: keep the facts whole
        return firing
    by_alias, by_kind = rule_fields(rule)
    matched = {}
    for key, fact in firing["matched"].items():
        fields = by_alias.get(key, by_kind.get(fact.get("t"), set())) if isinstance(fact, dict) else None
        matched[key] = fact if fields is None else {f: v for f, v in fact.items() if f == "t" or f in fields}
    return {**firing, "matched": matched}


def outcome_view(report, rules_dirs: Iterable[str | Path] = ()) -> dict[str, Any]:
    """The snapshot view of a report (see the module docstring); `rules_dirs` as for the report."""
    data = report.model_dump(mode="json")
    rules = _rules_by_id(rules_dirs)
    view = {
        "kind": data["kind"],
        "recommendation": _choice(data.get("recommendation")),
        "alternatives": [{**_choice(a), "why_not": a["why_not"]} for a in data.get("alternatives", [])],
        "nothing_fits": data.get("nothing_fits"),
        "findings": [{k: f[k] for k in FINDING_KEYS} for f in data.get("findings", [])],
        "fired_rules": [_firing(f, rules) for f in data.get("fired_rules", [])],
    }
    for key in ("memory", "capacity", "agent"):
        if data.get(key):
            view[key] = data[key]
    plan = data.get("training_plan")
    if plan:  # issue 12: where the fine-tuning runs go and the cost lines, as the answer states them
        view["training_plan"] = {"chosen": plan["chosen"], "cost_lines": plan["cost_lines"], "lines": plan["lines"]}
    if data.get("pool"):
        view["pool"] = data["pool"]
    return rounded(view, DECIMALS)


def scenario_outcome(path: Path, rules_dirs=(), catalog_dirs=(), display: str | None = None) -> dict[str, Any]:
    """Evaluate one scenario file and return its outcome view.

    A scenario file holds `workload:` (advice) or `setup:` (audit), optionally `lang` (en | de),
    a `description` and an `expect:` block (`expert.testing.expectations`). Bad input raises
    `InputError` naming the file, the field path and the reason (`workload.requests_per_day: ...`);
    `display` is the file name to show (default: `path`).
    """
    return scenario_result(path, rules_dirs, catalog_dirs, display)[0]


def scenario_result(path: Path, rules_dirs=(), catalog_dirs=(), display: str | None = None):
    """(outcome view, violated expectations, xfail reason or None) of one scenario file."""
    from expert.api import Expert
    from expert.engine.rulepack import CATEGORIES
    from expert.facts.input_facts import gpu_family
    from expert.engine.rule_base import load_rule_packs, rule_base
    from expert.testing.expectations import check, parse_expectation

    name, data = load_mapping(path)
    name = display or name
    unknown = sorted(set(data) - set(SCENARIO_KEYS), key=str)
    if unknown:
        raise InputError("unknown field", file=name, path=str(unknown[0]), allowed=", ".join(SCENARIO_KEYS))
    lang = data.get("lang", "en")
    if lang not in ("en", "de"):
        raise InputError(f"unknown language '{lang}'", file=name, path="lang", allowed="en, de")
    if ("workload" in data) == ("setup" in data):
        raise InputError("give exactly one of workload or setup", file=name, path="workload")
    kind = "workload" if "workload" in data else "setup"
    if not isinstance(data[kind], dict):
        raise InputError(f"must be a mapping, got {type(data[kind]).__name__}", file=name, path=kind)
    expert = Expert(rules_dirs=rules_dirs, catalog_dirs=catalog_dirs)  # a bad catalog file names itself
    rule_base(rules_dirs)  # a bad rule pack names itself too, not the scenario
    expect = None
    if data.get("expect") is not None:
        rule_ids = {rule.id for pack in load_rule_packs(rules_dirs) for rule in pack.rules}
        expect = parse_expectation(data["expect"], name, kind, rule_ids, set(CATEGORIES))
    try:
        report = expert.advise(data[kind], lang) if kind == "workload" else expert.audit(data[kind], lang)
    except InputError as error:
        raise InputError(error.reason, file=name, path=f"{kind}.{error.path}" if error.path else kind,
                         allowed=error.allowed) from None
    outcome = outcome_view(report, rules_dirs)
    if expect is None:
        return outcome, [], None
    rec = outcome.get("recommendation")
    family = gpu_family(expert.catalog.gpu(rec["gpu"])) if rec else None
    return outcome, check(expect, outcome, family), expect.xfail_reason
