"""An agent loop's replica bound (`ordered._needed`'s `FIRST` stage and `_capacity_bound`, issue 21) is a
lower bound: every count with fewer replicas is infeasible."""

from __future__ import annotations

import random
from pathlib import Path

import yaml

from expert.catalog import load_catalog
from expert.configurator import ordered
from expert.configurator.feasibility import evaluate
from expert.configurator.enumeration import context, default_assumptions
from expert.inputs.workload import Workload

ROOT = Path(__file__).resolve().parents[2]
CAT = load_catalog()
A = default_assumptions(CAT)
AGENTS = [{"kind": "coding", "kv_during_tools": "cpu", "tasks_per_day": 5000},
          {"kind": "conversational", "kv_during_tools": "cpu", "tasks_per_day": 50000, "session_affinity": False},
          {"kind": "conversational", "kv_during_tools": "gpu", "tasks_per_day": 144000},
          {"kind": "coding", "kv_during_tools": "drop", "tasks_per_day": 500}]


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
    """Every count with fewer replicas than `_needed`'s bound (or any count, for -1) is infeasible."""
    checked = 0
    for wd in _agent_workloads():
        ctx, sources = context(Workload.model_validate(wd), CAT, A, {})
        for source in sources[::3]:
            for precision in ("fp16", "fp8", "int8"):
                for count in source.counts[:24]:
                    for tp in ctx.tp_degrees(count, source):
                        _, needed, _ = ordered._needed(ctx, source.gpu, source.column, precision, tp,
                                                       count // tp)
                        if needed < 0 or count // tp < needed:
                            assert not evaluate(ctx, source, precision, tp, count).feasible, (wd, source.key, count)
                            checked += 1
    assert checked > 100

