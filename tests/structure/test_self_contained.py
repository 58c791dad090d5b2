"""A clone is complete: no file of the repository points at a path outside it.

The project's shared notes, contract, reference tables and source documents live in `docs/`; a path
such as `shared/CONTRACT.md` or an absolute `/work/...` resolves on one machine only.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SKIP_DIRS = {".git", ".venv", "build", "dist", "__pycache__", ".hypothesis", ".pytest_cache", "__snapshots__"}
TEXT = {".py", ".md", ".toml", ".yaml", ".yml", ".txt", ".csv", ".json", ""}
OUTSIDE = re.compile(r"(?<![\w.-])(shared/[\w.-]+|/work/[\w.-]+|/home/[\w.-]+|/tmp/[\w.-]+)")


def repository_text_files(root: Path = ROOT) -> list[Path]:
    """Every text file of the repository outside build, cache and environment folders."""
    return [p for p in root.rglob("*") if p.is_file() and p.suffix in TEXT
            and not SKIP_DIRS.intersection(p.relative_to(root).parts) and not p.name.endswith(".egg-info")
            and not p.relative_to(root).parts[0].startswith(".venv")]   # .venv-3.13: `make VENV=…`


def outside_references(text: str) -> list[str]:
    """The paths in `text` that point outside the repository."""
    return OUTSIDE.findall(text)


def test_no_file_refers_outside_the_repository():
    found = {}
    for path in repository_text_files():
        if path.resolve() == Path(__file__).resolve():
            continue
        hits = outside_references(path.read_text(encoding="utf-8", errors="replace"))
        if hits:
            found[str(path.relative_to(ROOT))] = sorted(set(hits))
    assert not found, found


def test_the_check_recognises_outside_paths():
    assert outside_references("see shared/CONTRACT.md and /work/shared/seeds") == ["shared/CONTRACT.md",
                                                                                   "/work/shared"]
    assert outside_references("docs/contract.md, knowledge/shared_cache, expert/advice.py") == []


def test_the_documents_behind_the_references_are_here():
    for relative in ("docs/contract.md", "docs/notes/durable-rules.md", "docs/notes/sizing-references.md",
                     "docs/reference/gpu-specs.csv", "docs/reference/model-architectures.csv",
                     "docs/knowledge-inventory.md"):
        assert (ROOT / relative).is_file(), relative
    assert sorted(p.name[:3] for p in (ROOT / "docs" / "sources").glob("*.txt")) == ["000", "004"]
