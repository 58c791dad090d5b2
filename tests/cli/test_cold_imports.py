"""What a command imports before it runs (issue 21): `--help` and declaring the sub-commands must
not load the chat, the rule engine, the configurator, the sizing core or the validators; each is
imported only by the command that needs it. Checked in a fresh interpreter through `sys.modules`."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
HEAVY = ("textual", "durable", "expert.configurator", "expert.sizing.estimate", "expert.sizing.memory",
         "expert.catalog.loader", "expert.engine.compiler", "pydantic", "jsonschema", "yaml", "tui")
PROBE = """
import json, sys
from expert.cli.main import main
try:
    main(ARGS)
except SystemExit:
    pass
print("\\n" + json.dumps(sorted(sys.modules)))
"""


def _modules_after(*args: str) -> set[str]:
    got = subprocess.run([sys.executable, "-c", PROBE.replace("ARGS", repr(list(args)))], cwd=ROOT,
                         capture_output=True, text=True, timeout=300, check=True)
    return set(json.loads(got.stdout.strip().splitlines()[-1]))


def _loaded(modules: set[str], prefix: str) -> bool:
    return any(m == prefix or m.startswith(prefix + ".") for m in modules)


@pytest.mark.parametrize("args", [["--help"], ["advise", "--help"], ["estimate", "--help"], ["audit", "--help"]])
def test_help_imports_nothing_heavy(args):
    modules = _modules_after(*args)
    assert "expert.cli.advise" in modules and "expert.cli.estimate" in modules   # the parser was built
    assert [name for name in HEAVY if _loaded(modules, name)] == []


def test_estimate_needs_no_engine_configurator_or_chat():
    _modules_after("estimate", "--model", "llama-3.1-8b", "--gpu", "l40s")   # fills the compiled cache
    modules = _modules_after("estimate", "--model", "llama-3.1-8b", "--gpu", "l40s")
    assert _loaded(modules, "expert.sizing.estimate")                           # the command ran
    # the catalog came from the compiled cache: neither YAML parsing nor JSON Schema validation
    assert [name for name in ("textual", "tui", "durable", "expert.configurator", "jsonschema")
            if _loaded(modules, name)] == []


def test_lazy_package_names_are_the_functions_not_the_submodules():
    # expert.sizing.cost and expert.configurator.search are submodules and public functions at once
    import expert.configurator.search  # noqa: F401 - imports the submodule first
    import expert.sizing.cost  # noqa: F401
    from expert.configurator import search
    from expert.sizing import capacity, cost, estimate

    assert [f.__module__ for f in (search, cost, capacity, estimate)] == [
        "expert.configurator.configure", "expert.sizing.cost", "expert.sizing.capacity", "expert.sizing.estimate"]
