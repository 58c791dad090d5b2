"""Where the shipped data lives: `rules/` and `knowledge/`, in a wheel or in a source checkout.

A wheel carries them inside the package as `expert/_data/rules` and `expert/_data/knowledge`
(see pyproject.toml, force-include); a source checkout or editable install keeps them at the
repository's top level, beside `expert/`.
"""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parents[1]  # expert/, above this _plumbing/


def data_dir(name: str) -> Path:
    """The directory of shipped data `name` ('rules' or 'knowledge')."""
    for candidate in (_PACKAGE / "_data" / name, _PACKAGE.parent / name):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"shipped data directory '{name}' not found next to {_PACKAGE}")


def knowledge_dir() -> Path:
    """The built-in catalog directory."""
    return data_dir("knowledge")


def rules_dir() -> Path:
    """The built-in rule packs directory."""
    return data_dir("rules")


def schema_path(name: str) -> Path:
    """A shipped JSON Schema, e.g. `schema_path('workload')`."""
    return knowledge_dir() / "schemas" / f"{name}.schema.json"
