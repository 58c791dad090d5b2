"""Lazy access to the advice pipeline: `expert.api` is imported only when `load()` runs.

The app calls `load()` in a worker after the first question is on screen, so launch stays fast.
Tests may pass any object with the same three methods (`load`, `advise`, `audit`).
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from expert.messages import t


class Advisor:
    """Wraps `expert.api.Expert`: built once, with the organisation's catalog and rule directories."""

    def __init__(self, catalog_dirs: tuple | list = (), rules_dirs: tuple | list = ()) -> None:
        self.catalog_dirs = tuple(catalog_dirs or ())
        self.rules_dirs = tuple(rules_dirs or ())
        self._expert: Any = None
        self._aliases: dict[str, dict[str, str]] = {}
        self._lock = threading.Lock()

    @property
    def loaded(self) -> bool:
        """True once the pipeline is imported and built (then an answer takes milliseconds)."""
        return self._expert is not None

    def load(self) -> None:
        """Import the pipeline and build the expert (catalog, rule packs, engine); idempotent."""
        with self._lock:
            if self._expert is None:
                self._expert = self._build()

    def _build(self) -> Any:
        from expert.api import Expert

        expert = Expert(rules_dirs=self.rules_dirs, catalog_dirs=self.catalog_dirs)
        try:
            expert.preload()
        except Exception:  # noqa: BLE001 - a bad rule pack is reported by the first answer, as before
            pass
        return expert

    def model_aliases(self) -> dict[str, str] | None:
        """Every name the catalog knows for its models (id, name, aliases → id), including the
        organisation's own from `--catalog-dir`; None until the pipeline is loaded."""
        return self._names("models")

    def gpu_aliases(self) -> dict[str, str] | None:
        """The same for the catalog's GPUs (`H100` → `h100-sxm`)."""
        return self._names("gpus")

    def _names(self, table: str) -> dict[str, str] | None:
        if self._expert is None:
            return None
        if table not in self._aliases:
            names: dict[str, str] = {}
            for entry in getattr(self._expert.catalog, table).values():
                for name in (entry.id, entry.name, *entry.aliases):
                    names.setdefault(name, entry.id)
            self._aliases[table] = names
        return self._aliases[table]

    def advise(self, workload: dict, lang: str, sensitivity: bool = True):
        """The advice report for a workload mapping (raises `expert.errors.InputError`);
        `sensitivity=False` answers about twice as fast, without the sensitivity lines."""
        self.load()
        return self._expert.advise(workload, lang=lang, sensitivity=sensitivity)

    def audit(self, setup: dict, lang: str):
        """The audit report for a setup mapping (raises `expert.errors.InputError`)."""
        self.load()
        return self._expert.audit(setup, lang=lang)


    def explain(self, rule_id: str, lang: str) -> str:
        """One rule in words with its source, as `gpu-expert explain RULE_ID` prints it (the
        organisation's own rules from `--rules-dir` too); ValueError for an unknown id, naming
        the closest ids."""
        from expert.engine.rule_base import load_rule_packs
        from expert.report.explain import explain_rule, unknown_rule

        rules = {r.id: r for pack in load_rule_packs(self.rules_dirs) for r in pack.rules}
        if rule_id not in rules:
            raise ValueError(unknown_rule(rule_id, list(rules), lang))
        return explain_rule(rules[rule_id], lang)

    def purchase(self, gpu: str, count: int, months: int) -> tuple[float, float, float, int] | None:
        """(up front CHF, running CHF per month, resale CHF at the end, months) of buying `count` ×
        `gpu` as a complete system (`Catalog.system`, priced by the core's `expert.sizing.buyrent.owned`);
        None when there is no price or no chassis takes that count."""
        try:
            from expert.catalog.bom import system_power_w, total_chf
            from expert.configurator.enumeration import default_assumptions
            from expert.sizing.buyrent import owned

            catalog = self._expert.catalog
            entry = catalog.purchase_price(gpu) or catalog.purchase_price(gpu, "used")
            found = entry and catalog.system(gpu, count, entry.condition)
            if not found:
                return None
            line = owned(gpu, total_chf(found[1]).mid, system_power_w(found[0], catalog.gpus[gpu], count),
                         months, default_assumptions(catalog))
        except Exception:  # noqa: BLE001 - the chart then compares what the report holds
            return None
        return line.upfront, line.monthly, line.resale, months


def read_file(path: str | Path, lang: str = "en") -> tuple[dict, str]:
    """(mapping, text) of a workload or setup file; one-line `InputError` on any problem (a missing
    file, a folder and a file that is not a mapping are said in `lang`; a YAML syntax error keeps the
    parser's English detail)."""
    from expert.errors import InputError
    from expert._plumbing.fileio import parse_document, read_text

    if not Path(path).exists():
        raise InputError(t("chat.file.missing", lang), file=str(path))
    if Path(path).is_dir():
        raise InputError(t("chat.file.directory", lang), file=str(path))
    name, text = read_text(path)
    data = parse_document(text, name)
    if not isinstance(data, dict):
        raise InputError(t("chat.file.not_a_mapping", lang), file=name)
    return data, text
