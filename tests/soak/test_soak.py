"""CI-sized engine soak (benchmarks/soak.py runs 100 000 and prints the time): memory flat, results
identical to a fresh process, and calls from several threads serialised and identical to sequential
ones. Every worker thread must report its results; an exception in any of them fails the test."""

from __future__ import annotations

import threading
from typing import Callable

import pytest

from benchmarks.soak import SETUPS, digest, fact_sets, fresh_digests, soak

import expert


def run_workers(work: Callable[[int], list[str]], count: int) -> dict[int, list[str]]:
    """Run `work(index)` in `count` threads and return every worker's result by index.

    Raises AssertionError naming each worker that raised (with its exception) or returned nothing.
    The threads are joined without a time limit: a hung worker hangs the test, it never passes."""
    results: dict[int, list[str]] = {}
    errors: dict[int, BaseException] = {}

    def worker(index: int) -> None:
        try:
            results[index] = work(index)
        except BaseException as exc:  # noqa: BLE001 - reported below, with the worker's index
            errors[index] = exc

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors, f"workers raised: {errors!r}"
    assert sorted(results) == list(range(count)), f"workers without a result: {set(range(count)) - set(results)}"
    return results


def test_run_workers_fails_when_a_worker_raises():
    """The harness itself can fail: a worker that always raises is reported, not lost."""
    def broken(index: int) -> list[str]:
        raise RuntimeError(f"worker {index} broke")

    with pytest.raises(AssertionError, match="worker 2 broke"):
        run_workers(broken, 3)


def test_run_workers_fails_when_one_worker_of_many_raises():
    def one_broken(index: int) -> list[str]:
        if index == 4:
            raise ValueError("only this one")
        return [str(index)]

    with pytest.raises(AssertionError, match="only this one"):
        run_workers(one_broken, 6)


def test_soak_2000_evaluations_flat_memory_and_same_answers():
    result = soak(2000)
    assert result["evaluations"] == 2000
    assert result["mismatches"] == 0
    assert result["rss_growth_mb"] < 5, result
    assert fresh_digests() == result["expected"]


def test_threads_are_serialised_and_agree_with_sequential():
    from expert.engine import evaluate
    from expert.engine.rule_base import rule_base

    base = rule_base()
    sets = fact_sets()
    sequential = [digest(evaluate(base, facts)) for facts in sets]
    results = run_workers(lambda index: [digest(evaluate(base, sets[(index + k) % len(sets)])) for k in range(40)],
                          6)
    for index, got in results.items():
        assert got == [sequential[(index + k) % len(sets)] for k in range(40)], index


def test_full_audits_from_threads_match_sequential():
    sequential = [expert.audit(s).model_dump_json() for s in SETUPS]
    results = run_workers(
        lambda index: [expert.audit(SETUPS[(index + k) % len(SETUPS)]).model_dump_json() for k in range(8)], 4)
    for index, got in results.items():
        assert got == [sequential[(index + k) % len(SETUPS)] for k in range(8)], index
