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
import threading

CHECK_S = 0.5
"""How often the terminal is checked."""
EXIT_S = 0.5
"""After a hangup the app gets this long to end on its own (the answers are autosaved as they
are given); then the process ends: with no terminal left, Textual's shutdown can block on it."""


def terminal_gone(fd: int) -> bool:
    """True when the terminal on `fd` has hung up (or `fd` is closed)."""
    try:
        os.tcgetpgrp(fd)
    except OSError:
        return True
    return False


def leave(app, code: int = 0) -> None:
    """Ask `app` to exit, and end the process if it has not after `EXIT_S`."""
    timer = threading.Timer(EXIT_S, os._exit, (code,))
    timer.daemon = True
    timer.start()
    app.exit(code)


def watch(app) -> None:
    """Exit `app` on SIGHUP or SIGTERM, or when its terminal hangs up (call once it runs)."""
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGHUP, signal.SIGTERM):
        try:
            loop.add_signal_handler(sig, leave, app, 128 + sig)
        except (NotImplementedError, RuntimeError, ValueError):  # not the main thread, or no Unix
            pass
    stream = sys.__stdin__
    fd = stream.fileno() if stream is not None and stream.isatty() else None
    if fd is None or terminal_gone(fd):
        return

    def check() -> None:
        if terminal_gone(fd):
            leave(app, 128 + signal.SIGHUP)

    app.set_interval(CHECK_S, check, name="terminal-watch")
