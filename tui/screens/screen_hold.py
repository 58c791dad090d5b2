"""Holding the chat screen between Enter and the paint of the new answer: a mixin of `ChatScreen`.

While held, Textual neither lays out nor paints (the user's line, the reply and the answer then
cost one layout and one paint, not one each), and the garbage collector waits: a full collection
of a running Textual app takes 50-80 ms and would land in the middle of an update. Release paints
at once; the collector resumes after that paint. A hold always ends: on release, after
`HOLD_LIMIT_S` whatever happens, and when the screen goes away.
"""

from __future__ import annotations

import gc


class HoldMixin:
    """`hold_screen` / `release_screen` around an update."""

    HOLD_LIMIT_S = 1.0
    """A held screen is released after this long whatever happens (it can never stay frozen)."""

    _held = False
    _hold_timer = None

    def hold_screen(self) -> None:
        """Hold painting and garbage collection until `release_screen` (idempotent)."""
        if self._held:
            return
        self._held = True
        self.app._begin_batch()  # the public `batch_update` is a `with` block; this spans a worker
        gc.disable()
        self._hold_timer = self.set_timer(self.HOLD_LIMIT_S, self.release_screen)

    def release_screen(self) -> None:
        """Paint what changed; collect garbage once the paint is done."""
        if not self._held:
            return
        self._held = False
        if self._hold_timer is not None:
            self._hold_timer.stop()
            self._hold_timer = None
        self.app._end_batch()
        self.call_after_refresh(gc.enable)

    def on_unmount(self) -> None:
        if self._held:
            self._held = False
            self.app._end_batch()
        gc.enable()
