"""Whether a fine-tuning run may take the serving GPUs' idle nights, and what those nights cost (issue 33).

- Degraded service: while the run holds the serving GPUs the serving engine is stopped on them (the run
  owns their memory, `ft_job.TRAIN_MEMORY_SHARE`), so the night's requests wait, fail or go elsewhere.
  The plan states the nights per run and per month, and prices them as the serving capacity lost: the
  hours the run holds the GPUs × the GPUs × the configuration's own cost per GPU-hour (its 000 T1 cost
  over the horizon ÷ the horizon's hours ÷ its GPUs). Why this model and not the rent of replacement
  capacity: it exists for every configuration (bought, rented, a package; any hosting), it is what the
  operator pays for that capacity, so its worth to them is at least that; replacement capacity rented
  for a few hours a night costs more per hour than the same GPUs' monthly rent (an offer's hourly
  price is at or above its monthly price ÷ 730 h), and for sensitive data or Swiss-only hosting the
  catalog often has none, so a replacement rent would only make the nights dearer.
- Minimum saving: the nights go to the run only when, after that cost, they save more than
  `Assumptions.idle_min_saving_chf_per_night` per night against the best other source (GPUs rented
  for the run's hours, or dedicated training GPUs); otherwise the run goes there. With no other
  source the nights are the only way to run it and are kept, their cost stated.
"""

from __future__ import annotations

import math

from expert.sizing.constants import Assumptions, resolve


def gpu_hour_chf(cost: float, count: int, months: float, a: Assumptions | None) -> float:
    """A configuration's own cost per GPU-hour: its 000 T1 `cost` over `months` (`objective.gpu_cost`)
    ÷ (months × hours per month × GPUs)."""
    hours = months * resolve(a).hours_per_month.value * max(1, count)
    return cost / hours if hours > 0 else 0.0


def nights_per_run(hours: float, per_day: float) -> int:
    """Nights a run of `hours` spreads over at `per_day` idle hours a night (at least one)."""
    return max(1, math.ceil(hours / per_day - 1e-9)) if per_day > 0 else 0


def price_nights(opt, count: int, per_day: float, runs_per_year: float, gpu_hour_chf: float | None,
                 runs: float) -> None:
    """Set the serving-idle option `opt`'s degraded-service figures (nights per run and month, GPU-hours
    held, CHF per run and over the horizon of `runs` runs); without a price only the nights."""
    hours = opt.hours_per_run or 0.0
    opt.degraded_nights_per_run = nights_per_run(hours, per_day)
    opt.degraded_nights_per_month = opt.degraded_nights_per_run * runs_per_year / 12
    opt.degraded_hours_per_run = hours
    if gpu_hour_chf is not None:
        opt.degraded_chf_per_run = hours * count * gpu_hour_chf
        opt.degraded_horizon_chf = opt.degraded_chf_per_run * runs


def worth_it(idle, other, runs: float, a: Assumptions | None) -> bool:
    """True when the serving-idle option `idle` beats `other` (the best other source, fitting) by more
    than the minimum per night after the degraded service's cost; sets `idle.saving_per_run_chf` and
    `idle.min_saving_per_run_chf` (module docstring)."""
    saving = (other.total - idle.total - (idle.degraded_horizon_chf or 0.0)) / max(runs, 1e-9)
    idle.saving_per_run_chf, idle.saving_against = saving, other.kind
    idle.min_saving_per_run_chf = minimum_per_run(idle.degraded_nights_per_run or 1, a)
    return saving > idle.min_saving_per_run_chf


def minimum_per_run(nights: int, a: Assumptions | None) -> float:
    """What a run's idle nights must save: nights × `Assumptions.idle_min_saving_chf_per_night`."""
    return max(1, nights) * resolve(a).idle_min_saving_chf_per_night.value
