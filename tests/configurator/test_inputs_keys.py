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
               "a": DEFAULT.override(mfu=0.3), "slo": None, "shared": 20000, "prompt_cv": 1.1}
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


def _every_field_counts(cls, base: dict, changed: dict) -> None:
    """`cls(**base)` is one key with an equal copy, and another key when any one field changes."""
    assert set(changed) == {f.name for f in dataclasses.fields(cls)}
    key = cls(**base)
    assert key == cls(**base) and {key: 1}[cls(**base)] == 1
    for name, value in changed.items():
        other = cls(**{**base, name: value})
        assert other != key and key not in {other: 1}, name


def test_the_shared_keys_count_every_field():
    from expert.configurator.feasibility import Demand, Offered
    from expert.configurator.pairs import Horizon
    from expert.configurator.training_plan import TuningJob

    m8, m70 = CAT.model("llama-3.1-8b"), CAT.model("llama-3.1-70b")
    _every_field_counts(Demand, dict(sizing=_sizing(), peak_rps=1.0, concurrency=0.0, util=0.7, t_inf=None,
                                     agent_loop=False),
                        dict(sizing=_sizing(prompt=999), peak_rps=2.0, concurrency=4.0, util=0.5, t_inf=3.0,
                             agent_loop=True))
    _every_field_counts(Offered, dict(model=m8, precision="fp16", precision_open=True, allow_int4=False),
                        dict(model=m70, precision="int8", precision_open=False, allow_int4=True))
    _every_field_counts(Horizon, dict(months=36, a=A), dict(months=60, a=DEFAULT.override(mfu=0.3)))
    _every_field_counts(TuningJob, dict(model=m8, method="lora", tokens=1e7, epochs=1.0, a=A),
                        dict(model=m70, method="full", tokens=2e7, epochs=2.0, a=DEFAULT.override(mfu=0.3)))


def test_searches_sharing_caches_answer_as_searches_alone():
    """Searches that share the catalog's caches (as sensitivity and the chat's what-ifs do) pick what
    each picks with caches of its own: the prices (horizon), the options (precision, int4, model), the
    replica bounds (load, targets, utilisation) and the fine-tuning layouts (method, tokens, epochs) are
    each kept under their own inputs. Every workload below differs from the one before in one field."""
    from itertools import islice

    from expert.configurator.enumeration import run
    from expert.configurator.ordered import pairs

    base = {"model": "llama-3.1-8b", "requests_per_day": 20000, "latency_target_s": 2.0, "budget": "any",
            "fine_tuning": {"frequency": "monthly", "method": "lora", "dataset_tokens": 20_000_000}}
    small_70b = {"model": "llama-3.1-70b", "requests_per_day": 2000, "latency_target_s": 10}
    changes = [{"requests_per_day": 200000}, {}, {"horizon_months": 60}, {"horizon_months": 12},
               {"precision": "int8"}, small_70b, {**small_70b, "allow_int4": True},   # int8 on an A100, int4 on an L40S
               {"latency_target_s": 0.5}, {"target_utilization": 0.5},
               {"fine_tuning": {"frequency": "monthly", "method": "full", "dataset_tokens": 20_000_000}},
               {"fine_tuning": {"frequency": "monthly", "method": "lora", "dataset_tokens": 80_000_000}},
               {"fine_tuning": {"frequency": "monthly", "method": "lora", "dataset_tokens": 20_000_000,
                                "epochs": 3}}, {}]
    shared: dict = {}
    picks = set()
    for change in changes:
        w = Workload.model_validate({**base, **change})
        ctx, together, sources = run(w, CAT, A, shared, optimum_only=True)
        ctx_alone, alone, _ = run(w, CAT, A, {}, optimum_only=True)
        priced = [(e[3], e[4].key, e[5]) for e in islice(pairs(ctx, sources), 60)]
        assert priced == [(e[3], e[4].key, e[5]) for e in islice(pairs(ctx_alone, sources), 60)], change
        assert together.best is not None and alone.best is not None, change
        assert together.best.key == alone.best.key, change
        figures = ("objective", "train_monthly", "ft_hours", "ft_memory", "replicas", "batch")
        assert [getattr(together.best, f) for f in figures] == [getattr(alone.best, f) for f in figures], change
        picks.add(together.best.key)
    assert len(picks) >= 5   # the changes move the optimum: a stale cache would show
