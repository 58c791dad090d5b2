"""What a command imports before it runs (issue 21): `--help` and declaring the sub-commands must
not load the chat, the rule engine, the configurator, the sizing core or the validators; each is
imported only by the command that needs it. Checked in a fresh interpreter through `sys.modules`."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from expert.cli.main import MODULES, build_parser

ROOT = Path(__file__).resolve().parents[2]
HEAVY = ("textual", "durable", "expert.configurator", "expert.sizing.combined", "expert.sizing.memory",
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


@pytest.mark.parametrize("args, declared", [(["--help"], "estimate"), (["advise", "--help"], "advise"),
                                            (["estimate", "--help"], "estimate"), (["audit", "--help"], "advise")])
def test_help_imports_nothing_heavy(args, declared):
    modules = _modules_after(*args)
    assert f"expert.cli.{declared}" in modules   # the parser was built
    assert [name for name in HEAVY if _loaded(modules, name)] == []


@pytest.mark.parametrize("args, declared", [(["--help"], set(MODULES)), (["audit", "--help"], {"advise"}),
                                            (["explain", "--help"], {"rules"}), (["nonsense"], set(MODULES))])
def test_a_command_declares_only_its_own_module(args, declared):
    modules = _modules_after(*args)
    assert {name for name in MODULES if f"expert.cli.{name}" in modules} == declared


def test_one_command_parses_as_with_every_command_declared():
    runs = [["advise", "examples/rag-agent.yaml", "--format", "json", "--rules-dir", "r", "--catalog-dir", "c"],
            ["audit", "f.yaml", "--fail-on", "warning"], ["explain", "g5-latency"], ["catalog", "gpus"],
            ["estimate", "--model", "llama-3.1-8b", "--gpu", "l40s", "--count", "2"], ["chat", "--lang", "de"],
            ["cost", "--gpu", "h100-sxm", "--hours", "10"], ["rules"], ["validate", "x.yaml"]]
    for argv in runs:
        got = [vars(build_parser(command).parse_known_args(argv)[0]) for command in (argv[0], None)]
        assert got[0] == got[1], argv


@pytest.mark.parametrize("argv", [["advise", "x.yaml", "--format", "nope"], ["estimate", "--count", "-1"],
                                  ["audit", "--help"], ["explain"]])
def test_one_command_fails_and_helps_as_with_every_command_declared(argv, capsys):
    said = []
    for command in (argv[0], None):
        with pytest.raises(SystemExit) as stop:
            build_parser(command).parse_args(argv)
        said.append((stop.value.code, *capsys.readouterr()))
    assert said[0] == said[1] and said[0][0] in (0, 2)


def test_estimate_needs_no_engine_configurator_or_chat():
    _modules_after("estimate", "--model", "llama-3.1-8b", "--gpu", "l40s")   # fills the compiled cache
    modules = _modules_after("estimate", "--model", "llama-3.1-8b", "--gpu", "l40s")
    assert _loaded(modules, "expert.sizing.combined")                           # the command ran
    # the catalog came from the compiled cache: neither YAML parsing nor JSON Schema validation
    assert [name for name in ("textual", "tui", "durable", "expert.configurator", "jsonschema")
            if _loaded(modules, name)] == []


def test_lazy_package_names_are_the_functions_of_the_modules_they_map_to():
    # each name is read from the submodule its package's export map names, also after that submodule
    # was imported on its own (which binds the submodule, under its own name, on the package)
    import expert.configurator.enumeration  # noqa: F401
    import expert.sizing.tco  # noqa: F401
    from expert.configurator import search
    from expert.sizing import capacity, cost, estimate

    assert [f.__module__ for f in (search, cost, capacity, estimate)] == [
        "expert.configurator.configure", "expert.sizing.tco", "expert.sizing.replicas", "expert.sizing.combined"]
