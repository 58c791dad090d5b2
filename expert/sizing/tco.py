"""Cost: rent and buy over a horizon after document 000's TCO assumptions (T1), break-even (T4), unit costs.

- Energy (T1) = power × cooling 1.5 (PUE) × 730 h/month × months × 0.18 CHF/kWh: for bought hardware
  the whole server (GPUs + CPUs + rest, `expert.catalog.bom.system_power_w`), for rented GPUs only
  where the price excludes power (`expert.catalog.pricing.offer_energy_tdp`: rents derived from 000's TCO at
  000's TDP; public list prices include power and get none).
- Rent (T1): months × rent × count × (1 + 15 % infrastructure) + energy.
- Buy: the complete system (GPUs + `host`) + energy + infrastructure − resale; T1's infrastructure is
  "+15 % of the monthly GPU cost", read for a purchase as price / horizon. Resale, the break-even
  and the cost lines come from `expert.sizing.buyrent`, the one buy-versus-rent computation.
- Break-even (T4's definition, excluding infrastructure, power, maintenance) = GPU purchase / monthly
  rent; the full break-even adds infrastructure and energy on both sides.
- Unit costs: an idle GPU still costs, so cost per request and per million tokens divide by
  utilisation.
Money is CHF; `fx(amount, currency)` (e.g. `Catalog.to_chf`) converts other currencies.
"""

from __future__ import annotations

from typing import Callable

from expert.catalog.models import Band, Gpu, Offer, Price, PurchasePrice
from expert.catalog.pricing import offer_energy_tdp
from expert.sizing import buyrent
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
    """Net resale share after `months` (000 T5, steeper early, after selling costs): `buyrent.resale_share`."""
    return buyrent.resale_share(months, assumptions)


def break_even_months(purchase_chf: float, monthly_rent_chf: float) -> float:
    """000 T4: months of rent that pay the purchase (no infrastructure, power, maintenance); the one
    break-even of `buyrent` applied to the bare price against the bare rent."""
    return buyrent.break_even_months(buyrent.CostLine("rent", 0.0, monthly_rent_chf),
                                     buyrent.CostLine("buy", purchase_chf, 0.0))


def full_break_even_months(purchase_chf: float, monthly_rent_chf: float, horizon_months: float | None = None,
                           assumptions: Assumptions | None = None, rent_power_w: float = 0.0,
                           own_power_w: float = 0.0) -> float | None:
    """Break-even with T1's infrastructure and energy on both sides (`buyrent` cost lines); None if never."""
    a = resolve(assumptions)
    h = int(a.horizon_months.value if horizon_months is None else horizon_months)
    return buyrent.break_even_months(buyrent.rented("rent", monthly_rent_chf, h, rent_power_w, a),
                                     buyrent.owned("buy", purchase_chf, own_power_w, h, a))


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
    tdp = offer_energy_tdp(monthly_rent, gpu) if isinstance(monthly_rent, Offer) else gpu.tdp_w
    energy = energy_chf(tdp, count, m, a)  # 0 when the offer's price includes power
    total = lambda r: m * r * count * (1 + s) + energy  # noqa: E731
    buy = chf_band(purchase, fx) if purchase is not None else None
    prov = {"energy_chf": Provenance(formula="TDP × count × cooling × h/month × months × CHF/kWh (T1; for rented "
                                             "GPUs only where the price excludes power)",
                                     sources=[a.cooling_factor.cite(), a.hours_per_month.cite(),
                                              a.electricity_chf_per_kwh.cite()]),
            "infrastructure_chf": Provenance(formula="share × rent × count × months",
                                             sources=[a.infrastructure_share.cite()]),
            "total_chf": Provenance(formula="months × rent × count × (1 + share) + energy (000 T1)")}
    bands = {"monthly_rent_chf": rent.scaled(count), "total_chf": Band(low=total(rent.low), high=total(rent.high))}
    extra = {"monthly_rent_per_gpu_chf": rent.mid}
    be = None
    if buy is not None:
        be = break_even_months(buy.mid, rent.mid)
        extra["break_even_full_months"] = full_break_even_months(buy.mid, rent.mid, m, a, tdp, gpu.tdp_w)
        bands["break_even_months"] = Band(low=break_even_months(buy.low, rent.high),
                                          high=break_even_months(buy.high, rent.low))
        prov["break_even_months"] = Provenance(formula="purchase / monthly rent (000 T4)")
    return _result(gpu, count, m, "rent", rent.mid * count, buy.mid * count if buy else None, energy,
                   s * rent.mid * count * m, 0.0, total(rent.mid), be, extra, prov, bands)


