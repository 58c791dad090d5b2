"""`expert.gc_pause.paused`: the collector is off inside, back as it was after, also when calls nest,
overlap on threads or raise; `Expert.advise` and `Expert.audit` run inside it."""

from __future__ import annotations

import gc
import importlib
import threading
from pathlib import Path

import pytest
import yaml

from expert.gc_pause import paused


@pytest.fixture(autouse=True)
def _collector_on():
    was = gc.isenabled()
    gc.enable()
    yield
    (gc.enable if was else gc.disable)()


def test_off_inside_and_back_after():
    with paused():
        assert not gc.isenabled()
    assert gc.isenabled()


def test_stays_off_when_it_was_off():
    gc.disable()
    with paused():
        assert not gc.isenabled()
    assert not gc.isenabled()


def test_nested_calls_restore_only_at_the_end():
    with paused():
        with paused():
            assert not gc.isenabled()
        assert not gc.isenabled()   # the outer call is still running
    assert gc.isenabled()


def test_an_error_restores_it():
    with pytest.raises(ValueError):
        with paused():
            raise ValueError("boom")
    assert gc.isenabled()


def test_overlapping_calls_on_two_threads():
    inside, release, seen = threading.Event(), threading.Event(), []

    def worker():
        with paused():
            inside.set()
            release.wait(10)

    thread = threading.Thread(target=worker)
    thread.start()
    inside.wait(10)
    with paused():
        pass
    seen.append(gc.isenabled())     # the worker's call still runs: still off
    release.set()
    thread.join(10)
    assert seen == [False] and gc.isenabled()


def test_advise_and_audit_run_with_the_collector_paused(monkeypatch):
    from expert.api import Expert

    seen = []
    for module_name, name in (("expert.flows.advice", "advise"), ("expert.flows.audit", "audit")):
        module = importlib.import_module(module_name)   # `expert.audit` is also the package's function
        original = getattr(module, name)
        monkeypatch.setattr(module, name, lambda *a, _f=original, **k: (seen.append(gc.isenabled()), _f(*a, **k))[1])
    Expert().advise({"model": "llama-3.1-8b", "requests_per_day": 20000, "hosting": "ch"})
    setup = yaml.safe_load((Path(__file__).resolve().parents[2] / "examples" / "idle-h100.yaml").read_text("utf-8"))
    Expert().audit(setup)
    assert seen == [False, False] and gc.isenabled()
