"""Suite-wide settings: hypothesis runs derandomized (the same examples on every run, so a run is
green or red for a reason in the code, never by chance) and without its per-example deadline (a
wall-clock limit that fails on a loaded machine). `HYPOTHESIS_PROFILE=explore` draws new random
examples, for a deliberate bug hunt.

The compiled cache (expert._plumbing.compiled) of every run of the suite lives in a new temporary directory
(GPU_EXPERT_CACHE_DIR, inherited by the CLI processes the tests start), so the suite starts cold and
never writes into the user's own cache.

Two fixtures serve the tests that check an engine path against another on real facts:
`scenario_inputs` (every advice and audit input of the scenarios and examples) and
`record_evaluations` (the rules and facts of every `expert.engine.evaluate` call while a test runs)."""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from pathlib import Path

import pytest
import yaml
from hypothesis import settings

if "GPU_EXPERT_CACHE_DIR" not in os.environ:
    _CACHE = tempfile.mkdtemp(prefix="gpu-expert-test-cache-")
    os.environ["GPU_EXPERT_CACHE_DIR"] = _CACHE
    atexit.register(shutil.rmtree, _CACHE, True)

settings.register_profile("deterministic", derandomize=True, deadline=None, database=None, print_blob=True)
settings.register_profile("explore", deadline=None, database=None, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "deterministic"))

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="session")
def scenario_inputs() -> list[tuple[str, dict]]:
    """("advise" | "audit", input) of every advice and audit scenario (`advise-*` workloads, setups)
    and example, in file order."""
    out = []
    for path in sorted((ROOT / "tests" / "scenarios").glob("*.scenario.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        if "workload" in data and path.name.startswith("advise-"):
            out.append(("advise", data["workload"]))
        elif "setup" in data:
            out.append(("audit", data["setup"]))
    for path in sorted((ROOT / "examples").glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        out.append(("audit" if "gpu" in data or "setup" in path.name else "advise", data))
    return out


@pytest.fixture
def record_evaluations(monkeypatch) -> list[tuple[object, list[dict]]]:
    """A list that receives (rules, facts) of every call of `expert.engine.evaluate` (the name the
    advice, the audit and the documents' pick look up) while the test runs."""
    import expert.engine

    seen: list[tuple[object, list[dict]]] = []
    real = expert.engine.evaluate

    def recording(rules, facts, **kw):
        facts = list(facts)
        seen.append((rules, facts))
        return real(rules, facts, **kw)

    monkeypatch.setattr(expert.engine, "evaluate", recording)
    return seen
