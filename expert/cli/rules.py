"""`gpu-expert rules` and `gpu-expert explain RULE_ID`: the knowledge base, readable."""

from __future__ import annotations

from expert.cli.options import FORMATS_TEXT_JSON, LANGS, common_parent
from expert.errors import InputError


def register(commands) -> None:
    """Add the `rules` and `explain` commands."""
    rules = commands.add_parser("rules", parents=[common_parent()],
                                help="list every rule: id, title, category, source")
    rules.add_argument("--format", choices=FORMATS_TEXT_JSON, default="text")
    rules.add_argument("--lang", choices=LANGS, default="en")
    rules.set_defaults(run=run_rules)

    explain = commands.add_parser("explain", parents=[common_parent()],
                                  help="show one rule's text, conditions and source")
    explain.add_argument("rule_id", metavar="RULE_ID")
    explain.add_argument("--lang", choices=LANGS, default="en")
    explain.add_argument("--format", choices=FORMATS_TEXT_JSON, default="text")
    explain.set_defaults(run=run_explain)


def _all_rules(args):
    from expert.engine.rule_base import load_rule_packs

    return [rule for pack in load_rule_packs(args.rules_dir) for rule in pack.rules]


def run_rules(args) -> int:
    """Print the rule list."""
    from expert._plumbing.fileio import dumps_json

    rules = _all_rules(args)
    rows = [{"rule_id": r.id, "title": getattr(r.title, args.lang), "category": r.category,
             "severity": r.severity, "source": {"document": r.source.document, "section": r.source.section,
                                                **({"reference": r.source.reference} if r.source.reference else {})}}
            for r in rules]
    if args.format == "json":
        print(dumps_json(rows), end="")
        return 0
    from expert.messages import t, value_word

    for row in rows:          # the JSON keeps the ids; the text says category and severity in `--lang`
        src, lang = row["source"], args.lang
        category = value_word("category", row["category"], lang) or row["category"]
        print(f"{row['rule_id']}  [{category}, {t('severity.word.' + row['severity'], lang)}]  {row['title']}  "
              f"({src['document']}: {src['section']})")
    return 0


def run_explain(args) -> int:
    """Print one rule in the chosen language with its source."""
    from expert._plumbing.fileio import dumps_json

    from expert.report.explain import explain_rule, unknown_rule

    rules = {r.id: r for r in _all_rules(args)}
    rule = rules.get(args.rule_id)
    if rule is None:                     # in `--lang`, with the close ids (QA 47 #14)
        raise InputError(unknown_rule(args.rule_id, list(rules), args.lang))

    if args.format == "json":
        print(dumps_json(rule.model_dump(mode="json", exclude_none=True)), end="")
    else:
        print(explain_rule(rule, args.lang))
    return 0
