"""The knowledge base: built-in rule packs plus an organisation's own, loaded and compiled once.

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

from expert.paths import rules_dir


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
    from expert.vocabulary import INPUT_FACTS

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


@lru_cache(maxsize=8)
def _packs(extra: tuple[str, ...]):
    from expert.engine import load_packs

    packs = load_packs([rules_dir(), *map(Path, extra)], check=check_vocabulary)  # refuses duplicates
    builtin = {pack.pack for pack in _packs(())} if extra else {pack.pack for pack in packs}
    return tuple(sorted(packs, key=lambda pack: (pack.pack not in builtin, pack.pack)))


@lru_cache(maxsize=8)
def _rule_base(extra: tuple[str, ...]):
    from expert.engine import prepare

    return prepare(list(_packs(extra)))
