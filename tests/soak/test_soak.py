"""CI-sized engine soak (benchmarks/soak.py runs 100 000): memory flat, results identical to a fresh
process, and calls from several threads serialised and identical to sequential ones."""

from __future__ import annotations

import threading

from benchmarks.soak import digest, fact_sets, fresh_digests, soak

import expert


def test_soak_2000_evaluations_flat_memory_and_same_answers():
    result = soak(2000)
    assert result["seconds"] < 15, result["seconds"]  # ~3 ms each on 2 idle cores
    assert result["mismatches"] == 0
    assert result["rss_growth_mb"] < 5, result
    assert fresh_digests() == result["expected"]


def test_threads_are_serialised_and_agree_with_sequential():
    from expert.engine import evaluate
    from expert.knowledge import rule_base

    base = rule_base()
    sets = fact_sets()
    sequential = [digest(evaluate(base, facts)) for facts in sets]
    results: dict[int, list[str]] = {}
    errors: list[BaseException] = []

    def worker(index: int) -> None:
        try:
            results[index] = [digest(evaluate(base, sets[(index + k) % len(sets)])) for k in range(40)]
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not errors, errors
    for index, got in results.items():
        assert got == [sequential[(index + k) % len(sets)] for k in range(40)]


def test_full_audits_from_threads_match_sequential():
    from benchmarks.soak import SETUPS

    sequential = [expert.audit(s).model_dump_json() for s in SETUPS]
    out: dict[int, list[str]] = {}

    def worker(index: int) -> None:
        out[index] = [expert.audit(SETUPS[(index + k) % len(SETUPS)]).model_dump_json() for k in range(8)]

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    for index, got in out.items():
        assert got == [sequential[(index + k) % len(SETUPS)] for k in range(8)]
