"""`feasibility.tuning_rank` (what the cost order of `ordered.in_order` reads) gives exactly the numbers of
`feasibility._tuning`, the full fine-tuning part of a candidate, on every fine-tuned advice scenario and
example and on their variations of the team rate, the idle hours, the frequency and the budget."""

from __future__ import annotations

from expert.catalog import load_catalog
from expert.configurator.candidates import admissible_sources, catalog_sources
from expert.configurator.feasibility import Context, _tuning, tuning_rank
from expert.configurator.enumeration import as_workload, default_assumptions
from expert.inputs.workload import Workload

CAT = load_catalog()
A = default_assumptions(CAT)


def _variants(data: dict) -> list[Workload]:
    """The workload and changes that move the idle option's fit and team time and the external options."""
    w = as_workload(data)
    t = w.tuning
    out = [w]
    for update in ({"team_waits": True}, {"idle_hours_per_day": 0.0}, {"idle_hours_per_day": 2.0},
                   {"frequency": "weekly"}, {"method": "full"}, {"method": "qlora"}):
        out.append(w.model_copy(update={"fine_tuning": t.model_copy(update=update)}))
    out.append(w.model_copy(update={"team_hourly_rate_chf": 0.0}))
    out.append(w.model_copy(update={"deployment": "on_premise"}))
    full = t.model_copy(update={"method": "full", "frequency": "weekly"})
    out.append(w.model_copy(update={"model": None, "params_b": 1500.0, "fine_tuning": full}))  # nothing runs it
    return out


def test_tuning_rank_equals_tuning(scenario_inputs):
    checked = 0
    for kind, data in scenario_inputs:
        if kind != "advise" or "fine_tuning" not in data or data.get("agents"):
            continue
        for w in _variants(data):
            model = CAT.resolve_model(w.model, w.params_b)
            gpus = {s.gpu.id: s.gpu for s in admissible_sources(catalog_sources(CAT), w)}
            for gpu in gpus.values():
                for count in (1, 2, 3, 4, 8, 16, 32):
                    fast = Context(w, CAT, A, model)   # fresh caches: the rank is computed, not looked up
                    rank = tuning_rank(fast, gpu, count)
                    full = _tuning(Context(w, CAT, A, model), gpu, count)
                    assert rank == (bool(full[0]), full[1], full[4]), (w.model, gpu.id, count)
                    assert tuning_rank(fast, gpu, count) == rank
                    checked += 1
    assert checked > 500
