"""The advice's fast reads of the configurator's records against the plain path, on every advice
scenario and example: `_report_fields` (attributes) equals the fields picked from `model_dump`,
values, types and key order."""

from __future__ import annotations

import importlib

import expert.configurator
from expert.flows import advice
from expert.api import Expert


def _plain(value) -> dict:
    dumped = value.model_dump()
    return {**advice._choice_fields(dumped), "why_not": dumped.get("why_not")}


def test_report_fields_equal_the_dumped_fields(monkeypatch, scenario_inputs) -> None:
    results = []
    real = expert.configurator.search

    def recording(*args, **kwargs):
        results.append(real(*args, **kwargs))
        return results[-1]

    monkeypatch.setattr(expert.configurator, "search", recording)
    expert_ = Expert()
    for kind, data in scenario_inputs:
        if kind == "advise":
            expert_.advise(data)
    records = [r for result in results for r in (*result.alternatives, *result.quantised, result.recommendation)
               if r is not None]
    assert len(records) > 100 and any(getattr(r, "why_not", None) for r in records)
    for record in records:
        fast, plain = advice._report_fields(record), _plain(record)
        assert repr(fast) == repr(plain) and list(fast) == list(plain)
        assert advice._report_fields(record.model_dump()) == plain


def test_the_summaries_operating_point_is_full_sizings(monkeypatch, scenario_inputs) -> None:
    """Where the advice sizes from scratch (nothing fits, a pool of agents), it reads from
    `operating_point` what `full_sizing` reports: capacity, GPU count, memory, fine-tuning memory."""
    estimate = importlib.import_module("expert.sizing.combined")  # the package exports a function of that name
    calls = []
    real = estimate.operating_point

    def recording(*args, **kwargs):
        calls.append((args, kwargs))
        return real(*args, **kwargs)

    monkeypatch.setattr(estimate, "operating_point", recording)
    expert_ = Expert()
    for kind, data in scenario_inputs:
        if kind == "advise":
            expert_.advise(data)
    monkeypatch.undo()  # full_sizing calls operating_point too
    assert len(calls) >= 4
    for args, kwargs in calls:
        point, sized = real(*args, **kwargs), estimate.full_sizing(*args, **kwargs)
        tuned = point.finetune_memory()
        assert (point.count, point.capacity, point.memory()) == (sized.count, sized.capacity, sized.memory)
        assert (tuned.model_dump() if tuned else None) == (
            sized.fine_tuning_memory.model_dump() if sized.fine_tuning_memory else None)
