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
    """Reject a rule that tests a field of an input fact that the vocabulary does not define."""
    from expert.engine.rulepack import AnyOf, Not
    from expert.errors import InputError
    from expert.facts.vocabulary import INPUT_FACTS

    for index, rule in enumerate(pack.rules):
        patterns = []
        for condition in rule.when:
            if isinstance(condition, AnyOf):
                patterns += condition.any
            elif isinstance(condition, Not):
                patterns.append(condition.not_)
            else:
                patterns.append(condition)
        for pattern in patterns:
            known = INPUT_FACTS.get(pattern.fact)
            if known is None:
                continue
            for field in pattern.where:
                if field not in known:
                    raise InputError(
                        f"rule '{rule.id}': fact '{pattern.fact}' has no field '{field}'", file=str(path),
                        path=f"rules[{index}].when", allowed=", ".join(sorted(known)))


def rule_files(extra: tuple[str, ...]) -> list[Path]:
    """Every rule pack file of the built-in and the organisation's directories, as the loader reads
    them (`*.yaml`); a directory that is not there lists itself (the loader then refuses it)."""
    files: list[Path] = []
    for directory in [rules_dir(), *map(Path, extra)]:
        files += sorted(directory.glob("*.yaml"), key=lambda p: p.name) if directory.is_dir() else [directory]
    return files


@lru_cache(maxsize=8)
def _parsed(extra: tuple[str, ...]):
    from expert.engine import load_packs

    packs = load_packs([rules_dir(), *map(Path, extra)], check=check_vocabulary)  # refuses duplicates
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
