"""The cyclic garbage collector paused for one advice or audit (issue 21).

An advice allocates tens of thousands of short-lived objects, almost none of them in reference cycles;
with the collector on, a slow one pays 10-17 young-generation collections and one older one, 1-3 ms
(measured with `gc.callbacks` on the pool and agent-loop workloads) that free nearly nothing. The
command line already runs without the collector (`expert.cli.main.run`); `paused()` gives the library's
callers (the chat, a team's snapshot suite) the same for the length of one call. Reference counting
still frees everything without cycles at once; whatever cyclic garbage the call leaves is collected at
the next collection after it.

Calls may nest or overlap on several threads (the chat advises on a worker thread): the collector is
turned back on when the last running call ends, and only if it was on when the first one began.
"""

from __future__ import annotations

import gc
import threading
from contextlib import contextmanager
from typing import Iterator

_LOCK = threading.Lock()
_running = 0          # calls inside `paused()` now
_was_enabled = False  # whether the collector was on when the first of them began


@contextmanager
def paused() -> Iterator[None]:
    """Run the body with the cyclic collector off; restore it when no other paused call is running."""
    global _running, _was_enabled
    with _LOCK:
        if _running == 0:
            _was_enabled = gc.isenabled()
            gc.disable()
        _running += 1
    try:
        yield
    finally:
        with _LOCK:
            _running -= 1
            if _running == 0 and _was_enabled:
                gc.enable()
