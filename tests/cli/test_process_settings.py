"""What the console entry point `run` sets for its process (issue 21): pydantic's plugins are
switched off unless the user chose a value of PYDANTIC_DISABLE_PLUGINS, a one-shot command runs with
the cyclic garbage collector off while the chat keeps it, and every object is frozen before exit.
Checked in a fresh interpreter with `main` replaced by a probe that records the state it runs in."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PROBE = """
import gc, json, os, sys
import expert.cli.main as cli
seen = {}
def probe():
    seen.update(plugins=os.environ.get("PYDANTIC_DISABLE_PLUGINS"), gc=gc.isenabled())
    return 7
cli.main = probe
sys.argv = ["gpu-expert", *ARGS]
try:
    cli.run()
except SystemExit as exit:
    seen.update(code=exit.code, frozen=gc.get_freeze_count() > 0)
print(json.dumps(seen))
"""


def _run(args: list[str], plugins: str | None) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "PYDANTIC_DISABLE_PLUGINS"}
    if plugins is not None:
        env["PYDANTIC_DISABLE_PLUGINS"] = plugins
    got = subprocess.run([sys.executable, "-c", PROBE.replace("ARGS", repr(args))], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=120, check=True)
    return json.loads(got.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("args", [["advise", "examples/rag-agent.yaml"], ["--help"], ["estimate", "--help"]])
def test_one_shot_command_runs_without_gc_and_plugins(args):
    assert _run(args, None) == {"plugins": "__all__", "gc": False, "code": 7, "frozen": True}


@pytest.mark.parametrize("args", [[], ["chat"], ["--lang", "de"]])
def test_chat_keeps_the_garbage_collector(args):
    assert _run(args, None) == {"plugins": "__all__", "gc": True, "code": 7, "frozen": True}


@pytest.mark.parametrize("value", ["", "logfire", "1"])
def test_a_value_set_by_the_user_is_kept(value):
    # empty keeps every plugin (pydantic.plugin._loader); a name list disables those plugins only
    assert _run(["advise", "--help"], value)["plugins"] == value
