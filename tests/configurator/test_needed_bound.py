"""`ordered._needed` is a lower bound on the replicas of a feasible candidate: at every stage (a bound
from the profile without targets, the capacity bound, the final value), every count whose replicas
fall below it is infeasible, and an option it rules out (-1) has no feasible count; the bounds only
rise towards the final value, which is `replicas_needed` itself. On every advice scenario and example
without agents and on its twice-as-busy variant (agent loops: tests/configurator/test_agent_shortcuts.py)."""

from __future__ import annotations

from expert.catalog import load_catalog
from expert.configurator import ordered
from expert.configurator.feasibility import evaluate
from expert.configurator.enumeration import context, default_assumptions
from expert.inputs.workload import Workload

CAT = load_catalog()
A = default_assumptions(CAT)


def _workloads(scenario_inputs) -> list[Workload]:
    out = []
    for kind, data in scenario_inputs:
        if kind != "advise" or data.get("agents") or data.get("agent"):
            continue
        w = Workload.model_validate(data)
        out.append(w)
        if w.requests_per_second is not None:
            out.append(w.model_copy(update={"requests_per_second": w.requests_per_second * 2}))
        elif w.requests_per_day:
            out.append(w.model_copy(update={"requests_per_day": w.requests_per_day * 2}))
    return out


def test_bounds_and_final_values_are_lower_bounds(scenario_inputs):
    checked, stages = 0, set()
    for w in _workloads(scenario_inputs):
        ctx, sources = context(w, CAT, A, {})
        for source in sources[::4]:
            gpu, column = source.gpu, source.column
            for precision in ctx.precisions(gpu):
                for count in source.counts[:20]:
                    for tp in ctx.tp_degrees(count, source):
                        first = ordered._needed(ctx, gpu, column, precision, tp)       # a bound or final
                        prof, needed, stage = ordered._needed(ctx, gpu, column, precision, tp, count // tp)
                        stages.add(first[2])
                        if stage == ordered.FINAL and needed > 0:
                            assert needed == prof.replicas_needed(ctx.peak_rps, ctx.concurrency, ctx.util,
                                                                  ctx.t_inf)
                        else:
                            assert needed == -1 or count // tp < needed
                        assert first[2] == ordered.FINAL or first[1] <= needed or needed == -1
                        if needed < 0 or count // tp < needed:
                            assert not evaluate(ctx, source, precision, tp, count).feasible, (w, source.key, count)
                            checked += 1
    assert checked > 200 and stages == {ordered.FIRST, ordered.CAPACITY, ordered.FINAL}
