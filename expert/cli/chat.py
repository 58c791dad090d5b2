"""`gpu-expert chat` (and `gpu-expert` alone): the Textual interview."""

from __future__ import annotations

import os

from expert.cli.options import LANGS, common_parent


def register(commands) -> None:
    """Add the `chat` command."""
    parser = commands.add_parser("chat", parents=[common_parent()],
                                 help="start the chat interview (the default command)")
    parser.add_argument("--lang", choices=LANGS, default=None,
                        help="language; default from the system locale")
    parser.add_argument("--load", metavar="SESSION.yaml", default=None,
                        help="continue a saved session (a workload or setup file)")
    parser.set_defaults(run=run)


def system_lang() -> str:
    """'de' when the system locale is German, else 'en'."""
    for variable in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(variable)
        if value:
            return "de" if value.lower().startswith("de") else "en"
    import locale  # only when no LANG-style variable says it: not on every command's start-up

    code = (locale.getlocale()[0] or "").lower()
    return "de" if code.startswith("de") else "en"


def run(args) -> int:
    """Start the app."""
    from tui.app import run_app

    return run_app(lang=args.lang or system_lang(), load=args.load,
                   catalog_dirs=args.catalog_dir, rules_dirs=args.rules_dir,
                   lang_chosen=args.lang is not None)
