"""An agent loop's search shortcuts (issue 21) give exactly what the plain computation gives: the step
TTFT's share-independent terms (`agent_demand.ttft_terms`, `shift_of`), profiles shifted from the
agent-free one (`profile.shifted`), the replica bounds of an agent's options (`ordered._needed`'s `FIRST`
stage and `_capacity_bound`) and, with all three, the search's answer."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
import yaml

from expert.catalog import load_catalog
from expert.configurator import feasibility, ordered
from expert.configurator.agent_demand import demand, equivalent, shift_of, ttft_shift, ttft_terms
from expert.configurator.configure import search
from expert.configurator.profile import build_profile, shifted, with_target
from expert.configurator.enumeration import context, default_assumptions
from expert.inputs.slo import targets
from expert.inputs.workload import Workload

ROOT = Path(__file__).resolve().parents[2]
CAT = load_catalog()
A = default_assumptions(CAT)
SHARES = (1.0, 0.75, 0.5, 0.25, 0.0)
GPUS = ("h100-sxm", "a100-80gb-pcie", "l40s", "rtx-4090", "b200")
AGENTS = [{"kind": "coding", "kv_during_tools": "cpu", "tasks_per_day": 5000},
          {"kind": "conversational", "kv_during_tools": "cpu", "tasks_per_day": 50000, "session_affinity": False},
          {"kind": "conversational", "kv_during_tools": "gpu", "tasks_per_day": 144000},
          {"kind": "coding", "kv_during_tools": "drop", "tasks_per_day": 500}]


def _workload(model: str, agent: dict, **extra) -> Workload:
    return Workload.model_validate({"model": model, "agent": agent, **extra})


def _gpus():
    return [CAT.gpus[g] for g in GPUS if g in CAT.gpus]


@pytest.mark.parametrize("model_id", ["llama-3.1-8b", "qwen2.5-32b", "mixtral-8x7b"])
def test_ttft_terms_give_the_shift_bit_for_bit(model_id):
    """`shift_of(ttft_terms(...))` equals `ttft_shift` for every share, GPU, precision, TP and column."""
    model = CAT.model(model_id)
    for agent in AGENTS:
        w = _workload(model_id, agent)
        d = demand(w, model)
        prompt = equivalent(w, d).prompt_tokens
        for gpu in _gpus():
            for precision in ("fp16", "fp8", "int4"):
                for tp in (1, 2, 8):
                    for column in ("sxm", "pcie"):
                        terms = ttft_terms(d, model, gpu, tp, precision, column, prompt, A)
                        for share in SHARES:
                            e = d.offloading(share)
                            assert shift_of(e, terms) == ttft_shift(e, model, gpu, tp, precision, column, prompt, A)


def _numbers(p, slo) -> tuple:
    """What a search reads of a profile: memory, latencies, its replica and capacity, its targets' batch."""
    t = with_target(p, slo)
    replica = t.replica(capped=False)
    return (p.seq_mem, p.base_gb, p.kv_seq_gb, p.prefill_1, p.e2e_1, p.prefill_compute, p._ttft,
            [p.e2e(b) for b in (1, 2, 7, 64)], [p.tpot(b) for b in (1, 3, 50)], replica.pieces,
            replica.c_prefill, replica.prefill_1, replica.prompt, [replica.decode(b) for b in (1, 5)], t.rate_max(), t.seq_lat,
            t.replicas_needed(3.0, 0.0, 0.7, None), t.point(4, 3.0, 0.0, 0.7, None))


@pytest.mark.parametrize("model_id", ["llama-3.1-8b", "qwen2.5-14b", "mixtral-8x7b"])
def test_shifted_profiles_equal_built_ones(model_id):
    """`shifted(core, s)` equals `build_profile(..., ttft_shift=s)`, also after the core and another
    shifted copy have filled their caches."""
    model = CAT.model(model_id)
    rng = random.Random(7)
    for gpu in _gpus():
        for precision, tp, column in (("fp16", 1, "sxm"), ("fp8", 2, "pcie"), ("int8", 4, "sxm")):
            args = (model, gpu, precision, tp, column, 2400, 350, 6000)
            core = build_profile(*args, None, A)
            if core.seq_mem < 1:
                continue
            slo = targets(Workload.model_validate({"model": model_id, "latency_target_s": rng.choice([2.0, 8.0])}))
            _numbers(core, slo)
            for shift in (-0.8 * core.prefill_1, -0.1 * core.prefill_1, 0.0, 0.003, -2.0 * core.prefill_1):
                _numbers(shifted(core, 0.5 * shift), slo)   # another copy's caches filled first
                assert _numbers(shifted(core, shift), slo) == _numbers(build_profile(*args, None, A, ttft_shift=shift),
                                                                       slo)


