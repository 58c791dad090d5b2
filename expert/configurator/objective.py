"""The objective: cost over the horizon in CHF, and the documented tie-break order.

- Renting (000 T1): months × rent × count × (1 + 15 % infrastructure) + energy; energy = TDP ×
  count × 1.5 (cooling, PUE) × 730 h × months × 0.18 CHF/kWh (`expert.sizing.cost.rent_cost`).
- Buying (GPUs or a 004 package): purchase × (1 + 15 %) + energy − resale, resale = purchase ×
  share36^(months/36), share36 = 35 % (000 T5 30-40 %; `expert.sizing.cost.buy_cost`).
- Team time (000 M2, U2): fine-tuning compute hours per run on the configuration × runs per month ×
  the team's hourly rate, added to every month of the horizon.

objective = GPU cost over the horizon + team time over the horizon. The same closed forms as
`expert.sizing.cost` (checked in tests/configurator/test_objective.py), without building results.

Tie-break (stable, total): lower objective (to the centime) → higher quality precision (16-bit
before fp8 before int8 before int4: quantising is only chosen when it saves money) → lower
tensor-parallel degree (004 C9: tensor parallelism is there to make a model fit; replicas serve
load without its communication cost; both already meet the latency targets) → lower estimated p95
latency (to the microsecond) → fewer GPUs → source kind (cloud, package, purchase) → catalog order
of the offer/package/purchase entry.
"""

from __future__ import annotations

from expert.configurator.candidates import QUALITY_ORDER, SOURCE_ORDER, Source
from expert.sizing.constants import Assumptions


def energy_chf(tdp_w: float, count: int, months: float, a: Assumptions) -> float:
    """000 T1 energy: TDP × count × cooling × hours per month × months × tariff."""
    return tdp_w / 1000 * count * a.cooling_factor.value * a.hours_per_month.value * months \
        * a.electricity_chf_per_kwh.value


def resale(months: float, a: Assumptions) -> float:
    """Resale share of the purchase after `months` (geometric from T5's 36-month value)."""
    return a.resale_share.value ** (months / 36.0)


def gpu_cost(source: Source, count: int, months: float, a: Assumptions) -> float:
    """GPU cost over the horizon (rent or buy), CHF."""
    s = a.infrastructure_share.value
    energy = energy_chf(source.energy_tdp_w, count, months, a)
    if source.kind == "cloud":
        return months * source.rent_chf * count * (1 + s) + energy
    price = source.purchase_chf if source.kind == "package" else source.purchase_chf * count
    return price * (1 + s) + energy - resale(months, a) * price


def sort_key(objective: float, precision: str, latency: float, count: int, source: Source, tp: int) -> tuple:
    """The documented tie-break order (module docstring)."""
    return (round(objective, 2), QUALITY_ORDER[precision], tp, round(latency, 6), count, SOURCE_ORDER[source.kind],
            source.order)
