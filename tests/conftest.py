"""Suite-wide settings: hypothesis runs derandomized (the same examples on every run, so a run is
green or red for a reason in the code, never by chance) and without its per-example deadline (a
wall-clock limit that fails on a loaded machine). `HYPOTHESIS_PROFILE=explore` draws new random
examples, for a deliberate bug hunt."""

from __future__ import annotations

import os

from hypothesis import settings

settings.register_profile("deterministic", derandomize=True, deadline=None, database=None, print_blob=True)
settings.register_profile("explore", deadline=None, database=None, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "deterministic"))
