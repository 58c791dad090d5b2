"""Running pytest on a team repo in a subprocess, as a team would (no conftest.py in the team repo)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from importlib import metadata
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TEAM_REPO = ROOT / "examples" / "team-repo"


def plugin_args() -> list[str]:
    """`-p expert.testing.plugin` only when the entry point is not installed (the probe venv); with
    the package installed (`make test`, editable) pytest loads the plugin itself, and naming it
    again with -p would register the module twice."""
    installed = any(ep.name == "gpu_expert_scenarios" for ep in metadata.entry_points(group="pytest11"))
    return [] if installed else ["-p", "expert.testing.plugin"]


def subprocess_env(**extra: str) -> dict[str, str]:
    """This interpreter's environment with the repository importable and no inherited pytest options."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTEST_ADDOPTS", "PYTEST_PLUGINS")}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    env.update(extra)
    return env


class PytestRun:
    """The outcome of one `pytest` run on a team repo."""

    def __init__(self, proc: subprocess.CompletedProcess) -> None:
        self.code = proc.returncode
        self.output = proc.stdout + proc.stderr
        self.passed = set(re.findall(r"^PASSED \S+::(\S+)", self.output, re.M))
        self.failed = set(re.findall(r"^FAILED \S+::(\S+)", self.output, re.M))


def run_pytest(repo: Path, *args: str) -> PytestRun:
    """`pytest` in `repo` (its own rootdir, no conftest), one line per test outcome (-rA)."""
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-rA", "--snapshot-no-colors",
         *plugin_args(), *args],
        cwd=repo, env=subprocess_env(), capture_output=True, text=True, timeout=180)
    return PytestRun(proc)
