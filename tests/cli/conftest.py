"""Helpers to run the command line in-process and capture its output and exit code."""

from __future__ import annotations

import json

import pytest

from expert.cli.main import main


class Result:
    """What one CLI run printed and returned."""

    def __init__(self, code: int, out: str, err: str) -> None:
        self.code, self.out, self.err = code, out, err

    def json(self):
        """stdout parsed as JSON."""
        return json.loads(self.out)


@pytest.fixture
def cli(capsys):
    """Run `gpu-expert ARGS...` in-process; SystemExit from argparse is caught as the exit code."""

    def run(*args: str) -> Result:
        try:
            code = main(list(args))
        except SystemExit as exc:
            code = int(exc.code or 0)
        captured = capsys.readouterr()
        return Result(code, captured.out, captured.err)

    return run
