"""Issue 34: command-line processes started at once on one empty cache directory all write it at the
same moment; each answers as a run without the cache does, byte for byte, and the cache they leave
serves the next run the same answer."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PROCESSES = 4


def _advise(cache: str) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "GPU_EXPERT_CACHE_DIR": cache}
    return subprocess.Popen([sys.executable, "-m", "expert", "advise", str(ROOT / "examples" / "coding-agent.yaml"),
                             "--format", "json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)


def test_concurrent_processes_writing_one_cache_agree_with_no_cache(tmp_path):
    reference = _advise("")  # cache off
    ref_out, ref_err = reference.communicate(timeout=300)
    assert reference.returncode == 0, ref_err.decode()
    cache = tmp_path / "cache"
    runs = [_advise(str(cache)) for _ in range(PROCESSES)]
    for run in runs:
        out, err = run.communicate(timeout=300)
        assert run.returncode == 0, err.decode()
        assert out == ref_out
    assert sorted(p.name.split("-")[0] for p in cache.glob("*.pickle")) == ["catalog", "rules"]
    again = _advise(str(cache))
    assert again.communicate(timeout=300)[0] == ref_out
