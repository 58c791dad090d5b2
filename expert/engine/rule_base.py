"""The rule base: the built-in rule packs (`rules/`) plus an organisation's own, loaded and compiled once.

Packs are compiled in a canonical order that depends on their content only: the built-in packs by
pack name, then every `--rules-dir` pack by pack name (pack names are unique). The order of the
directories, the names of the files and the order the operating system lists them in do not
matter, so renaming pack files or passing `--rules-dir` in another order cannot
change which rule fires first among rules ready at the same moment (use `priority` for that) nor
the order of findings: the same packs always give byte-identical output.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Iterable

from expert._plumbing.paths import rules_dir


def load_rule_packs(extra_dirs: Iterable[str | Path] = ()):
    """Every rule pack: built-in first, then the organisation's directories."""
    return list(_packs(tuple(str(Path(d).resolve()) for d in extra_dirs)))


def rule_base(extra_dirs: Iterable[str | Path] = ()):
    """The compiled rule base for these directories (cached per process)."""
    return _rule_base(tuple(str(Path(d).resolve()) for d in extra_dirs))


def check_vocabulary(pack, path: Path) -> None:
    """Reject a rule that tests a field of an input fact that the vocabulary does not define, or
    that derives an input fact (`choice`, `sizing`, ...: asserted by the program alone, so a pack
    deriving one would make the built-in rules fire on a recommendation nobody computed)."""
    from expert.engine.rulepack import AnyOf, Not
    from expert.errors import InputError
    from expert.facts.vocabulary import INPUT_FACTS

    for index, rule in enumerate(pack.rules):
        for number, derived in enumerate(rule.then.derive):
            if derived.fact in INPUT_FACTS:
                raise InputError(
                    f"rule '{rule.id}' derives a '{derived.fact}' fact, which only the program asserts",
                    file=str(path), path=f"rules[{index}].then.derive[{number}].fact",
                    allowed="a kind of your own, e.g. flag, tier, size (not " + ", ".join(INPUT_FACTS) + ")")
        patterns = []   # (field path of the pattern, pattern): the error names the field's full path
        for number, condition in enumerate(rule.when):
            at = f"rules[{index}].when[{number}]"
            if isinstance(condition, AnyOf):
                patterns += [(f"{at}.any[{branch}]", p) for branch, p in enumerate(condition.any)]
            elif isinstance(condition, Not):
                patterns.append((f"{at}.not", condition.not_))
            else:
                patterns.append((at, condition))
        for at, pattern in patterns:
            known = INPUT_FACTS.get(pattern.fact)
            if known is None:
                continue
            for field in pattern.where:
                if field not in known:
                    raise InputError(
                        f"rule '{rule.id}': fact '{pattern.fact}' has no field '{field}'", file=str(path),
                        path=f"{at}.where.{field}", allowed=", ".join(sorted(known)))


def check_templates(pack, path: Path) -> None:
    """Reject a text placeholder that advice would fail on: a field the input fact does not have,
    a field descended into (`{c.gpu.upper}`) or a number filter on a value that is not a number."""
    from expert.engine.checks import TEXTS
    from expert.engine.rulepack import Pattern
    from expert.engine.templates import FILTERS, placeholders
    from expert.errors import InputError
    from expert.facts.vocabulary import INPUT_FACTS, NUM

    for index, rule in enumerate(pack.rules):
        kinds = {c.as_: c.fact for c in rule.when if isinstance(c, Pattern) and c.as_ and c.fact in INPUT_FACTS}
        for name in TEXTS:
            text = getattr(rule, name, None)
            data = text.model_dump() if hasattr(text, "model_dump") else text
            for value in (data.values() if isinstance(data, dict) else [data]):
                for hole in placeholders(value) if isinstance(value, str) else []:
                    if hole.alias not in kinds:
                        continue
                    known = INPUT_FACTS[kinds[hole.alias]]
                    head, _, rest = hole.field.partition(".")
                    where = dict(file=str(path), path=f"rules[{index}].{name}")
                    if head not in known:
                        raise InputError(f"rule '{rule.id}': {{{hole.path}}}: fact '{kinds[hole.alias]}' has no "
                                         f"field '{head}'", allowed=", ".join(sorted(known)), **where)
                    kind = known[head][0]
                    if rest:
                        raise InputError(f"rule '{rule.id}': {{{hole.path}}}: '{head}' is a {kind}, it has no "
                                         "fields", **where)
                    if hole.filter in FILTERS and kind != NUM:
                        raise InputError(f"rule '{rule.id}': {{{hole.path}|{hole.filter}}}: the filter takes a "
                                         f"number, '{head}' is a {kind}", **where)


