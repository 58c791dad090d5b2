"""Caches key on values, never on `id()` (issue 17): equal assumptions share a key, changed ones do
not, and a serving-cache entry answers only for the very profile it was computed for."""

from __future__ import annotations

from expert.sizing.constants import DEFAULT, Assumptions


def test_assumptions_keys_follow_their_values():
    assert Assumptions().key == DEFAULT.key                         # equal values, another object
    changed = DEFAULT.override(electricity_chf_per_kwh=0.2)
    assert changed.key != DEFAULT.key
    assert changed.override(electricity_chf_per_kwh=0.18).key == DEFAULT.override(electricity_chf_per_kwh=0.18).key


def test_no_module_keys_a_cache_on_id():
    import ast
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    found = []
    for path in [*root.glob("expert/**/*.py"), *root.glob("tui/**/*.py")]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "id":
                found.append(f"{path.relative_to(root)}:{node.lineno}")
    # the one left: the serving cache keys on the profile's id and checks the entry holds that profile
    # (expert/configurator/feasibility.py `_serving`); fileio counts nodes of one parse tree in memory
    assert sorted(found) == sorted(f for f in found if f.startswith(("expert/configurator/feasibility.py",
                                                                     "expert/_plumbing/fileio.py")))
    assert len([f for f in found if f.startswith("expert/configurator/feasibility.py")]) == 1
