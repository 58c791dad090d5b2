"""Fixtures for the TUI tests: an isolated state directory, the advisor, the app factory.

Behaviour tests run against the real pipeline (`expert.api`); set `GPU_EXPERT_TUI_FAKE=1` (or let
the pipeline be broken) to fall back to the hand-built `FakeAdvisor` with a warning. Snapshots always
use `FakeAdvisor`, so they change only when the UI does.
"""

from __future__ import annotations

import asyncio
import inspect
import os
import sys
import warnings
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from tui_fakes import FakeAdvisor  # noqa: E402

from tui.advisor import Advisor  # noqa: E402
from tui.app import GpuExpertApp  # noqa: E402

_REAL: list = []


@pytest.hookimpl(tryfirst=True)
def pytest_pyfunc_call(pyfuncitem):
    """Run `async def` tests with `asyncio.run` (no async plugin needed)."""
    if inspect.iscoroutinefunction(pyfuncitem.obj):
        args = {name: pyfuncitem.funcargs[name] for name in pyfuncitem._fixtureinfo.argnames}
        asyncio.run(pyfuncitem.obj(**args))
        return True
    return None


@pytest.fixture(autouse=True)
def state_dir(tmp_path, monkeypatch) -> Path:
    """Autosave goes to a fresh directory per test, never to the user's home."""
    path = tmp_path / "state"
    monkeypatch.setenv("GPU_EXPERT_STATE_DIR", str(path))
    return path


def _real_advisor():
    if not _REAL:
        advisor = None
        if os.environ.get("GPU_EXPERT_TUI_FAKE") != "1":
            try:
                advisor = Advisor()
                advisor.advise({"model": "llama-3.1-8b", "requests_per_day": 20000}, "en")
            except Exception as exc:  # noqa: BLE001 - pipeline not ready: say so, use the fake
                warnings.warn(f"expert.api unusable ({type(exc).__name__}: {exc}); using FakeAdvisor")
                advisor = None
        _REAL.append(advisor or FakeAdvisor())
    return _REAL[0]


@pytest.fixture
def advisor():
    """The real pipeline (built once per run), or `FakeAdvisor` when it cannot run."""
    return _real_advisor()


@pytest.fixture
def make_app(advisor):
    """`make_app(**kw)` → a `GpuExpertApp` with no cursor blink and no resume question."""
    def make(**kw) -> GpuExpertApp:
        kw.setdefault("advisor", advisor)
        kw.setdefault("resume", False)
        return GpuExpertApp(cursor_blink=False, **kw)
    return make
