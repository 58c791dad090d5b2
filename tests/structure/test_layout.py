"""The package's names stay plain (issue 29): no exported name is also a submodule's name, and no
module swaps a module's class.

Importing a submodule makes Python bind it on its package under its own name; a package that also
exported a function of that name (`expert.sizing.cost` was both) then answered with the module
instead. Keeping the two sets of names apart lets every package use a plain PEP 562 `__getattr__`.
"""

from __future__ import annotations

import ast
import importlib
import pkgutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = sorted({".".join(p.relative_to(ROOT).parent.parts)
                   for top in ("expert", "tui") for p in (ROOT / top).rglob("__init__.py")})


def exported(package) -> set[str]:
    """The names a package promises: its `__all__` and its lazy-export map."""
    return set(getattr(package, "__all__", ())) | set(getattr(package, "_EXPORTS", {}))


@pytest.mark.parametrize("name", PACKAGES)
def test_no_exported_name_is_a_submodule(name):
    package = importlib.import_module(name)
    submodules = {m.name for m in pkgutil.iter_modules(package.__path__)}
    assert exported(package) & submodules == set()


def test_the_lazy_names_are_read_from_their_modules():
    import expert
    import expert.sizing

    assert expert.audit.__module__ == "expert.api" and expert.Expert.__module__ == "expert.api"
    assert {"estimate", "cost", "ENGINES"} <= set(dir(expert.sizing))
    with pytest.raises(AttributeError, match="no attribute 'nonsense'"):
        expert.sizing.nonsense  # noqa: B018


def test_no_module_assigns_a_class_to_a_module():
    found = []
    for path in [*ROOT.glob("expert/**/*.py"), *ROOT.glob("tui/**/*.py")]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets = node.targets if isinstance(node, ast.Assign) else []
            for target in targets:
                if isinstance(target, ast.Attribute) and target.attr == "__class__":
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert found == []


def test_the_check_sees_a_collision(tmp_path, monkeypatch):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("__all__ = ['cost', 'rent']\n")
    (tmp_path / "pkg" / "cost.py").write_text("def cost():\n    return 1\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    package = importlib.import_module("pkg")
    assert exported(package) & {m.name for m in pkgutil.iter_modules(package.__path__)} == {"cost"}
