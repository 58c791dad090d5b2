"""A closed loop's first rounds stop where a search picks what the one before picked (perf 46).

From there on each round only iterated that pick's own step, X ↦ closed_rate(step(X)), whose limit
`closed_loop.fixed_point` solves directly in the next phase: six rounds of full searches bought nothing
(89 searches for one advice of examples/agent-critical-onprem.yaml, 51 after).
"""

from __future__ import annotations

import math
from types import SimpleNamespace as NS

import pytest

from expert.configurator.closed_loop import settle


def _loop(rate: float) -> NS:
    """10 users, 9 s of thought, one step per task: X = 10 / (step + 9); sized at `rate`."""
    return NS(peak_task_rate=rate, offload_share=0.0, closed_rate=lambda step: 10 / (step + 9))


BIG = NS(source=NS(key="big"), count=24, precision="fp8", tp=2)
SMALL = NS(source=NS(key="small"), count=12, precision="fp8", tp=2)


def _step(c: NS, rate: float) -> float:
    """The big one steps in 1 s at any rate, the small one in 1 + 10 X s."""
    return 1.0 if c is BIG else 1 + 10 * rate


def _search(rate: float) -> tuple:
    """The small one (cheaper: key 12) serves up to 1 task/s, the big one (key 24) beyond."""
    c = SMALL if rate <= 1.0 else BIG
    best = NS(**vars(c), key=(c.count,), latency=_step(c, rate))
    return NS(agent=_loop(rate)), NS(best=best), []


def test_the_rounds_stop_where_the_pick_repeats():
    """The first search (10 / 9 = 1.111 tasks/s) picks the big one: 1 s steps make 10 / 10 = 1.0. There
    the small one: 11 s steps make 10 / 20 = 0.5; at 0.5 the small one again, so the rounds stop. Its
    fixed point: X = 10 / (10 + 10 X), X² + X − 1 = 0, X = (√5 − 1) / 2 = 0.6180, searched once more,
    picks it again: the answer. Three searches; the rounds went on to 0.667, 0.600, 0.625 and 0.615
    before, seven."""
    rates = []

    def searched(rate, share):
        rates.append(rate)
        return _search(rate)

    found = settle(_search(10 / 9), searched, lambda c, rate, share: _step(c, rate))
    root = (math.sqrt(5) - 1) / 2
    assert rates[:2] == pytest.approx([1.0, 0.5])
    assert len(rates) == 3 and rates[2] == pytest.approx(root, rel=1e-4)
    assert found[1].best.source.key == "small" and found[0].agent.peak_task_rate == rates[2]
