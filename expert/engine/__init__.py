"""The rule engine: rule packs as data (YAML), compiled for durable-rules behind a small facade.

Typical use::

    from expert.engine import load_packs, prepare, evaluate
    rules = prepare(load_packs([rules_dir()]))          # validate and compile once
    result = evaluate(rules, facts, lang="de")           # fresh engine session per call
    result.fired, result.findings, result.derived

Modules: `rulepack` (the typed format), `checks` (cross-field rules of the format), `loader`
(reading files), `templates` (safe text filling), `compiler` (rules → durable ruleset dict),
`session` and `facade` (evaluation), `results` (what an evaluation returns), `schema_gen` (the
shipped JSON Schema), `rule_base` (the built-in packs of `rules/` plus an organisation's own, loaded
and compiled once per process). Writing rule packs: docs/rules.md.
"""

from __future__ import annotations

from expert._plumbing.lazy import lazy_exports

_EXPORTS = {
    **dict.fromkeys(('RuleBase', 'compile_packs', 'ruleset_name'), 'compiler'),
    **dict.fromkeys(('evaluate', 'prepare', 'register'), 'facade'),
    **dict.fromkeys(('load_pack', 'load_packs', 'parse_pack'), 'loader'),
    **dict.fromkeys(('Evaluation', 'Finding', 'FindingSource', 'Firing'), 'results'),
    **dict.fromkeys(('CATEGORIES', 'Rule', 'RulePack'), 'rulepack'),
}

__all__ = ["CATEGORIES", "Evaluation", "Finding", "FindingSource", "Firing", "Rule", "RuleBase",
           "RulePack", "compile_packs", "evaluate", "load_pack", "load_packs", "parse_pack",
           "prepare", "register", "ruleset_name"]

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
