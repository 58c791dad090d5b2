"""Bills of materials: the complete system around bought GPUs, its price as the sum of its lines, its power.

Every purchase is a complete system (issue 13): the GPUs plus one chassis class of `packages.yaml`
(`chassis:`), chosen by `chassis_for`:

- SXM/OAM modules only in an 8-GPU HGX/OAM system (004 C3: SXM4 "muss zwingend voll bestückt gekauft
  werden"; 4-GPU HGX boards exist but are not modelled).
- PCIe cards: the smallest chassis whose GPU range holds the count and that takes the GPU's grade
  (passive data-centre cards need server airflow, so they never go into the tower workstation).

Line quantities follow 000 M3's minimums: CPU cores 32 (64 for multi-GPU), system RAM 4 × total VRAM;
NICs only from the count where M3 asks for them (`min_gpus`). Sums are CHF bands (low = sum of lows,
high = sum of highs) at the catalog's dated exchange rates. System power = GPU TDP × count + the
chassis' `base_power_w` (CPUs, RAM, drives, fans); its midpoint feeds the energy of owned hardware.
"""

from __future__ import annotations

from dataclasses import dataclass

from expert.catalog.models import Band, BomLine, Chassis, Gpu, Package, Price

CONFIDENCE_ORDER = {"high": 0, "medium": 1, "low": 2, None: 2}
OUTLET_W = 2300.0
"""A standard Swiss 230 V / 10 A outlet (modelling-anchors §4.3, SeverinAlexB 'Standard Swiss 10A/230V
outlet (2,300W capacity)'). Shown by `gpu-expert catalog packages`; the finding's threshold is
rule site-power-above-office-outlet (rules/onprem.yaml)."""


def m3_cpu_cores(count: int) -> int:
    """000 M3: at least 32 CPU cores, 64 for multi-GPU."""
    return 64 if count > 1 else 32


def m3_ram_gb(gpu: Gpu, count: int) -> float:
    """000 M3: system RAM 1:4 to GPU VRAM. The rule is the document's; vendors' 8-GPU reference nodes ship
    below it: NVIDIA DGX H100 has 2 TB of system memory for 8 × 80 = 640 GB of GPU memory, about 1:3.2
    (NVIDIA DGX H100 datasheet, "System Memory 2TB"), where the rule asks 2 560 GB."""
    return 4 * gpu.memory_gb * count


@dataclass(frozen=True)
class Line:
    """One resolved line of a system's bill of materials."""

    item: str
    description: str
    quantity: float
    unit: Price
    total_chf: Band
    quote_needed: bool = False

    @property
    def confidence(self) -> str | None:
        return self.unit.confidence


def chassis_for(chassis: dict[str, Chassis], gpu: Gpu, count: int) -> Chassis | None:
    """The chassis class a purchase of `count` × `gpu` goes into (module docstring); None if none fits."""
    form = "sxm" if gpu.form_factor in ("sxm", "oam") else "pcie"
    fits = [c for c in chassis.values() if c.form_factor == form and c.min_gpus <= count <= c.max_gpus
            and gpu.grade in c.grades]
    return min(fits, key=lambda c: (c.max_gpus, c.id)) if fits else None


def purchase_parts(chassis: dict[str, Chassis], gpu: Gpu, count: int) -> list[tuple[Chassis, int]] | None:
    """The complete systems a purchase of `count` × `gpu` needs: one chassis when one takes the count,
    else as many full systems of the largest chassis as fit, plus one for the rest (several servers
    behind a load balancer, 000 R3); None when a part has no chassis (SXM modules: multiples of 8)."""
    one = chassis_for(chassis, gpu, count)
    if one is not None:
        return [(one, count)]
    form = "sxm" if gpu.form_factor in ("sxm", "oam") else "pcie"
    largest = max((c for c in chassis.values() if c.form_factor == form and gpu.grade in c.grades),
                  key=lambda c: (c.max_gpus, c.id), default=None)
    if largest is None or count <= largest.max_gpus:
        return None
    full, rest = divmod(count, largest.max_gpus)
    parts = [(largest, largest.max_gpus)] * full
    if rest:
        last = chassis_for(chassis, gpu, rest)
        if last is None:
            return None
        parts.append((last, rest))
    return parts


@dataclass(frozen=True)
class Purchase:
    """Bought GPUs as complete systems: the parts (chassis, GPUs in it), the merged bill of materials,
    and the power of all systems (W)."""

    parts: list[tuple[Chassis, int]]
    lines: list[Line]
    power_w: float

    @property
    def chassis(self) -> Chassis:
        """The chassis of the largest system."""
        return self.parts[0][0]

    @property
    def label(self) -> str:
        """'hgx-8', '7 × hgx-8' or 'server-8gpu + server-4gpu'."""
        full = sum(1 for c, _ in self.parts if c is self.chassis)
        rest = [c.id for c, _ in self.parts if c is not self.chassis]
        return " + ".join([f"{full} × {self.chassis.id}" if full > 1 else self.chassis.id, *rest])


