"""The objective: cost over the horizon in CHF, and the documented tie-break order.

- Renting and buying are `expert.sizing.buyrent` cost lines, the one computation the report and the
  chat's chart share: renting (000 T1) months × rent × count × (1 + 15 %) + energy where the rent
  excludes power; buying a complete system (a 004 package or GPUs in a chassis class) its price
  × (1 + 15 %) + the whole server's energy − resale (000 T5, steeper early, after selling costs).
- Team time (000 M2, U2): fine-tuning compute hours per run on the configuration × runs per month ×
  the team's hourly rate, added to every month of the horizon.

objective = GPU cost over the horizon + team time over the horizon. The same closed forms as
`expert.sizing.buyrent` (checked in tests/configurator/test_objective_closed_form.py).

Tie-break (stable, total): lower objective (to the centime) → higher quality precision (16-bit
before fp8 before int8 before int4: quantising is only chosen when it saves money) → lower
tensor-parallel degree (004 C9: tensor parallelism is there to make a model fit; replicas serve
load without its communication cost; both already meet the latency targets) → lower estimated p95
latency (to the microsecond) → fewer GPUs → source kind (cloud, package, purchase) → catalog order
of the offer/package/purchase entry.
"""

from __future__ import annotations

from expert.configurator.candidates import QUALITY_ORDER, SOURCE_ORDER, Source
from expert.sizing.buyrent import CostLine, energy_chf_per_month, owned, rented, resale_share
from expert.sizing.constants import Assumptions, resolve


def cost_line(source: Source, count: int, months: int, a: Assumptions) -> CostLine:
    """The option as a `CostLine` of the one buy-versus-rent computation (`expert.sizing.buyrent`)."""
    if source.kind == "cloud":
        return rented(source.key, source.rent_chf * count, months, source.energy_tdp_w * count, a)
    price, power, _ = source.system(count)
    return owned(source.key, price, power, months, a)


COSTS_PER_SOURCE = 4096  # bounds each source's memo in a long-running process (the chat)


def gpu_cost(source: Source, count: int, months: float, a: Assumptions) -> float:
    """GPU cost over the horizon (rent or buy), CHF; memoised on the source by (count, months, the
    assumptions' value key): every search and sub-search of a catalog prices the same pairs."""
    key = (count, int(months), None if a is None else a.key)
    memo = source.costs
    hit = memo.get(key)
    if hit is None:
        if len(memo) >= COSTS_PER_SOURCE:
            memo.clear()
        hit = memo[key] = _total(source, count, int(months), a)
    return hit


_FACTORS: dict[tuple, tuple] = {}
"""(resolved assumptions, infrastructure share, resale share) by (months, `Assumptions.key`)."""


def _total(source: Source, count: int, months: int, a: Assumptions | None) -> float:
    """`cost_line(...).total` in plain floats: the same operations in the same order as
    `buyrent.rented`/`owned` and `CostLine.total` (so the same number to the last bit; checked in
    tests/configurator/test_objective_closed_form.py), with the per-horizon factors computed once."""
    key = (months, None if a is None else a.key)
    factors = _FACTORS.get(key)
    if factors is None:
        if len(_FACTORS) >= COSTS_PER_SOURCE:
            _FACTORS.clear()
        r = resolve(a)
        factors = _FACTORS[key] = (r, r.infrastructure_share.value, resale_share(months, r)[0])
    r, infra, resale = factors
    if source.kind == "cloud":
        monthly = source.rent_chf * count * (1 + infra) + energy_chf_per_month(source.energy_tdp_w * count, r)
        return 0.0 + monthly * months - 0.0
    price, power, _ = source.system(count)
    monthly = energy_chf_per_month(power, r) + infra * price / months
    return price + monthly * months - price * resale


def sort_key(objective: float, precision: str, latency: float, count: int, source: Source, tp: int) -> tuple:
    """The documented tie-break order (module docstring)."""
    return (round(objective, 2), QUALITY_ORDER[precision], tp, round(latency, 6), count, SOURCE_ORDER[source.kind],
            source.order)