def _agent_workloads() -> list[dict]:
    out = []
    for name in ("agent-u1-rag-with-tools", "agent-swe-bench-mooncake", "agent-tracelab-coding",
                 "agent-kv-dropped-during-tools", "agent-agentx-context-limit"):
        path = ROOT / "tests" / "scenarios" / f"advise-{name}.scenario.yaml"
        out.append(yaml.safe_load(path.read_text(encoding="utf-8"))["workload"])
    rng = random.Random(11)
    for _ in range(6):
        out.append({"model": rng.choice(["llama-3.1-8b", "qwen2.5-14b", "qwen2.5-32b", "llama-3.1-70b"]),
                    "agent": {**rng.choice(AGENTS), "tasks_per_day": rng.choice([300, 3000, 30000, 300000])},
                    "latency_target_s": rng.choice([1.0, 3.0, 10.0]), "hosting": rng.choice(["any", "ch"]),
                    "budget": rng.choice(["opex", "capex"])})
    return out


def test_agent_replica_bound_is_a_lower_bound():
    """Every count with fewer replicas than `_needed`'s bound (or any count, for -1) fails `_serving`."""
    checked = 0
    for wd in _agent_workloads():
        ctx, sources = context(Workload.model_validate(wd), CAT, A, {})
        for source in sources[::3]:
            for precision in ("fp16", "fp8", "int8"):
                for count in source.counts[:24]:
                    for tp in ctx.tp_degrees(count, source):
                        _, needed, _ = ordered._needed(ctx, source, precision, tp, count // tp)
                        if needed < 0 or count // tp < needed:
                            prof = ctx.profile(source.gpu, precision, tp, source.column)
                            assert feasibility._serving(ctx, prof, tp, count)[0], (wd, source.key, count, tp)
                            checked += 1
    assert checked > 100


def _plain_sized(self, gpu, precision, tp, column, base_key):
    """`Context._sized` before the shortcuts: every agent profile built with its own shift."""
    w = self.w
    shift = 0.0 if self.agent is None else ttft_shift(self.agent, self.model, gpu, tp, precision, column,
                                                      w.prompt_tokens, self.a)
    return build_profile(self.model, gpu, precision, tp, column, w.prompt_tokens, w.output_tokens, self.context,
                         None, self.a, self.growth, w.engine, shift, w.kv_precision)


@pytest.mark.parametrize("detail", [False, True])
def test_agent_searches_equal_the_plain_ones(monkeypatch, detail):
    """The whole answer (offload share, optimum, alternatives, sensitivity) of agent workloads with the
    shortcuts equals the one without them."""
    for wd in _agent_workloads():
        fast = search(wd, CAT, A, detail=detail)
        with monkeypatch.context() as m:
            m.setattr(ordered, "_first", lambda ctx, source, precision, tp: ordered._advance(
                ctx, source, precision, tp, ordered.FIRST, 0))
            m.setattr(ordered, "_capacity_bound", lambda ctx, prof: 0)
            m.setattr(feasibility.Context, "_sized", _plain_sized)
            plain = search(wd, CAT, A, detail=detail)
        assert fast.model_dump() == plain.model_dump(), wd


def _kv_on_gpu_workloads() -> list[dict]:
    """The agent workloads above and the examples' with their KV on the GPU during tools, with and
    without session affinity (the loops whose answer names an offload optimum)."""
    out = []
    examples = [yaml.safe_load(p.read_text(encoding="utf-8")) for p in sorted((ROOT / "examples").glob("*.yaml"))]
    for wd in _agent_workloads() + [e for e in examples if isinstance(e, dict) and "agent" in e]:
        for affinity in (True, False):
            out.append({**wd, "agent": {**wd["agent"], "kv_during_tools": "gpu", "session_affinity": affinity}})
    return out


def test_offload_optimum_bound_leaves_the_answer_as_it_was(monkeypatch):
    """`agent_report.offload_optimum` skips the offloading loop's search when no optimum of it can cost
    less than the loop's own by more than 0.5 CHF (`_may_pay`): the answer equals the one that always
    searches it, and both cases occur."""
    from expert.configurator import agent_report
    bound = []
    for wd in _kv_on_gpu_workloads():
        fast = search(wd, CAT, A, sensitivity=False, detail=False)
        with monkeypatch.context() as m:
            m.setattr(agent_report, "_may_pay", lambda *args: True)
            plain = search(wd, CAT, A, sensitivity=False, detail=False)
        assert fast.model_dump() == plain.model_dump(), wd
        if plain.agent is not None:
            bound.append(plain.agent["kv_bound"])
    assert True in bound and False in bound
