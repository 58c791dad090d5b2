"""Where one fine-tuned agent of a pool runs, and what its idle nights cost (issue 33, as `idle_nights.py`
for a single plan): on the group's GPUs in their idle hours (or around the clock on a train-only group), or
on GPUs rented for the run's hours when the nights do not pay.

The same rule as a single plan: the serving GPUs' nights go to the run only when the rented run costs
more than the GPU-hours the run holds (at the group's own cost per GPU-hour, `idle_nights.gpu_hour_chf`)
plus `Assumptions.idle_min_saving_chf_per_night` a night; the held GPU-hours are the degraded service,
stated per run, per month and over the horizon (not in the TCO: they decide where the run goes). One
function for the pool search's costs (`agents.PoolSearch._ft_team`) and the pool's plan lines
(`pool_view.py`), so the lines say what the search priced.
"""

from __future__ import annotations

import math
from dataclasses import dataclass


@dataclass(frozen=True)
class PoolRun:
    """One agent's runs on k GPUs of a source: the layout, the nights a run takes, where it goes, and the
    degraded service of runs on serving GPUs (0 elsewhere)."""

    layout: object            # ft_job.Layout on the k GPUs
    nights: float             # nights per run at the idle hours (inf where there are none)
    elapsed_h: float          # hours from start to end of a run on these GPUs
    rented: object            # the rented-per-run option (TrainingOption) or None
    here: bool                # the run takes these GPUs (else it is rented, or has nowhere to go)
    degraded_chf_per_run: float
    degraded_nights_per_month: float
    degraded_horizon_chf: float


def pool_run(ctx, source, k: int, around_the_clock: bool, a, months: int) -> PoolRun:
    """Agent context `ctx`'s runs on `k` × `source` (module docstring)."""
    from expert.configurator.idle_nights import gpu_hour_chf, minimum_per_run
    from expert.configurator.objective import gpu_cost
    from expert.sizing.ft_job import layout_on

    t, planner = ctx.tuning, ctx.planner()
    per_day = 24.0 if around_the_clock else t.idle_hours_per_day
    lay = layout_on(ctx.model, source.gpu, t.method, k, planner.tokens, t.epochs, a)
    nights = math.ceil(lay.hours / per_day - 1e-9) if per_day > 0 else math.inf
    elapsed = lay.hours if nights <= 1 else nights * 24.0
    ext = next((o for o in planner.external() if o.kind == "rented-per-run"), None)
    here = lay.fits and elapsed <= planner.limit_h
    held = 0.0
    if here and not around_the_clock:  # serving GPUs: the nights must pay (idle_nights.py)
        held = lay.hours * k * gpu_hour_chf(gpu_cost(source, k, months, a), k, months, a)
        here = ext is None or ext.cost_per_run_chf - held > minimum_per_run(nights, a)
    if not here or around_the_clock:
        return PoolRun(lay, nights, elapsed, ext, here, 0.0, 0.0, 0.0)
    runs = t.runs_per_year * months / 12
    return PoolRun(lay, nights, elapsed, ext, here, held, nights * t.runs_per_year / 12, held * runs)
