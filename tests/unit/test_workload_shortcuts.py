"""`Workload.tuning`, `most_frequent_tuning` and `kv_precision` (issue 21: read hundreds of times per
advice) give what they gave when each access built a new `FineTuning` and imported the KV default:
equal objects with the same fields set and the same field types, on every scenario and example; a
short form still gives a new object per access (`FineTuning` is not frozen: nothing may be shared)."""

from __future__ import annotations

from expert.sizing.memory import default_kv_precision
from expert.inputs.workload import FineTuning, Workload


def _plain_settings(value):
    return FineTuning(frequency=value) if isinstance(value, str) else value


def _same(fast: FineTuning, slow: FineTuning) -> None:
    assert fast == slow and fast.model_dump() == slow.model_dump()
    assert fast.model_fields_set == slow.model_fields_set
    for name in FineTuning.model_fields:
        assert type(getattr(fast, name)) is type(getattr(slow, name)), name


def _workloads(scenario_inputs) -> list[Workload]:
    out = []
    for kind, data in scenario_inputs:
        if kind == "advise":
            w = Workload.model_validate(data)
            out += [w, w.model_copy(update={"precision": "int8"}), w.model_copy(update={"fine_tuning": "weekly"}),
                    w.model_copy(update={"kv_cache_precision": "fp8"})]
    return out


def test_tuning_equals_a_new_object_per_access(scenario_inputs):
    workloads = _workloads(scenario_inputs)
    assert any(isinstance(w.fine_tuning, str) and w.fine_tuning != "none" for w in workloads)
    for w in workloads:
        _same(w.tuning, _plain_settings(w.fine_tuning))
        _same(w.tuning, w.tuning)
        if isinstance(w.fine_tuning, str):
            assert w.tuning is not w.tuning
        plain = max([_plain_settings(w.fine_tuning)] + [_plain_settings(a.fine_tuning) for a in w.agents],
                    key=lambda t: t.runs_per_year)
        _same(w.most_frequent_tuning, plain)


def test_kv_precision_equals_the_imported_default(scenario_inputs):
    for w in _workloads(scenario_inputs):
        assert w.kv_precision == (w.kv_cache_precision or default_kv_precision(w.precision))
        assert w.kv_precision == w.kv_precision
