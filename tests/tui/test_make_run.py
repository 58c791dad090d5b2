"""Issue 15: `make run ARGS="--lang de"` passes the options to the chat (it once could not)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
def test_make_run_passes_args_to_the_chat():
    # -n prints the commands without running them (nor creating the virtual environment)
    out = subprocess.run(["make", "-n", "-C", str(ROOT), "run", "ARGS=--lang de"], capture_output=True,
                         text=True, check=True).stdout
    assert any(line.strip().endswith("gpu-expert --lang de") for line in out.splitlines()), out
