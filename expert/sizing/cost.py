"""Cost: rent and buy over a horizon after document 000's TCO assumptions (T1), break-even (T4), unit costs.

- Energy (T1) = TDP × count × cooling 1.5 (PUE) × 730 h/month × months × 0.18 CHF/kWh. T1 counts
  energy for *rented* GPUs too (its TCO table compares rented GPUs and T2's 48 %/61 % only come out
  with energy included), so `rent_cost` keeps it. An `Offer` with `energy_tdp_w` (000's stated TDP
  for the document's provider) overrides the GPU's vendor TDP.
- Rent (T1): months × rent × count × (1 + 15 % infrastructure) + energy.
- Buy: purchase + energy + infrastructure − resale. T1's infrastructure is "+15 % of the monthly GPU
  cost"; for a purchase the monthly GPU cost is read as purchase price / horizon (the `months` of the
  analysis), so infrastructure = 15 % × purchase over the horizon. Resale (T5): 30-40 % after 36
  months; for other horizons the value is assumed to decline geometrically, share(m) =
  share36^(m/36) (constant yearly depreciation), a stated assumption.
- Break-even (T4's definition, excluding infrastructure, power, maintenance) = purchase / monthly
  rent. The full break-even adds T1's energy (cancels: both sides pay it) and infrastructure (15 % of
  rent vs 15 % × purchase / horizon per month): m = purchase / (rent × 1.15 − 0.15 × purchase / horizon);
  resale is realised only at the end of the horizon and is left out of it.
- Unit costs: an idle GPU still costs, so cost per request and per million tokens divide by
  utilisation.
Money is CHF; `fx(amount, currency)` (e.g. `Catalog.to_chf`) converts other currencies.
"""

from __future__ import annotations

from typing import Callable

from expert.catalog.models import Band, Gpu, Offer, Price, PurchasePrice
from expert.sizing.constants import Assumptions, resolve
from expert.sizing.results import CostResult, Provenance

Fx = Callable[[float, str], float]
Money = Offer | PurchasePrice | Price | Band | tuple | float | int


def chf_band(value: Money, fx: Fx | None = None) -> Band:
    """A money input as a CHF band: an Offer (monthly), PurchasePrice, Price, Band, (low, high) or number."""
    if isinstance(value, Offer):
        value = value.monthly
    if isinstance(value, PurchasePrice):
        value = value.price
    if isinstance(value, Price):
        if value.currency == "CHF":
            return value.amount
        if fx is None:
            raise ValueError(f"price in {value.currency}: pass fx (e.g. catalog.to_chf) to convert to CHF")
        return Band(low=fx(value.amount.low, value.currency), high=fx(value.amount.high, value.currency))
    if isinstance(value, Band):
        return value
    if isinstance(value, tuple):
        return Band(low=value[0], high=value[1])
    return Band(low=float(value), high=float(value))


def energy_chf(tdp_w: float, count: int = 1, months: float | None = None,
               assumptions: Assumptions | None = None) -> float:
    """000 T1: TDP × count × cooling × hours × tariff (24/7 at TDP), CHF."""
    a = resolve(assumptions)
    m = a.horizon_months.value if months is None else months
    kwh = tdp_w / 1000 * count * a.cooling_factor.value * a.hours_per_month.value * m
    return kwh * a.electricity_chf_per_kwh.value


def resale_share(months: float, assumptions: Assumptions | None = None) -> tuple[float, Band]:
    """Resale value as a share of the purchase after `months`: T5 at 36 months, geometric elsewhere."""
    a = resolve(assumptions)
    c, ref = a.resale_share, 36.0
    f = lambda s: s ** (months / ref)  # noqa: E731
    return f(c.value), Band(low=f(c.low), high=f(c.high))


def break_even_months(purchase_chf: float, monthly_rent_chf: float) -> float:
    """000 T4: months of rent that pay the purchase (no infrastructure, power, maintenance)."""
    return purchase_chf / monthly_rent_chf


def full_break_even_months(purchase_chf: float, monthly_rent_chf: float, horizon_months: float | None = None,
                           assumptions: Assumptions | None = None) -> float | None:
    """Break-even with T1's energy and infrastructure on both sides (module docstring); None if never."""
    a = resolve(assumptions)
    s = a.infrastructure_share.value
    h = a.horizon_months.value if horizon_months is None else horizon_months
    saving = monthly_rent_chf * (1 + s) - s * purchase_chf / h
    return purchase_chf / saving if saving > 0 else None


def _result(gpu, count, months, mode, rent, purchase, energy, infra, resale, total, be, extra, prov, bands):
    return CostResult(gpu=gpu.id, count=count, months=months, mode=mode, monthly_rent_chf=rent,
                      purchase_chf=purchase, energy_chf=energy, infrastructure_chf=infra, resale_chf=resale,
                      total_chf=total, break_even_months=be, cost_per_month_chf=total / months, provenance=prov,
                      bands=bands, **extra)