def rule_files(extra: tuple[str, ...]) -> list[Path]:
    """Every rule pack file of the built-in and the organisation's directories, as the loader reads
    them (`*.yaml`); a directory that is not there lists itself (the loader then refuses it)."""
    files: list[Path] = []
    for directory in [rules_dir(), *map(Path, extra)]:
        files += sorted(directory.glob("*.yaml"), key=lambda p: p.name) if directory.is_dir() else [directory]
    return files


def check_pack(pack, path: Path) -> None:
    """Every check of a pack beyond its schema: the vocabulary and the text placeholders."""
    check_vocabulary(pack, path)
    check_templates(pack, path)


def check_kinds(loaded: list[tuple]) -> None:
    """Refuse a pattern over a fact kind that nothing asserts: neither an input fact nor a kind that a
    rule of these (pack, path) pairs derives — such a rule could never fire (a typo such as `choise`)."""
    from expert.engine.rulepack import AnyOf, Not
    from expert.errors import InputError
    from expert.facts.vocabulary import INPUT_FACTS

    known = set(INPUT_FACTS) | {d.fact for pack, _ in loaded for rule in pack.rules for d in rule.then.derive}
    for pack, path in loaded:
        for index, rule in enumerate(pack.rules):
            for number, condition in enumerate(rule.when):
                patterns = (condition.any if isinstance(condition, AnyOf) else
                            [condition.not_] if isinstance(condition, Not) else [condition])
                for pattern in patterns:
                    if pattern.fact not in known:
                        raise InputError(
                            f"rule '{rule.id}' matches '{pattern.fact}' facts, which no input and no rule "
                            "asserts", file=str(path), path=f"rules[{index}].when[{number}]",
                            allowed="an input fact (" + ", ".join(INPUT_FACTS) + ") or a kind a rule derives")


def check_pack_alone(pack, path: Path) -> None:
    """`check_pack`, and `check_kinds` of this pack beside the built-in ones (what `validate` can
    know of one file: kinds derived by another organisation pack are not seen here)."""
    check_pack(pack, path)
    check_kinds([(builtin, rules_dir()) for builtin in _parsed(())] + [(pack, path)])


@lru_cache(maxsize=8)
def _parsed(extra: tuple[str, ...]):
    from expert.engine import load_packs

    loaded: list[tuple] = []

    def check(pack, path: Path) -> None:
        check_pack(pack, path)
        loaded.append((pack, path))

    packs = load_packs([rules_dir(), *map(Path, extra)], check=check)  # refuses duplicates
    check_kinds(loaded)
    builtin = {pack.pack for pack in _parsed(())} if extra else {pack.pack for pack in packs}
    return tuple(sorted(packs, key=lambda pack: (pack.pack not in builtin, pack.pack)))


def _packs(extra: tuple[str, ...]):
    return _rule_base(extra).packs


@lru_cache(maxsize=8)
def _rule_base(extra: tuple[str, ...]):
    """Parsed, checked and compiled once per process; between processes, from the compiled cache
    (`expert._plumbing.compiled`) while no pack file (nor this code) has changed."""
    from expert._plumbing.compiled import cached
    from expert.engine.compiler import RuleBase
    from expert.engine.facade import prepare

    return cached("rules", rule_files(extra), lambda: _with_parts(prepare(list(_parsed(extra)))), RuleBase)


SEPARATE_PACKS = ("document-pick",)
"""Packs also evaluated on their own (the documents' pick, `expert.configurator.document`)."""


def _with_parts(base):
    """The base with the smaller bases an advice evaluates made from it (`RuleBase.parts`, kept in
    its compiled cache): the documents' pick and the rules the advice's input kinds can reach."""
    from expert.facts.vocabulary import ADVICE_KINDS

    for pack in SEPARATE_PACKS:
        if any(p.pack == pack for p in base.packs):
            base.only(pack)
    base.reachable(ADVICE_KINDS)
    return base
