"""Caches key on values, never on `id()` (issue 17): equal assumptions share a key, changed ones do
not; the configurator's cache keys are the inputs of the step they cache (`configurator.keys`)."""

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
    # the one left: fileio counts nodes of one parse tree in memory
    assert all(f.startswith("expert/_plumbing/fileio.py") for f in found), found
