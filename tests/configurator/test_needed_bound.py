"""`ordered._needed` without an agent loop: a bound from the profile without targets, then the capacity
bound, the final value (`replicas_needed`) when a pair reaches them. Each is a lower bound (every count
below fails `_serving`), the bounds are at most the final value, and a pair that reaches them gets the
final value, on every advice scenario and example and on its twice-as-busy variant; the whole answers
equal those of the search that asks `replicas_needed` at once."""

from __future__ import annotations

from expert.catalog import load_catalog
from expert.configurator import feasibility, ordered
from expert.configurator.enumeration import context, default_assumptions
from expert.sizing.engines import device_memory_gb
from expert.sizing.memory import weights_gb
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
            for precision in ctx.precisions(source.gpu):
                for count in source.counts[:20]:
                    for tp in ctx.tp_degrees(count, source):
                        first = ordered._needed(ctx, source, precision, tp)       # a bound or final
                        prof, needed, stage = ordered._needed(ctx, source, precision, tp, count // tp)
                        stages.add(first[2])
                        if weights_gb(ctx.model, precision, A) / tp > device_memory_gb(source.gpu, A):
                            assert (prof, needed, stage) == (None, -1, ordered.FINAL)
                            continue
                        p = ctx.profile(source.gpu, precision, tp, source.column)
                        plain = p.replicas_needed(ctx.peak_rps, ctx.concurrency, ctx.util, ctx.t_inf) \
                            if min(p.seq_mem, p.seq_lat) >= 1 else 0
                        plain = plain if plain > 0 else -1
                        if stage == ordered.FINAL:
                            assert needed == plain and (prof is p or needed == -1)
                        else:
                            assert count // tp < needed and (plain == -1 or needed <= plain)
                        assert first[2] == ordered.FINAL or first[1] <= needed or needed == -1
                        if needed < 0 or count // tp < needed:
                            assert feasibility._serving(ctx, p, tp, count)[0], (w, source.key, count, tp)
                            checked += 1
    assert checked > 200 and stages == {ordered.FIRST, ordered.CAPACITY, ordered.FINAL}


def test_answers_equal_the_search_without_the_bound(scenario_inputs, monkeypatch):
    """The whole answer (optimum, alternatives, sensitivity, documents' view) with the bounds and the
    count floors equals the one that asks `replicas_needed` at once (no first stage, `_capacity_bound`
    0: no bound) and keeps no floor (`memo_local` always empty)."""
    from expert.configurator import search
    for w in _workloads(scenario_inputs):
        fast = search(w, CAT, A, detail=False)
        with monkeypatch.context() as m:
            m.setattr(ordered, "_first", lambda ctx, source, precision, tp: ordered._advance(
                ctx, source, precision, tp, ordered.FIRST, 0))
            m.setattr(ordered, "_capacity_bound", lambda ctx, prof: 0)
            m.setattr(feasibility.Context, "memo_local", property(lambda self: {}, lambda self, value: None),
                      raising=False)
            plain = search(w, CAT, A, detail=False)
        assert fast.model_dump() == plain.model_dump(), w
