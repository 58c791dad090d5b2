"""A sensitivity change that only restricts the main search is answered from the main optimum
(`configurator/restricted.py`): on seeded random workloads every change's answer equals the plain
sub-search's (`run(..., optimum_only=True)`), to the last field of the choice; so do the sensitivity
lines of every scenario and example (`known_infeasible.py` as well)."""

from __future__ import annotations

import random

from expert.configurator import restricted, search, sensitivity
from expert.configurator.ordered import best_only
from expert.configurator.enumeration import context, default_assumptions, run, to_choice
from expert.configurator.sensitivity import variations
from expert.inputs.workload import Workload

from tests.configurator.test_configurator_exactness import FULL, random_workload, sub_catalog

AGENTS = ({"kind": "coding", "tasks_per_day": 500, "kv_during_tools": "gpu"},
          {"kind": "conversational", "tasks_per_day": 20000, "kv_during_tools": "drop"},
          {"kind": "conversational", "tasks_per_day": 5000})


def answers(wd: dict, cat) -> tuple[int, int]:
    """Compare every change of `wd`; (changes answered from the main optimum, changes)."""
    a = default_assumptions(cat)
    w = Workload.model_validate(wd)
    shared: dict = {}
    ctx, out, sources = run(w, cat, a, shared, detail=False)
    taken = total = 0
    for change, _, upd in variations(w):
        w2 = w.model_copy(update=upd)
        calls = []
        plain_search = restricted.best_only
        restricted.best_only = lambda *args, **kw: calls.append(1) or plain_search(*args, **kw)
        try:
            ctx2, got = restricted.optimum(w2, cat, a, shared, ctx, sources, out.best,
                                           more_requests=change == "requests:x2" and w.agent is None)
        finally:
            restricted.best_only = plain_search
        plain_ctx, plain, _ = run(w2, cat, a, {}, optimum_only=True)
        assert (got is None) == (plain.best is None), (wd, change)
        if got is not None:
            assert to_choice(got, ctx2).model_dump() == to_choice(plain.best, plain_ctx).model_dump(), (wd, change)
        taken += not calls
        total += 1
    return taken, total


def test_changes_answered_from_the_main_optimum_equal_the_plain_sub_search():
    rng = random.Random(2112)
    taken = total = 0
    for i in range(60):
        cat = sub_catalog(rng)
        wd = random_workload(rng)
        if i % 4 == 0:
            wd["allow_int4"] = True
            wd.pop("precision", None)
        if i % 6 == 1:
            wd.pop("latency_target_s", None)
        got = answers(wd, cat)
        taken, total = taken + got[0], total + got[1]
    assert total > 400 and taken > 40                    # the shortcut is exercised, not only the plain path


def test_agent_loops_and_the_full_catalog():
    rng = random.Random(21)
    for i, agent in enumerate(AGENTS):
        wd = {"model": rng.choice(["llama-3.1-8b", "qwen2.5-14b"]), "latency_target_s": 4.0, "agent": agent,
              "hosting": "any", "allow_quantization": True, "allow_int4": bool(i % 2)}
        answers(wd, FULL)
    answers({"model": "llama-3.1-70b", "requests_per_day": 200000, "latency_target_s": 3, "allow_int4": True,
             "allow_quantization": True}, FULL)


def _plain(w2, catalog, a, shared, ctx, sources, best, more_requests=False):
    """The plain sub-search of a change, in caches of its own."""
    ctx2, sources2 = context(w2, catalog, a, {})
    return ctx2, best_only(ctx2, sources2)


def test_every_scenario_and_example_has_the_plain_sub_searches_lines(monkeypatch, scenario_inputs):
    """The sensitivity of every advice input, lines and details in both languages, equals the one whose
    sub-searches all run plainly (`_plain`)."""
    advised = 0
    for w in (Workload.model_validate(d) for kind, d in scenario_inputs if kind == "advise"):
        if w.agents:
            continue
        got = search(w, FULL, detail=False)
        with monkeypatch.context() as m:
            m.setattr(sensitivity, "optimum", _plain)
            plain = search(w, FULL, detail=False)
        assert got.sensitivity == plain.sensitivity, w
        assert [d.model_dump() for d in got.sensitivity_details] == [d.model_dump() for d in plain.sensitivity_details]
        advised += 1
    assert advised > 25


def test_twice_the_requests_equals_the_plain_sub_search():
    """`heavier.py` on many seeded random workloads: the doubled-load optimum equals the plain one."""
    rng = random.Random(4242)
    checked = 0
    for _ in range(150):
        cat = sub_catalog(rng)
        wd = random_workload(rng)
        w = Workload.model_validate(wd)
        a = default_assumptions(cat)
        shared: dict = {}
        ctx, out, sources = run(w, cat, a, shared, detail=False)
        for change, _, upd in variations(w):
            if change != "requests:x2":
                continue
            w2 = w.model_copy(update=upd)
            ctx2, got = restricted.optimum(w2, cat, a, shared, ctx, sources, out.best, more_requests=True)
            plain_ctx, plain, _ = run(w2, cat, a, {}, optimum_only=True)
            assert (got is None) == (plain.best is None), wd
            if got is not None:
                assert to_choice(got, ctx2).model_dump() == to_choice(plain.best, plain_ctx).model_dump(), wd
            checked += got is not None
    assert checked > 50
