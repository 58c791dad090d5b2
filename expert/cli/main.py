"""Entry point of `gpu-expert` and `python -m expert`: parses arguments, runs one command.

Bad input of any kind ends with one clear line on stderr and exit code 2, never a traceback
(set GPU_EXPERT_DEBUG=1 to see one for an internal error).
"""

from __future__ import annotations

import argparse
import os
import sys

from expert.errors import InputError


def build_parser() -> argparse.ArgumentParser:
    """The full argument parser with every sub-command of docs/contract.md."""
    from expert.cli import advise, catalog, chat, cost, estimate, rules, validate

    parser = argparse.ArgumentParser(
        prog="gpu-expert",
        description="Which GPUs to run your AI agents on, and an audit of the ones you run.")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module in (chat, advise, estimate, cost, rules, catalog, validate):
        module.register(commands)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit code."""
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    if not argv or (argv[0].startswith("-") and argv[0] not in ("-h", "--help")):
        argv = ["chat", *argv]  # no command: the chat, with whatever options were given
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


def run() -> None:
    """Console-script wrapper that exits with main's code."""
    sys.exit(main())
