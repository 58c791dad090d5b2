"""The objective: cost over the horizon in CHF, and the documented tie-break order.

- Renting and buying are `expert.sizing.buyrent` cost lines, the one computation the report and the
  chat's chart share: renting (000 T1) months × rent × count × (1 + 15 %) + energy where the rent
  excludes power; buying a complete system (a 004 package or GPUs in a chassis class) its price
  × (1 + 15 %) + the whole server's energy − resale (000 T5, steeper early, after selling costs).
- Team time (000 M2, U2): fine-tuning compute hours per run on the configuration × runs per month ×
  the team's hourly rate, added to every month of the horizon.

objective = GPU cost over the horizon + team time over the horizon.

Tie-break (stable, total): lower objective (to the centime) → higher quality precision (16-bit
before fp8 before int8 before int4: quantising is only chosen when it saves money) → lower
tensor-parallel degree (004 C9: tensor parallelism is there to make a model fit; replicas serve
load without its communication cost; both already meet the latency targets) → lower estimated p95
latency (to the microsecond) → fewer GPUs → source kind (cloud, package, purchase) → catalog order
of the offer/package/purchase entry.
"""

from __future__ import annotations

from expert.configurator.candidates import QUALITY_ORDER, SOURCE_ORDER, Source
from expert.sizing.buyrent import CostLine, owned, rented
from expert.sizing.constants import Assumptions


def cost_line(source: Source, count: int, months: int, a: Assumptions) -> CostLine:
    """The option as a `CostLine` of the one buy-versus-rent computation (`expert.sizing.buyrent`)."""
    if source.kind == "cloud":
        return rented(source.key, source.rent_chf * count, months, source.energy_tdp_w * count, a)
    price, power, _ = source.system(count)
    return owned(source.key, price, power, months, a)


def gpu_cost(source: Source, count: int, months: float, a: Assumptions) -> float:
    """GPU cost over the horizon (rent or buy), CHF: the total of its cost line."""
    return cost_line(source, count, int(months), a).total


def sort_key(objective: float, precision: str, latency: float, count: int, source: Source, tp: int) -> tuple:
    """The documented tie-break order (module docstring)."""
    return (round(objective, 2), QUALITY_ORDER[precision], tp, round(latency, 6), count, SOURCE_ORDER[source.kind],
            source.order)
