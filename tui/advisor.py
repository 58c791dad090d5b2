"""Lazy access to the advice pipeline: `expert.api` is imported only when `load()` runs.

The app calls `load()` in a worker after the first question is on screen, so launch stays fast.
Tests may pass any object with the same three methods (`load`, `advise`, `audit`).
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any


class Advisor:
    """Wraps `expert.api.Expert`: built once, with the organisation's catalog and rule directories."""

    def __init__(self, catalog_dirs: tuple | list = (), rules_dirs: tuple | list = ()) -> None:
        self.catalog_dirs = tuple(catalog_dirs or ())
        self.rules_dirs = tuple(rules_dirs or ())
        self._expert: Any = None
        self._lock = threading.Lock()

    def load(self) -> None:
        """Import the pipeline and build the expert (catalog, rule packs, engine); idempotent."""
        with self._lock:
            if self._expert is None:
                self._expert = self._build()

    def _build(self) -> Any:
        from expert.api import Expert

        catalog = None
        if self.catalog_dirs:
            from expert.catalog import load_catalog

            catalog = load_catalog(tuple(Path(d) for d in self.catalog_dirs))
        return Expert(catalog=catalog, rules_dirs=self.rules_dirs)

    def advise(self, workload: dict, lang: str):
        """The advice report for a workload mapping (raises `expert.errors.InputError`)."""
        self.load()
        return self._expert.advise(workload, lang=lang)

    def audit(self, setup: dict, lang: str):
        """The audit report for a setup mapping (raises `expert.errors.InputError`)."""
        self.load()
        return self._expert.audit(setup, lang=lang)


def read_file(path: str | Path) -> tuple[dict, str]:
    """(mapping, text) of a workload or setup file; one-line `InputError` on any problem."""
    from expert.errors import InputError
    from expert.fileio import parse_document, read_text

    name, text = read_text(path)
    data = parse_document(text, name)
    if not isinstance(data, dict):
        raise InputError("top level must be a mapping", file=name)
    return data, text
