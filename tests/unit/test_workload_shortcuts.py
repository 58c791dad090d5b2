"""`Workload.tuning`, `most_frequent_tuning` and `kv_precision`: the short form of a fine-tuning
('monthly') read as the settings it stands for (a new, unshared object per access: `FineTuning` is
not frozen), a pool's most frequent fine-tuning, and the KV cache precision in effect, by hand."""

from __future__ import annotations

import pytest

from expert.inputs.workload import FineTuning, Workload

BASE = {"model": "llama-3.1-8b", "requests_per_day": 1000}


@pytest.mark.parametrize("frequency, runs", [("none", 0), ("yearly", 1), ("quarterly", 4), ("monthly", 12),
                                             ("weekly", 52)])
def test_the_short_form_is_the_settings_with_their_defaults(frequency, runs):
    w = Workload.model_validate({**BASE, "fine_tuning": frequency})
    assert w.tuning == FineTuning(frequency=frequency) and w.tuning.runs_per_year == runs
    assert (w.tuning.method, w.tuning.epochs, w.tuning.dataset_tokens) == ("lora", 1.0, None)
    assert w.tuning is not w.tuning                  # a caller may change what it gets
    w.tuning.epochs = 9.0
    assert w.tuning.epochs == 1.0


def test_the_long_form_is_the_given_settings():
    w = Workload.model_validate({**BASE, "fine_tuning": {"frequency": "quarterly", "method": "full", "epochs": 3}})
    assert (w.tuning.frequency, w.tuning.method, w.tuning.epochs) == ("quarterly", "full", 3.0)


def test_the_most_frequent_tuning_of_a_pool():
    # the workload's own monthly run (12 a year) against its agents' weekly (52) and quarterly (4) ones
    agents = [{"name": "a", "model": "llama-3.1-8b", "requests_per_day": 100, "fine_tuning": "weekly"},
              {"name": "b", "model": "llama-3.1-8b", "requests_per_day": 100,
               "fine_tuning": {"frequency": "quarterly", "method": "full"}}]
    w = Workload.model_validate({"agents": agents, "fine_tuning": "monthly"})
    assert w.most_frequent_tuning == FineTuning(frequency="weekly")
    alone = Workload.model_validate({**BASE, "fine_tuning": {"frequency": "yearly", "method": "qlora"}})
    assert alone.most_frequent_tuning == alone.tuning and alone.most_frequent_tuning.method == "qlora"


@pytest.mark.parametrize("precision, kv", [("fp32", "fp32"), ("bf16", "bf16"), ("fp16", "fp16"), ("fp8", "fp8"),
                                           ("int8", "fp16"), ("int4", "fp16")])
def test_kv_precision_by_default_and_as_given(precision, kv):
    # 16/32-bit and FP8 weights keep their precision for the KV cache, weight-only int8/int4 an fp16 one
    assert Workload.model_validate({**BASE, "precision": precision}).kv_precision == kv
    assert Workload.model_validate({**BASE, "precision": precision, "kv_cache_precision": "fp8"}).kv_precision \
        == "fp8"