def buy_cost(gpu: Gpu, purchase: Money, count: int = 1, months: float | None = None,
             monthly_rent: Money | None = None, fx: Fx | None = None,
             assumptions: Assumptions | None = None, host: Money | None = None,
             power_w: float | None = None) -> CostResult:
    """Buying `count` GPUs (+ `host`, the rest of the complete system) and running them for `months`:
    purchase + energy of `power_w` (default GPU TDP × count) + infrastructure − resale (`buyrent`)."""
    a = resolve(assumptions)
    m = a.horizon_months.value if months is None else months
    s = a.infrastructure_share.value
    price = chf_band(purchase, fx)
    rest = chf_band(host, fx) if host is not None else Band(low=0, high=0)
    system = Band(low=price.low * count + rest.low, high=price.high * count + rest.high)
    power = gpu.tdp_w * count if power_w is None else power_w
    energy = buyrent.energy_chf_per_month(power, a) * m
    share, share_band = resale_share(m, a)
    total = lambda p, r: p * (1 + s) + energy - r * p  # noqa: E731
    prov = {"infrastructure_chf": Provenance(formula="share × (purchase / horizon) × months = share × purchase",
                                             sources=[a.infrastructure_share.cite()]),
            "energy_chf": Provenance(formula="server power (GPUs + rest) × cooling × h/month × months × CHF/kWh "
                                             "(T1)",
                                     sources=[a.cooling_factor.cite(), a.electricity_chf_per_kwh.cite()]),
            "resale_chf": Provenance(formula="purchase × s36^sqrt(months/36) × (1 − selling costs) (T5, steeper "
                                             "early; expert.sizing.buyrent)", sources=[a.resale_share.cite()]),
            "total_chf": Provenance(formula="purchase + energy + infrastructure − resale")}
    bands = {"resale_chf": Band(low=system.mid * share_band.low, high=system.mid * share_band.high),
             "total_chf": Band(low=total(system.low, share_band.high), high=total(system.high, share_band.low)),
             "purchase_chf": system}
    be, extra = None, {}
    if monthly_rent is not None:
        rent = chf_band(monthly_rent, fx)
        be = break_even_months(price.mid, rent.mid)
        extra = {"monthly_rent_per_gpu_chf": rent.mid,
                 "break_even_full_months": full_break_even_months(system.mid / count, rent.mid, m, a,
                                                                  gpu.tdp_w, power / count)}
        bands["break_even_months"] = Band(low=break_even_months(price.low, rent.high),
                                          high=break_even_months(price.high, rent.low))
        prov["break_even_months"] = Provenance(formula="GPU purchase / monthly rent (000 T4)")
    return _result(gpu, count, m, "buy", None if monthly_rent is None else chf_band(monthly_rent, fx).mid * count,
                   system.mid, energy, s * system.mid, share * system.mid, total(system.mid, share), be, extra,
                   prov, bands)


def cost(gpu: Gpu, mode: str = "rent", count: int = 1, months: float | None = None,
         monthly_rent: Money | None = None, purchase: Money | None = None, fx: Fx | None = None,
         assumptions: Assumptions | None = None, host: Money | None = None,
         power_w: float | None = None) -> CostResult:
    """`gpu-expert cost`: dispatch to `rent_cost` or `buy_cost`."""
    if mode == "rent":
        if monthly_rent is None:
            raise ValueError("renting needs a monthly rent (an offer or CHF per GPU-month)")
        return rent_cost(gpu, monthly_rent, count, months, purchase, fx, assumptions)
    if mode == "buy":
        if purchase is None:
            raise ValueError("buying needs a purchase price")
        return buy_cost(gpu, purchase, count, months, monthly_rent, fx, assumptions, host, power_w)
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
