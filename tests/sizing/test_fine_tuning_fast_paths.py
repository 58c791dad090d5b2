"""The fine-tuning planner's fast paths (issue 21) give what the plain paths gave (`plain_paths.py`), bit
for bit: the per-GPU training factor computed once per GPU figures and assumptions (the defaults keyed
without hashing them), and job layouts that get their model's states from the plan instead of looking
them up per layout, from the same figures as `finetune_memory` without its provenance."""

from __future__ import annotations

import dataclasses

import pytest

import plain_paths as plain
from expert.catalog import load_catalog
from expert.sizing import training
from expert.sizing.constants import DEFAULT, Assumptions
from expert.sizing.finetune import finetune_memory, finetune_states_gb
from expert.sizing.ft_job import GPUS_PER_NODE, flops_per_param_token, layout_on, plan_job
from expert.sizing.training import assumptions_key

CAT = load_catalog()
OTHER = DEFAULT.override(h100_finetune_speedup=(2.5, 3.3), gddr_finetune_slowdown=(2.0, 5.0))
MODELS = ["llama-3.1-8b", "llama-2-13b", "llama-3.3-70b", "mixtral-8x7b", "llama-3.1-405b"]


def _same_band(fast, slow) -> None:
    assert fast == slow and fast.model_dump() == slow.model_dump()
    assert type(fast.low) is type(slow.low) is float and type(fast.high) is type(slow.high) is float


@pytest.mark.parametrize("a", [DEFAULT, OTHER], ids=["default", "overridden"])
def test_relative_efficiency_equals_the_plain_path(a):
    for gpu in CAT.gpus.values():
        for _ in range(2):                                   # computed, then remembered
            point, band = training.relative_efficiency(gpu, a)
            plain_point, plain_band = plain.relative_efficiency(gpu, a)
            assert point == plain_point and type(point) is float
            _same_band(band, plain_band)



def _same_layout(fast, slow) -> None:
    assert dataclasses.astuple(fast) == dataclasses.astuple(slow)
    for f in dataclasses.fields(fast):
        assert type(getattr(fast, f.name)) is type(getattr(slow, f.name)), f.name
    _same_band(fast.hours_band, slow.hours_band)


@pytest.mark.parametrize("method", ["full", "lora", "qlora"])
@pytest.mark.parametrize("a", [DEFAULT, OTHER], ids=["default", "overridden"])
def test_job_layouts_equal_the_plain_path(method, a):
    for model in map(CAT.model, MODELS):
        work = flops_per_param_token(method, a) * model.params_b * 1e9 * 2e8 * 1.5
        for gpu in CAT.gpus.values():
            job = plan_job(model, gpu, method, 2e8, 1.5, a=a)
            assert job.layouts
            for lay in job.layouts:
                offload = lay.sharding == "fsdp-offload"
                _same_layout(lay, plain.ft_layout(model, gpu, method, lay.gpus, offload, work, a))
            for gpus in (1, 2, 4, 8, 16):
                lay = layout_on(model, gpu, method, gpus, 2e8, 1.5, a)
                slow = plain.ft_layout(model, gpu, method, gpus, False, work, a)
                if not slow.fits and method == "full" and gpus <= GPUS_PER_NODE:
                    off = plain.ft_layout(model, gpu, method, gpus, True, work, a)
                    slow = off if off.fits else slow
                _same_layout(lay, slow)


@pytest.mark.parametrize("a", [DEFAULT, DEFAULT.override(ft_seq_len=4096, lora_rank=64)], ids=["default", "overridden"])
def test_finetune_states_are_the_figures_of_finetune_memory(a):
    gpu = CAT.gpu("h100-sxm")
    for model in CAT.models.values():
        for method in ("full", "lora", "qlora"):
            for precision in ("bf16", "fp16", "fp8"):
                m = finetune_memory(model, gpu, 1, method, precision, assumptions=a)
                figures = finetune_states_gb(model, method, precision, a)
                assert figures == (m.weights_gb, m.gradients_gb, m.optimizer_gb, m.activation_gb, m.overhead_gb)
                assert all(type(x) is float for x in figures)


def test_the_defaults_key_names_the_same_values_as_their_hash():
    """The planner's memos key the defaults as "default" (no hash of their constants): the jobs equal
    those planned with an equal copy of the defaults, keyed by its hash."""
    copy = Assumptions()
    assert assumptions_key(None) == assumptions_key(DEFAULT) == "default" != assumptions_key(copy) == copy.key
    for model in map(CAT.model, MODELS[:3]):
        for gpu in CAT.gpus.values():
            for method in ("full", "qlora"):
                fast, hashed = plan_job(model, gpu, method, 1e8), plan_job(model, gpu, method, 1e8, a=copy)
                assert list(map(dataclasses.astuple, fast.layouts)) == list(map(dataclasses.astuple, hashed.layouts))
                assert training.relative_efficiency(gpu) == training.relative_efficiency(gpu, copy)
