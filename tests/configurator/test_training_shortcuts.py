"""The fine-tuning planner's shortcuts (issue 21) equal the plain path: the serving-idle option shared by
every planner of the same run (`TrainingPlanner.idle`) is the one a planner of its own computes, and the
kept best external option is the cheaper one."""

from __future__ import annotations

import dataclasses

from expert.catalog import load_catalog
from expert.configurator.candidates import catalog_sources
from expert.configurator.enumeration import as_workload, default_assumptions
from expert.configurator.training_plan import TrainingPlanner
from expert.sizing.constants import resolve

CAT = load_catalog()
A = default_assumptions(CAT)
GPUS = ["h100-sxm", "a100-80gb-sxm", "l40s", "rtx-4090", "b200", "mi300x"]


def _tuned(scenario_inputs) -> list:
    out = []
    for kind, data in scenario_inputs:
        if kind != "advise" or not data.get("fine_tuning") or data.get("agents"):
            continue
        w = as_workload(data)
        if w.tuning.enabled:
            out.append(w)
    return out


def _planner(w, jobs):
    model = CAT.resolve_model(w.model, w.params_b)
    t = w.tuning
    tokens = t.dataset_tokens if t.dataset_tokens is not None else resolve(A).default_dataset_tokens.value
    return TrainingPlanner(w, model, t, CAT, A, catalog_sources(CAT), tokens, jobs)


def test_shared_idle_options_equal_a_planner_of_their_own(scenario_inputs):
    workloads = _tuned(scenario_inputs)
    assert workloads
    for w in workloads:
        jobs: dict = {}
        waits = w.model_copy(update={"fine_tuning": w.tuning.model_copy(update={"team_waits": True})})
        variants = [w] + [v.model_copy(update={"horizon_months": m}) for v in (w, waits) for m in (12, 24, 60)] \
            + [v.model_copy(update={"team_hourly_rate_chf": r}) for v in (w, waits) for r in (0.0, 150.0)]
        for v in variants:
            shared = _planner(v, jobs)       # the planners of one advice share `jobs`
            for gpu in GPUS:
                for count in (1, 2, 4, 8, 16):
                    want = _planner(v, None).idle(CAT.gpu(gpu), count)
                    assert dataclasses.asdict(shared.idle(CAT.gpu(gpu), count)) == dataclasses.asdict(want)


def test_the_kept_best_external_option_is_the_cheaper_one(scenario_inputs):
    from expert.configurator.training_plan import KINDS
    for w in _tuned(scenario_inputs):
        p = _planner(w, {})
        ext = p.external()
        want = min(ext, key=lambda o: (round(o.total, 2), KINDS.index(o.kind))) if ext else None
        assert p.best_external() is want and p.best_external() is want
