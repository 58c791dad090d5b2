"""`ordered._needed` without an agent loop: its first value is the capacity bound, the final value
(`replicas_needed`) comes when a pair reaches it. Both are lower bounds (every count below fails
`_serving`), the bound is at most the final value, and a pair that reaches the bound gets the final
value, on every advice scenario and example and on its twice-as-busy variant."""

from __future__ import annotations

from expert.catalog import load_catalog
from expert.configurator import feasibility, ordered
from expert.configurator.search import context, default_assumptions
from expert.workload import Workload

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


def test_bound_and_final_value_are_lower_bounds(scenario_inputs):
    checked = bounds = 0
    for w in _workloads(scenario_inputs):
        ctx, sources = context(w, CAT, A, {})
        for source in sources[::4]:
            for precision in ctx.precisions(source.gpu):
                for count in source.counts[:20]:
                    for tp in ctx.tp_degrees(count, source):
                        first = ordered._needed(ctx, source, precision, tp)       # bound or final
                        prof, needed, final = ordered._needed(ctx, source, precision, tp, count // tp)
                        if prof is None:
                            assert needed == -1
                            continue
                        plain = prof.replicas_needed(ctx.peak_rps, ctx.concurrency, ctx.util, ctx.t_inf)
                        plain = plain if plain > 0 and min(prof.seq_mem, prof.seq_lat) >= 1 else -1
                        if final:
                            assert needed == plain
                        else:
                            bounds += 1
                            assert count // tp < needed <= plain or plain == -1
                        assert first[1] <= needed or needed == -1 or first[2]
                        if needed < 0 or count // tp < needed:
                            assert feasibility._serving(ctx, prof, tp, count)[0], (w, source.key, count, tp)
                            checked += 1
    assert checked > 200 and bounds > 20


def test_answers_equal_the_search_without_the_bound(scenario_inputs, monkeypatch):
    """The whole answer (optimum, alternatives, sensitivity, documents' view) with the capacity bound
    equals the one that asks `replicas_needed` at once (`_capacity_bound` 0: no bound)."""
    from expert.configurator import search
    for w in _workloads(scenario_inputs):
        fast = search(w, CAT, A, detail=False)
        with monkeypatch.context() as m:
            m.setattr(ordered, "_capacity_bound", lambda ctx, prof: 0)
            plain = search(w, CAT, A, detail=False)
        assert fast.model_dump() == plain.model_dump(), w
