"""What the advice reports of the configurator's records, on every advice scenario and example: each
option shown (recommendation, alternatives, quantised alternatives) carries its record's values of the
report's `Choice` fields and its reason in the report's language; and where the advice sizes from
scratch it reads what `full_sizing` reports."""

from __future__ import annotations

import importlib

import expert.configurator
from expert.api import Expert
from expert.report.models import Choice


def _shown_as_recorded(shown, record, lang: str) -> None:
    dumped = record.model_dump()
    for key in Choice.model_fields:
        if key in dumped:
            assert getattr(shown, key) == dumped[key], key
    why = dumped.get("why_not")
    if why is not None:
        assert shown.why_not == (why.get(lang) or why.get("en") if isinstance(why, dict) else why)


def test_the_reported_options_are_the_configurators_records(monkeypatch, scenario_inputs) -> None:
    results = []
    real = expert.configurator.search

    def recording(*args, **kwargs):
        results.append(real(*args, **kwargs))
        return results[-1]

    monkeypatch.setattr(expert.configurator, "search", recording)
    expert_, checked = Expert(), 0
    for i, (kind, data) in enumerate(scenario_inputs):
        if kind != "advise":
            continue
        lang = "de" if i % 2 else "en"
        report = expert_.advise(data, lang)
        result = results[-1]
        if result.recommendation is not None:
            _shown_as_recorded(report.recommendation, result.recommendation, lang)
        assert len(report.alternatives) == len(result.alternatives)
        assert len(report.quantised_alternatives) == len(result.quantised)
        for shown, record in [*zip(report.alternatives, result.alternatives),
                              *zip(report.quantised_alternatives, result.quantised)]:
            _shown_as_recorded(shown, record, lang)
            checked += 1
    assert checked > 100


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
