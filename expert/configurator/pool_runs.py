"""Where each fine-tuned agent of a pool trains, and what its runs cost (issues 12 and 33).

A run goes to the pool's training group — every GPU of a homogeneous pool or the fine-tuning GPUs of a
"split" hybrid in their idle hours, the second group of a "train-only" hybrid around the clock — when
its job fits there (`ft_job.layout_on`) and finishes within its period (`TrainingPlanner.limit_h`). On
serving GPUs the idle nights must also pay: their degraded service (the hours the run holds the GPUs at
the group's own cost per GPU-hour, `idle_nights.py`) must leave more than the minimum per night
(`idle_min_saving_chf_per_night`) against renting GPUs for the run's hours. Otherwise the run is rented
for its hours, priced as its own line. The search (`agents.PoolSearch.ft_team`) and the report's plan
lines (`pool_view`) read the same records.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from expert.configurator.idle_nights import gpu_hour_chf, minimum_per_run, nights_per_run
from expert.configurator.objective import gpu_cost
from expert.configurator.training_plan import attended_hours
from expert.sizing.ft_job import layout_on


@dataclass(frozen=True)
class PoolRun:
    """One fine-tuned agent's runs in a pool: where they go and what they cost."""

    agent: int                    # index of the agent in the pool
    where: str                    # "idle" (serving GPUs' nights) | "around" (train-only group) | "rented" | "none"
    gpu: str                      # the GPUs the run takes: the group's, or the rented ones
    count: int
    hours: float                  # hours of one run on those GPUs
    memory_gb: float              # per GPU
    fits: bool                    # the job fits the group's GPUs
    provider: str | None = None   # "rented": who rents them
    rented_because: str | None = None   # "rented": "memory" (no fit on the group), "time" (past its period), "saving"
    nights: int = 0               # nights of degraded service per run ("idle")
    nights_per_month: float = 0.0
    degraded_chf_per_run: float = 0.0   # serving capacity the nights hold, at the group's own cost
    rented_chf_per_run: float = 0.0     # "rented": the run on GPUs rented for its hours
    rented_horizon_chf: float = 0.0
    waits_h_per_month: float = 0.0      # team hours waiting on runs (000 M2)
    problem: str | None = None          # why the run cannot go anywhere ("none")


def pool_runs(ps, agents, source, k: int, around_the_clock: bool = False) -> list[PoolRun]:
    """The runs of the fine-tuned `agents` on `k` GPUs of `source` (module docstring)."""
    months = ps.w.horizon_months
    out = []
    for i in agents:
        ctx = ps.ctxs[i]
        t, planner = ctx.tuning, ctx.planner()
        per_day = 24.0 if around_the_clock else t.idle_hours_per_day
        lay = layout_on(ctx.model, source.gpu, t.method, k, planner.tokens, t.epochs, ps.a)
        nights = nights_per_run(lay.hours, per_day) if per_day > 0 else math.inf
        elapsed = lay.hours if nights <= 1 else nights * 24.0
        ext = next((o for o in planner.external() if o.kind == "rented-per-run"), None)
        held = lay.hours * k * gpu_hour_chf(gpu_cost(source, k, months, ps.a), k, months, ps.a)
        because = "memory" if not lay.fits else "time" if elapsed > planner.limit_h else None
        on_group = because is None
        if on_group and not around_the_clock and ext is not None:  # serving GPUs: the nights must pay
            on_group = ext.cost_per_run_chf - held > minimum_per_run(nights, ps.a)
            because = None if on_group else "saving"
        common = dict(agent=i, gpu=source.gpu.id, count=k, hours=lay.hours, memory_gb=lay.memory_per_gpu_gb,
                      fits=lay.fits)
        if on_group:
            idle = not around_the_clock
            out.append(PoolRun(where="idle" if idle else "around", nights=nights if idle else 0,
                               nights_per_month=nights * t.runs_per_year / 12 if idle else 0.0,
                               degraded_chf_per_run=held if idle else 0.0,
                               waits_h_per_month=attended_hours(elapsed) * t.runs_per_year / 12, **common))
        elif ext is not None:
            common.update(gpu=ext.gpu, count=ext.gpus, hours=ext.hours_per_run or 0.0,
                          memory_gb=ext.memory_per_gpu_gb or 0.0, provider=ext.provider, rented_because=because)
            out.append(PoolRun(where="rented", rented_chf_per_run=ext.cost_per_run_chf,
                               rented_horizon_chf=ext.cost_horizon_chf,
                               waits_h_per_month=attended_hours(ext.elapsed_hours_per_run) * t.runs_per_year / 12,
                               **common))
        else:
            why = (f"needs {lay.memory_per_gpu_gb:.1f} GB per GPU, has {lay.usable_per_gpu_gb:.1f}"
                   if not lay.fits else f"a run takes {elapsed / 24:.1f} days")
            out.append(PoolRun(where="none", problem=f"{ctx.w.name}: fine-tuning on {k}× {source.gpu.id} {why}",
                               **common))
    return out


def training_group(opt) -> tuple:
    """(source, count, around the clock) of the group a pool option trains on: its last group in a
    hybrid (the fine-tuning GPUs, around the clock when they only train), its only group otherwise."""
    s, n, role, *_ = opt.groups[-1] if len(opt.groups) > 1 else opt.groups[0]
    return s, n, role == "train"


def option_runs(ps, opt) -> list[PoolRun]:
    """The runs of a pool option's fine-tuned agents, as its search priced them (`pool_runs`)."""
    s, n, around = training_group(opt)
    return pool_runs(ps, ps.tuned, s, n, around)


def run_dict(run: PoolRun, name: str, checkpoint_gb: float) -> dict:
    """A run as the report's JSON carries it (`pool_runs`, docs/contract.md)."""
    r = lambda x: round(x, 3)  # noqa: E731
    return {"agent": name, "where": run.where, "gpu": run.gpu, "count": run.count, "provider": run.provider,
            "rented_because": run.rented_because,
            "hours_per_run": r(run.hours), "memory_per_gpu_gb": r(run.memory_gb),
            "nights_per_run": run.nights, "nights_per_month": r(run.nights_per_month),
            "degraded_chf_per_run": round(run.degraded_chf_per_run, 2),
            "rented_chf_per_run": round(run.rented_chf_per_run, 2), "checkpoint_gb": r(checkpoint_gb)}
