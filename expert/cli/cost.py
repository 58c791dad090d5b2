"""`gpu-expert cost`: renting or buying GPUs over a horizon (000 T1–T5)."""

from __future__ import annotations

from expert.cli.options import COUNT, FORMATS_TEXT_JSON, FRACTION, LANGS, MONTHS, catalog_from, common_parent
from expert.messages import provider_name, t
from expert.report.numbers import chf, number


def register(commands) -> None:
    """Add the `cost` command."""
    parser = commands.add_parser("cost", parents=[common_parent()],
                                 help="cost of renting or buying GPUs over a horizon")
    parser.add_argument("--gpu", required=True, metavar="ID")
    parser.add_argument("--count", type=COUNT, default=1, metavar="N")
    parser.add_argument("--months", type=MONTHS, default=None, metavar="M", help="default 36 (000 T1)")
    parser.add_argument("--mode", choices=("rent", "buy"), default="rent")
    parser.add_argument("--condition", choices=("new", "used"), default=None,
                        help="with --mode buy: price new or used GPUs (default: new where the catalog prices "
                             "them, else used); advise's bill-of-materials hint names the one it priced")
    parser.add_argument("--utilization", type=FRACTION, default=None, metavar="U",
                        help="share of the time the GPUs are busy; adds cost per busy hour")
    parser.add_argument("--offer", metavar="ID", default=None,
                        help="offer id (see `catalog offers`); default: the document's Swiss provider, "
                             "else 000's market range, else the cheapest public offer")
    parser.add_argument("--format", choices=FORMATS_TEXT_JSON, default="text")
    parser.add_argument("--lang", choices=LANGS, default="en", help="language of the text output (JSON keeps ids)")
    parser.set_defaults(run=run)


def run(args) -> int:
    """Print the cost."""
    from expert.api import run_cost
    from expert._plumbing.fileio import dumps_json

    catalog = catalog_from(args)
    result = run_cost(catalog, gpu=args.gpu, count=args.count, months=args.months, mode=args.mode,
                      utilization=args.utilization, offer=args.offer, condition=args.condition)
    if args.format == "json":
        print(dumps_json(result), end="")
    else:
        print(_text(result, args.lang))
    return 0


def _chf(value) -> str:
    return "-" if value is None else chf(value)


def _text(r: dict, lang: str = "en") -> str:
    """The cost as aligned lines in `lang`: labels from the message catalog (`cli.cost.*`)."""
    def line(key: str, value: str, how: str = "") -> str:
        label = t(f"cli.cost.{key}", lang)
        return f"{label:<17} {value}" + (f"  {how}" if how else "")

    mode = t(f"cli.cost.mode.{r['mode']}", lang)
    if r.get("condition"):  # a purchase names the condition it priced (QA 46 #5)
        mode += ", " + t(f"cli.cost.condition.{r['condition']}", lang)
    head = t("cli.cost.head", lang, count=r["count"], gpu=r["gpu"], mode=mode,
             months=number(r["months"], 1, lang, trim=True))
    if r.get("offer"):  # buying is priced at no provider: its offer is the rent it is compared with
        head += t("cli.cost.offer" if r["mode"] == "rent" else "cli.cost.offer_compared", lang, offer=r["offer"],
                  provider=provider_name(r["provider"], lang))
    lines = [head, line("monthly_rent", _chf(r["monthly_rent_chf"])),
             line(f"purchase.{r['mode']}", _chf(r["purchase_chf"])),
             line("energy", _chf(r["energy_chf"]), t("cli.cost.energy_included" if r["mode"] == "rent" and
                                                     not r["energy_chf"] else "cli.cost.energy_how", lang)),
             line("infrastructure", _chf(r["infrastructure_chf"]), t("cli.cost.infrastructure_how", lang)),
             line("resale", _chf(r["resale_chf"])), line("total", _chf(r["total_chf"])),
             line("per_month", _chf(r["cost_per_month_chf"]))]
    if r.get("break_even_months") is not None:
        gpus = (r["purchase_chf"] or 0.0) - r.get("host_chf", 0.0)  # buy: the system less its host parts
        lines.append(line("break_even", t("cli.cost.break_even_how", lang, gpus=_chf(gpus),
                                          months=number(r["break_even_months"], 1, lang))))
        if r["mode"] == "buy":
            full = r.get("break_even_full_months")
            lines.append(line("break_even_full", t("cli.cost.break_even_full_never", lang) if full is None else
                              t("cli.cost.break_even_full_how", lang, months=number(full, 1, lang))))
    if r.get("document_break_even_months") is not None:
        lines.append(line("document_break_even", t(
            "cli.cost.document_break_even_how", lang, months=number(r["document_break_even_months"], 1, lang, trim=True),
            residual=("+" if r["break_even_residual_months"] >= 0 else "")
            + number(r["break_even_residual_months"], 1, lang))))
    if r.get("chassis"):
        what = r["chassis"] if r.get("systems", 1) == 1 else t("cli.cost.systems", lang, systems=r["systems"],
                                                                chassis=r["chassis"])
        lines.append(line("system", t("cli.cost.system_how", lang, what=what, watts=number(r["system_power_w"], 0, lang))))
        for x in r["bill_of_materials"]:
            band = x["total_chf"]
            lines.append(f"  {x['item']:<9} {number(x['quantity'], 2, lang, trim=True):>6}  "
                         f"{_chf(band['low'])[:-4]}-{_chf(band['high'])}  {x['unit_price']['date']}"
                         + (f"  {t('cli.cost.quote', lang)}" if x["quote_needed"] else ""))
    if r.get("cost_per_busy_hour_chf") is not None:
        lines.append(line("busy_hour", t("cli.cost.busy_hour_how", lang, chf=number(r["cost_per_busy_hour_chf"], 2, lang),
                                         share=number(r["utilization"] * 100, 0, lang) + " %")))
    return "\n".join(lines)