def merged_lines(parts: list[list[Line]]) -> list[Line]:
    """The bill of materials of several systems: equal lines (item and unit price) added up."""
    out: dict[tuple, Line] = {}
    for lines in parts:
        for x in lines:
            key = (x.item, x.description, x.unit.amount.mid, x.unit.currency)
            had = out.get(key)
            out[key] = x if had is None else Line(x.item, x.description, had.quantity + x.quantity, x.unit,
                                                  Band(low=had.total_chf.low + x.total_chf.low,
                                                       high=had.total_chf.high + x.total_chf.high), x.quote_needed)
    return list(out.values())


def _quantity(line: BomLine, gpu: Gpu, count: int) -> float:
    if count < line.min_gpus or (line.max_gpus is not None and count > line.max_gpus):
        return 0.0
    scale = {"system": 1, "gpu": count, "core": m3_cpu_cores(count), "ram_gb": m3_ram_gb(gpu, count)}[line.per]
    return line.quantity * scale


def _chf(price: Price, fx) -> Band:
    a = price.amount
    return Band(low=fx(a.low, price.currency), high=fx(a.high, price.currency))


def system_lines(chassis: Chassis, gpu: Gpu, count: int, gpu_price: Price, fx) -> list[Line]:
    """The bill of materials of `count` × `gpu` in `chassis`: the GPU line first, then the chassis lines."""
    unit = _chf(gpu_price, fx)
    out = [Line("gpu", gpu.name, count, gpu_price, unit.scaled(count))]
    for line in chassis.lines:
        q = _quantity(line, gpu, count)
        if q > 0:
            out.append(Line(line.item, line.description, q, line.price, _chf(line.price, fx).scaled(q),
                            line.quote_needed))
    return out


def parts_mid_chf(parts: list[tuple[Chassis, int]], gpu: Gpu, gpu_price: Price, fx) -> float:
    """`total_chf(merged_lines(...)).mid` of these systems in plain floats, the same sums in the same
    order (so the same number to the last bit), without building a `Line` or a `Band` per line: the
    search prices every count of a purchase to visit them cheapest first."""
    merged: dict[tuple, list[float]] = {}

    def add(key: tuple, price: Price, quantity: float) -> None:
        a = price.amount
        low, high = fx(a.low, price.currency) * quantity, fx(a.high, price.currency) * quantity
        had = merged.get(key)
        merged[key] = [low, high] if had is None else [had[0] + low, had[1] + high]

    for chassis, count in parts:
        add(("gpu", gpu.name, gpu_price.amount.mid, gpu_price.currency), gpu_price, count)
        for line in chassis.lines:
            q = _quantity(line, gpu, count)
            if q > 0:
                add((line.item, line.description, line.price.amount.mid, line.price.currency), line.price, q)
    return (sum(v[0] for v in merged.values()) + sum(v[1] for v in merged.values())) / 2


def total_chf(lines: list[Line]) -> Band:
    """The price of a system: the sum of its lines (low with low, high with high)."""
    return Band(low=sum(x.total_chf.low for x in lines), high=sum(x.total_chf.high for x in lines))


def host_chf(lines: list[Line]) -> Band:
    """Everything but the GPUs."""
    return total_chf([x for x in lines if x.item != "gpu"])


def system_power_w(chassis: Chassis, gpu: Gpu, count: int) -> float:
    """Power at server level: GPU TDP × count + the chassis' other parts (midpoint of its band), W."""
    return gpu.tdp_w * count + chassis.base_power_w.mid


def lowest_confidence(lines: list[Line]) -> str:
    """The weakest confidence among the lines (a sum is as sure as its least sure part)."""
    worst = max((x.confidence for x in lines), key=lambda c: CONFIDENCE_ORDER[c])
    return worst or "low"


def summed_price(lines: list[Line], what: str) -> Price:
    """The lines' sum as a dated CHF price (date: the oldest line's), labelled as derived."""
    band = total_chf(lines)
    quotes = [x.item for x in lines if x.quote_needed]
    note = "; ".join(f"{x.item}: {x.quantity:g} × {x.unit.amount.low:,.0f}-{x.unit.amount.high:,.0f} "
                     f"{x.unit.currency}" for x in lines).replace(",", " ")
    if quotes:
        note += f". Quote needed for: {', '.join(quotes)}."
    return Price(amount=band.model_dump(), currency="CHF", date=min(x.unit.date for x in lines),
                 basis=f"{what}: complete system, sum of the bill of materials", note=note,
                 source="derived: sum of the bill of materials (`gpu-expert catalog packages`, docs/prices.md)",
                 confidence=lowest_confidence(lines))


def package_lines(pkg: Package, chassis: dict[str, Chassis], gpus: dict[str, Gpu], fx) -> list[Line] | None:
    """A package's bill of materials, or None when it names no chassis or no GPU unit price."""
    if pkg.chassis is None or pkg.gpu_unit_price is None or pkg.chassis not in chassis:
        return None
    return system_lines(chassis[pkg.chassis], gpus[pkg.gpu], pkg.count, pkg.gpu_unit_price, fx)


def with_bom_price(pkg: Package, chassis: dict[str, Chassis], gpus: dict[str, Gpu], fx) -> Package:
    """The package with `hardware_net` = the sum of its bill of materials (unchanged without a chassis)."""
    lines = package_lines(pkg, chassis, gpus, fx)
    if lines is None:
        return pkg
    return pkg.model_copy(update={"hardware_net": summed_price(lines, f"package {pkg.id}"),
                                  "hardware_net_includes": ["gpus", "host"]})
