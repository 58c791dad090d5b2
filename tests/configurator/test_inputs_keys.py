"""A cache key made with `configurator.keys.inputs` is its step's inputs: equal exactly when every field
is equal (a catalog model compared by value, not by its id), hashed alike when equal; and the profile
cache answers for the inputs it was asked with, never for another search's."""

from __future__ import annotations

import dataclasses

from expert.catalog import load_catalog
from expert.configurator.profile import Sizing, sized
from expert.configurator.enumeration import context, default_assumptions
from expert.sizing.constants import DEFAULT
from expert.inputs.slo import targets
from expert.inputs.workload import Workload

CAT = load_catalog()
A = default_assumptions(CAT)


def _sizing(**changes) -> Sizing:
    w = Workload.model_validate({"model": "llama-3.1-8b", "requests_per_day": 1000})
    s = Sizing(CAT.model("llama-3.1-8b"), None, 1500, 250, 8192, "vllm", "fp16", A, None, targets(w))
    return dataclasses.replace(s, **changes)


def test_equal_inputs_are_one_key_and_every_field_counts():
    s = _sizing()
    assert s == _sizing() and hash(s) == hash(_sizing()) and {s: 1}[_sizing()] == 1
    changes = {"model": CAT.model("llama-3.1-70b"), "growth": CAT.model("llama-2-13b"), "prompt": 1501,
               "output": 251, "context": 4096, "engine": "sglang", "kv_precision": "fp8",
               "a": DEFAULT.override(mfu=0.3), "slo": None}
    assert set(changes) == {f.name for f in dataclasses.fields(Sizing)} - {"prefill"}
    for name, value in changes.items():
        other = _sizing(**{name: value})
        assert other != s and s not in {other: 1}, name


def test_a_changed_model_with_the_same_id_is_another_key():
    """The hash stands a model in by its id, the comparison reads every field."""
    model = CAT.model("llama-3.1-8b")
    changed = model.model_copy(update={"layers": model.layers + 1})
    assert changed.id == model.id
    s, t = _sizing(), _sizing(model=changed)
    assert hash(s) == hash(t) and s != t and s not in {t: 1}


def test_the_profile_cache_answers_for_its_own_inputs():
    """Two searches sharing one cache get the profiles their own workloads size, whichever asked first."""
    shared: dict = {}
    gpu = CAT.gpu("l40s")
    for prompt in (1500, 3000, 1500):
        w = Workload.model_validate({"model": "llama-3.1-8b", "requests_per_day": 5000, "prompt_tokens": prompt})
        ctx, _ = context(w, CAT, A, shared)
        got = ctx.profile(gpu, "fp16", 1, "pcie")
        own = sized(ctx.sizing, gpu, "fp16", 1, "pcie")
        assert (got.prompt, got.seq_mem, got.seq_lat, got.e2e_1) == (prompt, own.seq_mem, own.seq_lat, own.e2e_1)
