"""Suite-wide settings: hypothesis runs derandomized (the same examples on every run, so a run is
green or red for a reason in the code, never by chance) and without its per-example deadline (a
wall-clock limit that fails on a loaded machine). `HYPOTHESIS_PROFILE=explore` draws new random
examples, for a deliberate bug hunt.

The compiled cache (expert.compiled) of every run of the suite lives in a new temporary directory
(GPU_EXPERT_CACHE_DIR, inherited by the CLI processes the tests start), so the suite starts cold and
never writes into the user's own cache."""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile

from hypothesis import settings

if "GPU_EXPERT_CACHE_DIR" not in os.environ:
    _CACHE = tempfile.mkdtemp(prefix="gpu-expert-test-cache-")
    os.environ["GPU_EXPERT_CACHE_DIR"] = _CACHE
    atexit.register(shutil.rmtree, _CACHE, True)

settings.register_profile("deterministic", derandomize=True, deadline=None, database=None, print_blob=True)
settings.register_profile("explore", deadline=None, database=None, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "deterministic"))
