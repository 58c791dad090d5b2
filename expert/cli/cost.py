"""`gpu-expert cost`: renting or buying GPUs over a horizon (000 T1–T5)."""

from __future__ import annotations

from expert.cli.options import COUNT, FORMATS_TEXT_JSON, FRACTION, MONTHS, catalog_from, common_parent
from expert.report.numbers import chf


def register(commands) -> None:
    """Add the `cost` command."""
    parser = commands.add_parser("cost", parents=[common_parent()],
                                 help="cost of renting or buying GPUs over a horizon")
    parser.add_argument("--gpu", required=True, metavar="ID")
    parser.add_argument("--count", type=COUNT, default=1, metavar="N")
    parser.add_argument("--months", type=MONTHS, default=None, metavar="M", help="default 36 (000 T1)")
    parser.add_argument("--mode", choices=("rent", "buy"), default="rent")
    parser.add_argument("--utilization", type=FRACTION, default=None, metavar="U",
                        help="share of the time the GPUs are busy; adds cost per busy hour")
    parser.add_argument("--offer", metavar="ID", default=None,
                        help="offer id (see `catalog offers`); default: the document's Swiss provider, "
                             "else 000's market range, else the cheapest public offer")
    parser.add_argument("--format", choices=FORMATS_TEXT_JSON, default="text")
    parser.set_defaults(run=run)


def run(args) -> int:
    """Print the cost."""
    from expert.api import run_cost
    from expert._plumbing.fileio import dumps_json

    catalog = catalog_from(args)
    result = run_cost(catalog, gpu=args.gpu, count=args.count, months=args.months, mode=args.mode,
                      utilization=args.utilization, offer=args.offer)
    if args.format == "json":
        print(dumps_json(result), end="")
    else:
        print(_text(result))
    return 0


def _chf(value) -> str:
    return "-" if value is None else chf(value)


def _text(r: dict) -> str:
    lines = [f"{r['count']}× {r['gpu']}, {r['mode']}, {r['months']:g} months"
             + (f" at {r['offer']} ({r['provider']})" if r.get("offer") else ""),
             f"monthly rent      {_chf(r['monthly_rent_chf'])}",
             f"purchase          {_chf(r['purchase_chf'])}",
             f"energy            {_chf(r['energy_chf'])}  (power × 1.5 cooling × 24/7 × 0.18 CHF/kWh, 000 T1)",
             f"infrastructure    {_chf(r['infrastructure_chf'])}  (+15 %, 000 T1)",
             f"resale            {_chf(r['resale_chf'])}",
             f"total             {_chf(r['total_chf'])}",
             f"per month         {_chf(r['cost_per_month_chf'])}"]
    if r.get("break_even_months") is not None:
        lines.append(f"break-even        {r['break_even_months']:.1f} months of rent (purchase / rent, 000 T4)")
    if r.get("document_break_even_months") is not None:
        lines.append(f"000 T4 states     {r['document_break_even_months']:g} months "
                     f"(residual {r['break_even_residual_months']:+.1f})")
    if r.get("chassis"):
        watts = f"{r['system_power_w']:,.0f}".replace(",", " ")
        what = r["chassis"] if r.get("systems", 1) == 1 else f"{r['systems']} systems, largest {r['chassis']}"
        lines.append(f"complete system   {what}, {watts} W; bill of materials (CHF, docs/prices.md):")
        for x in r["bill_of_materials"]:
            band = x["total_chf"]
            lines.append(f"  {x['item']:<9} {x['quantity']:>6g}  {_chf(band['low'])[:-4]}-{_chf(band['high'])}"
                         f"  {x['unit_price']['date']}" + ("  quote needed" if x["quote_needed"] else ""))
    if r.get("cost_per_busy_hour_chf") is not None:
        lines.append(f"per busy GPU-hour {r['cost_per_busy_hour_chf']:.2f} CHF at {r['utilization']:.0%} utilisation")
    return "\n".join(lines)
