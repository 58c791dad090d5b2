"""Entry point of `gpu-expert` and `python -m expert`: parses arguments, runs one command.

Bad input of any kind ends with one clear line on stderr and exit code 2, never a traceback
(set GPU_EXPERT_DEBUG=1 to see one for an internal error).
"""

from __future__ import annotations

import argparse
import gc
import importlib
import os
import sys

from expert.errors import InputError

MODULES = ("chat", "advise", "estimate", "cost", "rules", "catalog", "validate")
"""The modules of `expert.cli` that declare the sub-commands, in the order `--help` lists them."""
COMMANDS = {"chat": "chat", "advise": "advise", "audit": "advise", "estimate": "estimate", "cost": "cost",
            "rules": "rules", "explain": "rules", "catalog": "catalog", "validate": "validate"}
"""Each sub-command and the module that declares it."""


class Parser(argparse.ArgumentParser):
    """`argparse.ArgumentParser` whose errors are one line: `gpu-expert estimate: error: argument
    --batch: 0 is out of range (0, 100000]`, exit code 2 — no usage block before it (`--help` shows
    that). The sub-commands' parsers are of this class too (`add_subparsers` makes them so)."""

    def error(self, message: str) -> None:
        """Print `prog: error: message` on stderr and exit with 2 (argparse's own contract)."""
        self.exit(2, f"{self.prog}: error: {message}\n")


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The argument parser with every sub-command of docs/contract.md; given a known `command`, with
    only the sub-commands of the module that declares it.

    Parsing `command ARGS…` reads nothing of the other sub-commands: the top-level parser's own
    arguments (`-h` and the sub-command) are the same, the sub-command's name is consumed as a
    choice that is there in both, and its parser (built by the same `register`) reads every
    argument after it. So the result, the errors and `command --help` are the same, and a run does not
    import and declare the other eight (≈ 3-5 ms)."""
    parser = Parser(
        prog="gpu-expert",
        description="Which GPUs to run your AI agents on, and an audit of the ones you run.")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in (COMMANDS[command],) if command in COMMANDS else MODULES:
        importlib.import_module(f"expert.cli.{name}").register(commands)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit code."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if _is_chat(argv) and (not argv or argv[0] != "chat"):
        argv = ["chat", *argv]  # no command: the chat, with whatever options were given
    parser = build_parser(argv[0])
    args = parser.parse_args(argv)
    try:
        return int(args.run(args) or 0)
    except InputError as error:
        print(f"gpu-expert: error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
    except Exception as error:  # a bug of ours: say so in one line unless debugging
        if os.environ.get("GPU_EXPERT_DEBUG"):
            raise
        print(f"gpu-expert: internal error: {type(error).__name__}: {error} "
              "(set GPU_EXPERT_DEBUG=1 for details)", file=sys.stderr)
        return 3


def _is_chat(argv: list[str]) -> bool:
    """Whether `argv` runs the chat: the command `chat`, or no command at all."""
    return not argv or argv[0] == "chat" or (argv[0].startswith("-") and argv[0] not in ("-h", "--help"))


def run() -> None:
    """Console-script wrapper that exits with main's code, tuned for a short-lived process.

    A one-shot command (everything but the chat) runs with the cyclic garbage collector off: its
    ~120 collections while importing cost about 40 ms and free almost nothing (peak memory of the
    examples' advice unchanged within 0.5 MB, docs/performance.md); before exit every object is
    frozen, so the interpreter's final full collection has nothing to traverse. pydantic's plugins,
    which no command uses, are off unless the user set PYDANTIC_DISABLE_PLUGINS (pydantic's documented
    switch) otherwise.
    """
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
    if not _is_chat(sys.argv[1:]):
        gc.disable()
    code = main()
    gc.freeze()
    sys.exit(code)
