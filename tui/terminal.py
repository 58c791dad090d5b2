"""Leaving when the terminal goes away: SIGHUP, SIGTERM, and a terminal that hung up unnoticed.

Closing a terminal (or a tmux session) sends SIGHUP to the session's leader; when that is `make
run`, make dies and the chat, a grandchild, may never get the signal: its terminal is gone and its
input thread reads end-of-file forever (95 % of a core). So besides the signal handlers, a
half-second check asks the terminal for its foreground process group, which fails with EIO once
the terminal has hung up; the app then exits.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys

CHECK_S = 0.5
"""How often the terminal is checked."""


def terminal_gone(fd: int) -> bool:
    """True when the terminal on `fd` has hung up (or `fd` is closed)."""
    try:
        os.tcgetpgrp(fd)
    except OSError:
        return True
    return False


def watch(app) -> None:
    """Exit `app` on SIGHUP or SIGTERM, or when its terminal hangs up (call once it runs)."""
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGHUP, signal.SIGTERM):
        try:
            loop.add_signal_handler(sig, app.exit, 0)
        except (NotImplementedError, RuntimeError, ValueError):  # not the main thread, or no Unix
            pass
    stream = sys.__stdin__
    fd = stream.fileno() if stream is not None and stream.isatty() else None
    if fd is None or terminal_gone(fd):
        return

    def check() -> None:
        if terminal_gone(fd):
            app.exit(0)

    app.set_interval(CHECK_S, check, name="terminal-watch")