def rent_cost(gpu: Gpu, monthly_rent: Money, count: int = 1, months: float | None = None,
              purchase: Money | None = None, fx: Fx | None = None,
              assumptions: Assumptions | None = None) -> CostResult:
    """Renting `count` GPUs for `months` (T1), with the T4 break-even when a purchase price is given."""
    a = resolve(assumptions)
    m = a.horizon_months.value if months is None else months
    s = a.infrastructure_share.value
    rent = chf_band(monthly_rent, fx)
    tdp = getattr(monthly_rent, "energy_tdp_w", None) or gpu.tdp_w  # the TDP an offer's price assumes
    energy = energy_chf(tdp, count, m, a)
    total = lambda r: m * r * count * (1 + s) + energy  # noqa: E731
    buy = chf_band(purchase, fx) if purchase is not None else None
    prov = {"energy_chf": Provenance(formula="TDP × count × cooling × h/month × months × CHF/kWh (T1; also for "
                                     "rented GPUs)", sources=[a.cooling_factor.cite(), a.hours_per_month.cite(),
                                                              a.electricity_chf_per_kwh.cite()]),
            "infrastructure_chf": Provenance(formula="share × rent × count × months",
                                             sources=[a.infrastructure_share.cite()]),
            "total_chf": Provenance(formula="months × rent × count × (1 + share) + energy (000 T1)")}
    bands = {"monthly_rent_chf": rent.scaled(count), "total_chf": Band(low=total(rent.low), high=total(rent.high))}
    extra = {"monthly_rent_per_gpu_chf": rent.mid}
    be = None
    if buy is not None:
        be = break_even_months(buy.mid, rent.mid)
        extra["break_even_full_months"] = full_break_even_months(buy.mid, rent.mid, m, a)
        bands["break_even_months"] = Band(low=buy.low / rent.high, high=buy.high / rent.low)
        prov["break_even_months"] = Provenance(formula="purchase / monthly rent (000 T4)")
    return _result(gpu, count, m, "rent", rent.mid * count, buy.mid * count if buy else None, energy,
                   s * rent.mid * count * m, 0.0, total(rent.mid), be, extra, prov, bands)


def buy_cost(gpu: Gpu, purchase: Money, count: int = 1, months: float | None = None,
             monthly_rent: Money | None = None, fx: Fx | None = None,
             assumptions: Assumptions | None = None) -> CostResult:
    """Buying `count` GPUs and running them for `months`: purchase + energy + infrastructure − resale."""
    a = resolve(assumptions)
    m = a.horizon_months.value if months is None else months
    s = a.infrastructure_share.value
    price = chf_band(purchase, fx)
    energy = energy_chf(gpu.tdp_w, count, m, a)
    share, share_band = resale_share(m, a)
    total = lambda p, r: p * count * (1 + s) + energy - r * p * count  # noqa: E731
    prov = {"infrastructure_chf": Provenance(formula="share × (purchase / horizon) × months = share × purchase",
                                             sources=[a.infrastructure_share.cite()]),
            "resale_chf": Provenance(formula="purchase × share36^(months/36) (geometric; T5 at 36 months)",
                                     sources=[a.resale_share.cite()]),
            "total_chf": Provenance(formula="purchase + energy + infrastructure − resale")}
    bands = {"resale_chf": Band(low=price.mid * count * share_band.low, high=price.mid * count * share_band.high),
             "total_chf": Band(low=total(price.low, share_band.high), high=total(price.high, share_band.low)),
             "purchase_chf": price.scaled(count)}
    be, extra = None, {}
    if monthly_rent is not None:
        rent = chf_band(monthly_rent, fx)
        be = break_even_months(price.mid, rent.mid)
        extra = {"monthly_rent_per_gpu_chf": rent.mid,
                 "break_even_full_months": full_break_even_months(price.mid, rent.mid, m, a)}
        bands["break_even_months"] = Band(low=price.low / rent.high, high=price.high / rent.low)
        prov["break_even_months"] = Provenance(formula="purchase / monthly rent (000 T4)")
    return _result(gpu, count, m, "buy", None if monthly_rent is None else chf_band(monthly_rent, fx).mid * count,
                   price.mid * count, energy, s * price.mid * count, share * price.mid * count,
                   total(price.mid, share), be, extra, prov, bands)


def cost(gpu: Gpu, mode: str = "rent", count: int = 1, months: float | None = None,
         monthly_rent: Money | None = None, purchase: Money | None = None, fx: Fx | None = None,
         assumptions: Assumptions | None = None) -> CostResult:
    """`gpu-expert cost`: dispatch to `rent_cost` or `buy_cost`."""
    if mode == "rent":
        if monthly_rent is None:
            raise ValueError("renting needs a monthly rent (an offer or CHF per GPU-month)")
        return rent_cost(gpu, monthly_rent, count, months, purchase, fx, assumptions)
    if mode == "buy":
        if purchase is None:
            raise ValueError("buying needs a purchase price")
        return buy_cost(gpu, purchase, count, months, monthly_rent, fx, assumptions)
    raise ValueError(f"unknown mode '{mode}' (allowed: rent, buy)")


def cost_per_million_tokens(cost_per_month_chf: float, throughput_tokens_per_s: float, utilization: float = 1.0,
                            assumptions: Assumptions | None = None) -> float:
    """CHF per million output tokens: monthly cost / (tokens/s × utilisation × seconds per month) × 1e6."""
    seconds = resolve(assumptions).hours_per_month.value * 3600
    return cost_per_month_chf / (throughput_tokens_per_s * utilization * seconds) * 1e6


def cost_per_request(cost_per_month_chf: float, requests_per_s_capacity: float, utilization: float = 1.0,
                     assumptions: Assumptions | None = None) -> float:
    """000 R2: GPU cost / requests processed; capacity × utilisation requests are served per second."""
    seconds = resolve(assumptions).hours_per_month.value * 3600
    return cost_per_month_chf / (requests_per_s_capacity * utilization * seconds)
