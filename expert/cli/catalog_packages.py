"""`gpu-expert catalog packages`: the eight packages of 004 as complete systems.

Per package: the bill of materials (each line with quantity, dated unit price, CHF total, confidence,
"quote needed" where no public price exists), the price as the sum of the lines, build / setup /
commissioning / operation as the project's own estimates, server power and site needs, and the
computed model stack (`expert.sizing.stack`).
"""

from __future__ import annotations

from expert.catalog.bom import OUTLET_W, package_lines, system_power_w, total_chf


def _money(low: float, high: float) -> str:
    fmt = ",.2f" if high < 100 else ",.0f"   # per-core and per-GB prices keep their centimes
    text = f"{low:{fmt}}" if f"{low:{fmt}}" == f"{high:{fmt}}" else f"{low:{fmt}}-{high:{fmt}}"
    return text.replace(",", " ")


def details(catalog, package) -> dict:
    """The bill of materials, power, extra costs and model stack of one package (JSON-ready)."""
    from expert.configurator.enumeration import default_assumptions
    from expert.sizing.stack import model_stack

    gpu = catalog.gpus[package.gpu]
    lines = package_lines(package, catalog.chassis, catalog.gpus, catalog.to_chf) or []
    chassis = catalog.chassis.get(package.chassis or "")
    power = system_power_w(chassis, gpu, package.count) if chassis else None
    stack = model_stack(list(catalog.models.values()), gpu, package.count,
                        assumptions=default_assumptions(catalog))
    return {
        "chassis": chassis.id if chassis else None,
        "bill_of_materials": [{"item": x.item, "description": x.description, "quantity": x.quantity,
                               "unit_price": x.unit.model_dump(mode="json"),
                               "total_chf": x.total_chf.model_dump(), "quote_needed": x.quote_needed}
                              for x in lines],
        "system_power_w": power, "site": chassis.site if chassis else None,
        "model_stack": [{"model": e.model, "precision": e.precision, "tensor_parallel": e.tensor_parallel,
                         "replicas": e.replicas, "concurrent_sequences": {str(k): v for k, v in e.sequences.items()}}
                        for e in stack],
    }


def text(catalog, package) -> str:
    """The package as readable text (module docstring)."""
    d = details(catalog, package)
    chassis = catalog.chassis.get(d["chassis"] or "")
    out = [f"Package {package.id}: {package.name} — {chassis.name if chassis else 'no chassis'}"]
    rows = [["item", "qty", "unit price", "date", "total CHF", "confidence"]]
    lines = package_lines(package, catalog.chassis, catalog.gpus, catalog.to_chf) or []
    for x in lines:
        u = x.unit
        rows.append([x.item, f"{x.quantity:g}", f"{_money(u.amount.low, u.amount.high)} {u.currency}", u.date,
                     _money(x.total_chf.low, x.total_chf.high),
                     (u.confidence or "-") + (", quote needed" if x.quote_needed else "")])
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    out += ["  " + "  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in rows]
    total = total_chf(lines)
    out.append(f"  hardware net = sum of the lines: {_money(total.low, total.high)} CHF (000 M3 minimums: "
               "CPU cores, RAM 1:4 to VRAM, NVMe, NICs)")
    extras = [f"{c.name} {_money(c.price.amount.low, c.price.amount.high)} CHF"
              + (" per month" if c.name == "operation" else "") for c in package.extra_costs if c.price]
    if extras:
        out.append("  separately (004; gpu-expert's own estimates, 150 CHF/h): " + ", ".join(extras))
    if d["system_power_w"]:
        outlet = "fits" if d["system_power_w"] <= OUTLET_W else "exceeds"
        watts = _money(d["system_power_w"], d["system_power_w"])
        out.append(f"  power {watts} W at the server ({outlet} a 230 V / 10 A outlet of {_money(OUTLET_W, OUTLET_W)} "
                   f"W); site: {d['site']}")
    stack = [f"{e['model']} {e['precision']} TP{e['tensor_parallel']}×{e['replicas']} ("
             + ", ".join(f"{int(k) // 1024}k: {v}" for k, v in e["concurrent_sequences"].items()) + ")"
             for e in d["model_stack"]]
    out.append("  model stack (concurrent sequences at 8k / 32k context, vLLM memory budget): "
               + ("; ".join(stack) if stack else "none of the catalog models fits"))
    return "\n".join(out)
