"""QA 44 D9: an agent step's prefill carries the all-reduces of its uncached tokens only, and the report
names the compute limit that sets the replicas (DeepSeek-V3 coding agent on B300)."""

from __future__ import annotations

import pytest

import expert
from expert.catalog.loader import load_catalog
from expert.configurator.agent_demand import step_prefill
from expert.configurator.enumeration import default_assumptions, run
from expert.inputs.workload import Workload
from expert.report.render import agent_lines
from expert.sizing import agent_loop as loop

A3B = {"model": "deepseek-v3", "deployment": "cloud",
       "agent": {"kind": "coding", "tasks_per_day": 20_000, "session_affinity": True}}


def test_step_prefill_moves_only_its_new_tokens():
    cat = load_catalog()
    ctx, out, _ = run(Workload(**A3B), cat, default_assumptions(cat), {}, detail=False)
    b = out.best
    assert (b.source.gpu.id, b.tp) == ("b300", 4)
    step = step_prefill(ctx.agent)
    prof = ctx.profile(b.source.gpu, b.precision, b.tp, b.source.column)
    # all-reduce per token at TP 4 over NVLink 1800/2 GB/s: 2 × 61 layers × 7168 hidden × 2 B × 2·3/4 / 900e9
    # = 2.915e-6 s; 3067 new tokens: 0.0089 s (the 37 837 of the whole step were 0.110 s, QA 44 D9)
    per_token = 2 * 61 * 7168 * 2 * 1.5 / 900e9
    alone = loop.prefill_s(ctx.model, b.source.gpu, 4, b.precision, b.source.column, step.uncached, step.cached,
                           ctx.a)
    assert round(step.uncached) == 3067
    assert prof.prefill_1 == pytest.approx(alone + per_token * step.uncached, abs=2e-5)
    assert prof.prefill_1 == pytest.approx(0.0778, abs=1e-4)


def test_report_names_the_compute_limit():
    report = expert.advise(A3B)
    rec, g = report.recommendation, report.agent
    # one 4× B300 replica: 6.02 steps/s at most, × 0.70 (000 D3) = 4.21 < the peak 5.42: 2 replicas, 8 GPUs
    assert (rec.gpu, rec.count, rec.tensor_parallel) == ("b300", 8, 4)
    assert round(g.replica_steps_max, 2) == 6.02 and g.replicas_for_compute == 2 and g.replicas == 2
    line = ("one replica (4× b300) computes at most 6.02 LLM steps/s; at 000 D3's 70 % utilisation 4.21 steps/s, "
            "so the peak of 5.42 steps/s needs 2 replicas for compute; the pick has 2")
    assert line in agent_lines(g, "en")
