"""The knowledge base: built-in rule packs plus an organisation's own, loaded and compiled once.

Rule files are read in a canonical order (built-in directory first, then each `--rules-dir` in
the order given, files by name inside each), so the same packs always compile to the same
ruleset whatever order the operating system lists them in.
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


@lru_cache(maxsize=8)
def _packs(extra: tuple[str, ...]):
    from expert.engine import load_packs

    return tuple(load_packs([rules_dir(), *map(Path, extra)]))


@lru_cache(maxsize=8)
def _rule_base(extra: tuple[str, ...]):
    from expert.engine import prepare

    return prepare(list(_packs(extra)))
