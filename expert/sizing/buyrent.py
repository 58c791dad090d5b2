"""Buy versus rent: the one computation behind the configurator, the report, `cost` and the chat's chart.

An option is a `CostLine`: an up-front payment, a monthly cost, and (for bought hardware) the resale
value credited when it is sold at the end of the horizon. Its cumulative cost after m months is
`upfront + monthly × m` (− resale from the horizon on); its total is that at the horizon.

- Owned hardware (000 T1, T5): upfront = the complete system's price; monthly = energy of the whole
  server (GPUs + CPUs + rest, × cooling 1.5 × 730 h × 0.18 CHF/kWh) + T1's infrastructure 15 % of the
  monthly GPU cost, read as purchase / horizon; resale = purchase × `resale_share(horizon)`.
- Rented GPUs (000 T1): monthly = rent × (1 + 15 %) + energy only where the price excludes power (the
  document's own provider, whose rents 000's TCO derives with energy on top); public list prices
  already include power and get no energy line.
- Resale (000 T5: 30-40 % of the price after three years, data-centre models): assumed steeper early —
  share(m) = s36^sqrt(m/36) up to 36 months, s36^(m/36) beyond — then minus selling costs (own estimate
  5-15 %: marketplace or broker fees, de-installation, shipping, data wiping). At 12 months 35 % → 55 %
  before and 49 % after selling costs, where a constant yearly rate would give 70.5 %.
- Break-even: the month from which buying has cost less than renting, upfront / (rent monthly − buy
  monthly), resale not counted (it is only realised at the end). 000 T4's break-even is the special
  case of a bare purchase price against the bare rent (no infrastructure, energy, maintenance).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from expert.catalog.models import Band
from expert.sizing.constants import Assumptions, resolve

SELLING_COST = Band(low=0.05, high=0.15)
"""Share of the resale value lost to selling (gpu-expert estimate, own; no source gives one)."""
MIN_BUY_MONTHS = 18
"""000 T5: 'under 18 months … renting is preferable' (Break-even: mieten oder kaufen)."""


@dataclass(frozen=True)
class CostLine:
    """One option's cumulative cost over the months (module docstring)."""

    label: str
    upfront: float
    monthly: float
    resale: float = 0.0
    horizon: int | None = None

    def at(self, month: float) -> float:
        """Cumulative cost after `month` months, CHF (the resale is credited from the horizon on)."""
        credit = self.resale if self.horizon is not None and month >= self.horizon else 0.0
        return self.upfront + self.monthly * month - credit

    @property
    def total(self) -> float:
        """Cost over the whole horizon, CHF."""
        return self.at(self.horizon if self.horizon is not None else 0)


def _curve(share36: float, months: float) -> float:
    exponent = math.sqrt(months / 36.0) if months <= 36 else months / 36.0
    return share36 ** exponent


def resale_share(months: float, assumptions: Assumptions | None = None) -> tuple[float, Band]:
    """Net resale value as a share of the price after `months` (point, band), after selling costs."""
    c = resolve(assumptions).resale_share
    point = _curve(c.value, months) * (1 - SELLING_COST.mid)
    band = Band(low=_curve(c.low, months) * (1 - SELLING_COST.high),
                high=_curve(c.high, months) * (1 - SELLING_COST.low))
    return point, band


def energy_chf_per_month(power_w: float, assumptions: Assumptions | None = None) -> float:
    """000 T1 energy of `power_w` running 24/7 for one month: kW × cooling × 730 h × CHF/kWh."""
    a = resolve(assumptions)
    return power_w / 1000 * a.cooling_factor.value * a.hours_per_month.value * a.electricity_chf_per_kwh.value


def owned(label: str, purchase_chf: float, power_w: float, months: int,
          assumptions: Assumptions | None = None) -> CostLine:
    """A bought complete system run for `months` and then sold (module docstring)."""
    a = resolve(assumptions)
    infra = a.infrastructure_share.value * purchase_chf / months
    resale = purchase_chf * resale_share(months, a)[0]
    return CostLine(label, purchase_chf, energy_chf_per_month(power_w, a) + infra, resale, months)


def rented(label: str, rent_chf_per_month: float, months: int, power_w: float = 0.0,
           assumptions: Assumptions | None = None) -> CostLine:
    """Rent for `months`: rent × (1 + infrastructure) + energy of `power_w` (0 when the rent includes power)."""
    a = resolve(assumptions)
    return CostLine(label, 0.0, rent_chf_per_month * (1 + a.infrastructure_share.value)
                    + energy_chf_per_month(power_w, a), 0.0, months)


def break_even_months(rent: CostLine, buy: CostLine) -> float | None:
    """Month from which buying has cost less than renting; None if it never does (module docstring)."""
    saving = rent.monthly - buy.monthly
    if buy.upfront - rent.upfront <= 0:
        return 0.0 if saving >= 0 else None
    return (buy.upfront - rent.upfront) / saving if saving > 0 else None


def cheaper(rent: CostLine, buy: CostLine) -> str:
    """'rent' or 'buy': the lower total over the horizon (a tie goes to renting, the flexible option)."""
    return "buy" if buy.total < rent.total else "rent"
