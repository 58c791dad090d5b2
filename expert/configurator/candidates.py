"""The candidate space: where GPUs come from (cloud offers, individual purchases, 004's packages),
which counts, precisions and tensor-parallel degrees are valid, and what each costs per month.

Rules (docs/configurator.md has the full list):

- Sources by `deployment` and `budget`: `cloud` → rented offers; `on_premise` → packages and
  purchases; `any` → `budget: opex` rents, `budget: capex` buys (packages and purchases), `budget:
  any` compares both ("whatever is cheaper"). Under 18 months a workload with deployment `any` rents
  (000 T5). The deployment wins when the two disagree (cloud + capex still rents; the result says so).
- Hosting: `ch` → offers hosted in CH; `eu` → EU/EEA/CH countries; `any` → all, also offers whose
  country is unknown (public offers, market ranges). On-premise hardware stands at the organisation's
  own site: its `site_country` when given (checked against the hosting requirement like an offer's
  country), else it satisfies every hosting requirement.
- Grades (000 G10, G11): consumer and workstation GPUs are left out when `critical` unless
  `allow_consumer_gpus`. Vendors (000 D4 framework compatibility, G12 ROCm/Gaudi maturity):
  AMD and Intel GPUs only with `allow_non_nvidia`.
- Counts: cloud 1-8 of any GPU; purchases are complete systems (`expert.catalog.bom`): PCIe cards
  1-8 in the smallest chassis class that takes them, SXM/OAM modules only as an 8-GPU HGX system
  (004 C3); packages have their fixed count. A budget of `any` compares renting and buying.
- Precisions (000 Q2): a stated precision is kept (only it is tried; fp8 where engines serve it: natively,
  or weight-only with FP8 Marlin on NVIDIA Ampere, `kernels.fp8_served`). An open one (`Workload.precision_open`: no precision stated, or `allow_quantization`) tries
  16-bit (the workload's bf16, else fp16), fp32 only when asked for, fp8 only on GPUs with native FP8
  (`fp8_tflops`), int8 always (weight-only where the GPU has no int8 path), int4 only with
  `allow_int4` (or a workload precision of int4) — none of better quality than a stated precision.
- Tensor parallelism: degrees 1-8 that divide the count, the model's attention heads and its KV
  heads (for a `params_b`-only generic model the head count is a derived guess, so only the KV-head
  rule applies). SXM/NVLink boards use 004's SXM column; PCIe cards, pairwise NVLink bridges and
  cards without NVLink the PCIe column (its TP 2 row *is* the bridged pair; 004 C7).
- Energy (`expert.catalog.pricing.offer_energy_tdp`): owned hardware pays the whole server's power (GPUs +
  CPUs + rest, `expert.catalog.bom.system_power_w`); rented GPUs only where the price excludes power
  (rents derived from 000's TCO and market ranges, at the TDP 000 used; public list prices include it).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial
from typing import Callable

from expert.catalog.bom import system_power_w
from expert.catalog.loader import Catalog
from expert.catalog.models import Gpu, LlmModel
from expert.catalog.pricing import offer_energy_tdp
from expert.sizing.buyrent import MIN_BUY_MONTHS
from expert.inputs.workload import Workload
from expert.sizing.kernels import fp8_served
from expert.sizing.parallel import engine_tp_degrees
from expert.sizing.weight_format import QUALITY_ORDER

EU_EEA_CH = {"AT", "BE", "BG", "HR", "CY", "CZ", "DK", "EE", "FI", "FR", "DE", "GR", "HU", "IE", "IT", "LV",
             "LT", "LU", "MT", "NL", "PL", "PT", "RO", "SK", "SI", "ES", "SE", "IS", "LI", "NO", "CH"}
SOURCE_ORDER = {"cloud": 0, "package": 1, "purchase": 2}
QUALITY_NOTE = ("fp8", "int8", "int4")
"""Precisions whose quality cost a choice states (`configurator.quality.<precision>` in the catalog)."""


@dataclass
class Source:
    """One place to get GPUs of one kind, with its price per GPU-month (rent) or purchase (CHF).

    Not changed after it is built (every field is read only). Not a frozen dataclass:
    a frozen `__init__` sets each of its fields through `object.__setattr__`, and a fresh process
    builds all 51 of a catalog before its first advice (`catalog_sources`): a third of that time."""

    kind: str                      # cloud | package | purchase
    key: str                       # offer id, package id, or "purchase:<gpu>:<condition>"
    gpu: Gpu
    counts: tuple[int, ...]
    order: int                     # catalog order within its kind (tie-break)
    rent_chf: float = 0.0          # per GPU-month (cloud)
    purchase_chf: float = 0.0      # complete system of the package's count (package); unused for purchases
    energy_tdp_w: float = 0.0      # per rented GPU; 0 when the rent includes power
    systems: tuple[tuple[float, float, str], ...] = ()  # per count: (system CHF, server power W, chassis id)
    column: str = "pcie"           # 004 table column
    provider: str | None = None
    country: str | None = None
    package: str | None = None
    condition: str | None = None
    offer_kind: str | None = None
    marketplace: bool = False
    priced: Callable[[int], tuple[float, float, str]] | None = field(default=None, compare=False, repr=False)
    """Prices the counts of `counts` beyond `systems` (several bought systems): `Catalog.several_systems`,
    a look-up in the table built with the catalog."""

    def system(self, count: int) -> tuple[float, float, str]:
        """(complete-system price CHF, server power W, chassis id) of a bought source at `count` GPUs;
        other counts (agent pools, training layouts) as full largest systems plus the smallest system that
        holds the rest."""
        if count in self.counts:
            i = self.counts.index(count)
            if i < len(self.systems):
                return self.systems[i]
            return self.priced(count)
        server = max(c for c in self.counts if c <= SERVER_GPUS)
        n, rest = divmod(count, server)
        full = self.systems[self.counts.index(server)]
        parts = [full] * n
        if rest:
            parts.append(self.systems[next(i for i, c in enumerate(self.counts) if c >= rest)])
        label = (f"{n} × {full[2]}" if n > 1 else full[2]) + (f" + {parts[-1][2]}" if rest else "")
        return sum(p[0] for p in parts), sum(p[1] for p in parts), label

    @property
    def group(self) -> tuple[str, str]:
        """Alternatives are grouped by (gpu, source kind)."""
        return (self.gpu.id, self.kind)


def column_of(gpu: Gpu) -> str:
    """004 column of a GPU's own link: full mesh (NVLink/Infinity Fabric/RoCE) → sxm, else pcie."""
    return "sxm" if gpu.interconnect.kind in ("nvlink", "infinity-fabric", "ethernet") else "pcie"


def interconnect_label(gpu: Gpu, tp: int, column: str) -> str:
    """The setup-file word: nvlink (full mesh), pcie-bridge (bridged pair at TP 2), pcie."""
    if column == "sxm":
        return "nvlink"
    if tp == 2 and gpu.interconnect.kind == "nvlink-bridge":
        return "pcie-bridge"
    return "pcie"


def grade_allowed(gpu: Gpu, w: Workload) -> bool:
    """000 G10/G11: no consumer or workstation GPU for critical production unless allowed;
    000 D4/G12: non-NVIDIA GPUs (ROCm, Gaudi software) only when the workload allows them."""
    if gpu.vendor != "NVIDIA" and not w.allow_non_nvidia:
        return False
    return gpu.grade == "datacenter" or not w.critical or w.allow_consumer_gpus


def hosting_allowed(country: str | None, hosting: str) -> bool:
    """Hosting rule for a cloud offer's country."""
    if hosting == "any":
        return True
    if country is None:
        return False
    return country == "CH" if hosting == "ch" else country in EU_EEA_CH


def source_kinds(w: Workload) -> tuple[str, ...]:
    """Which sources the workload admits (deployment first, then budget; 000 T5: under 18 months a
    workload free to choose rents, so capex only buys from 18 months on)."""
    if w.deployment == "cloud":
        return ("cloud",)
    if w.deployment == "on_premise":
        return ("package", "purchase")
    if w.horizon_months < MIN_BUY_MONTHS or w.budget == "opex":
        return ("cloud",)
    return ("package", "purchase") if w.budget == "capex" else ("cloud", "package", "purchase")


SERVER_GPUS = 8
"""GPUs in one server (HGX boards and 8-slot PCIe servers, 004 C3); a tensor-parallel replica stays inside one."""
SCALE_OUT_COUNTS = tuple(range(SERVER_GPUS + 1, 2 * SERVER_GPUS + 1)) + tuple(range(24, 65, SERVER_GPUS))
"""Counts beyond one server: replicas on several servers behind a load balancer (000 R3's homogeneous
multi-GPU architecture: "einfache horizontale Skalierung"); every GPU up to two servers, then whole
servers up to 64 GPUs (an own limit of the search, not a document's)."""


def scale_out(counts: tuple[int, ...]) -> tuple[int, ...]:
    """A server's counts plus the scale-out counts: any count for servers that take any number of cards,
    whole servers for those sold complete (SXM/OAM systems of 8)."""
    if counts == (SERVER_GPUS,):
        return counts + tuple([c for c in SCALE_OUT_COUNTS if c % SERVER_GPUS == 0])
    return counts + SCALE_OUT_COUNTS


def all_sources(catalog: Catalog) -> list[Source]:
    """Every source in the catalog, before any workload filter (cached per catalog by the caller).

    A purchase tariff's counts and systems come from `Catalog.purchasable`, the table of
    `several_systems` over `PREBUILT_COUNTS` without its None values: every count asked here (1 to
    `SERVER_GPUS` and `SCALE_OUT_COUNTS`, at most 64) is in that range, so "in the table" is "not None"
    and the value is the same tuple (`tests/configurator/test_sources.py` compares with the look-up per
    count)."""
    out: list[Source] = []
    rented = scale_out(tuple(range(1, SERVER_GPUS + 1)))
    for i, offer in enumerate(catalog.offers.values()):
        gpu = catalog.gpus[offer.gpu]
        amount = offer.monthly.amount
        out.append(Source("cloud", offer.id, gpu, rented, i,
                          rent_chf=catalog.to_chf(amount.mid, offer.monthly.currency),
                          energy_tdp_w=offer_energy_tdp(offer, gpu), column=column_of(gpu),
                          provider=offer.provider, country=offer.country, offer_kind=offer.kind,
                          marketplace=offer.marketplace))
    for i, pkg in enumerate(catalog.packages.values()):
        if pkg.hardware_net is None:
            continue
        gpu = catalog.gpus[pkg.gpu]
        price = catalog.to_chf(pkg.hardware_net.amount.mid, pkg.hardware_net.currency)
        chassis = catalog.chassis.get(pkg.chassis or "")
        power = system_power_w(chassis, gpu, pkg.count) if chassis else gpu.tdp_w * pkg.count
        out.append(Source("package", pkg.id, gpu, (pkg.count,), i, purchase_chf=price, energy_tdp_w=gpu.tdp_w,
                          column="sxm" if pkg.interconnect == "sxm" else "pcie", package=pkg.id,
                          condition=pkg.condition, systems=((price, power, pkg.chassis or ""),)))
    for i, entry in enumerate(catalog.tariffs.purchase):
        gpu = catalog.gpus[entry.gpu]
        # every purchase is a complete system (expert.catalog.bom): one up to 8 GPUs, several beyond;
        # `purchasable` holds `several_systems` of every count asked here (all within PREBUILT_COUNTS)
        found = catalog.purchasable(entry.gpu, entry.condition)
        counts = [count for count in range(1, SERVER_GPUS + 1) if count in found]
        systems = [found[count] for count in counts]
        if counts:
            more = tuple([c for c in scale_out(tuple(counts))[len(counts):] if c in found])
            out.append(Source("purchase", f"purchase:{entry.gpu}:{entry.condition}", gpu, tuple(counts) + more, i,
                              energy_tdp_w=gpu.tdp_w, column=column_of(gpu), condition=entry.condition,
                              systems=tuple(systems),
                              priced=partial(catalog.several_systems, entry.gpu, condition=entry.condition)))
    return out


REGULATED_SECTORS = ("finance", "health", "public")  # 000 M4: "Finanzwesen, Gesundheit, Verwaltung"


def location_must_be_known(w: Workload) -> bool:
    """000 M4: with sensitive data or in a regulated sector the physical server location must be
    checked, so even with hosting 'any' an offer whose hosting country is unknown is left out."""
    return w.hosting == "any" and (w.data == "sensitive" or w.sector in REGULATED_SECTORS)


def admissible_sources(sources: list[Source], w: Workload) -> list[Source]:
    """The sources a workload admits (kinds, hosting, grades; no marketplace for critical production)."""
    kinds = source_kinds(w)
    known = location_must_be_known(w)
    own_site_ok = w.site_country is None or hosting_allowed(w.site_country, w.hosting)
    return [s for s in sources if s.kind in kinds and grade_allowed(s.gpu, w)
            and (own_site_ok if s.kind != "cloud" else (hosting_allowed(s.country, w.hosting)
                                                         and not (known and s.country is None)
                                                         and not (w.critical and s.marketplace)))]


def precisions(gpu: Gpu, w: Workload) -> tuple[str, ...]:
    """Precisions to try on `gpu`, best quality first (module docstring): a stated precision alone
    (fp8 only where the GPU has native FP8), unless `w.precision_open`, then that precision and the
    quantised ones below it."""
    if not w.precision_open:
        return (w.precision,) if supports(gpu, w.precision) else ()
    out = []
    if w.precision == "fp32":
        out.append("fp32")
    out.append("bf16" if w.precision == "bf16" else "fp16")
    if gpu.fp8_tflops:
        out.append("fp8")
    out.append("int8")
    if w.allow_int4 or w.precision == "int4":
        out.append("int4")
    if w.precision not in out and supports(gpu, w.precision):
        out.insert(0, w.precision)  # a model's native format (gpt-oss mxfp4): it, then only lower ones
    floor = QUALITY_ORDER[w.precision]
    return tuple([p for p in out if QUALITY_ORDER[p] > floor or p == w.precision])


def supports(gpu: Gpu, precision: str) -> bool:
    """Whether the configurator serves a stated `precision` on `gpu`: fp8 where engines serve it
    (`kernels.fp8_served`: natively, or weight-only with FP8 Marlin on NVIDIA Ampere); every other precision
    runs everywhere (int8/int4 weight-only where needed). An open precision tries fp8 only where it is
    native (`precisions`: 000 G3 ties FP8 to the Transformer Engine, and on Ampere int8 W8A8 is faster)."""
    return precision != "fp8" or fp8_served(gpu)


def tp_degrees(model: LlmModel, count: int, source: Source | None = None) -> tuple[int, ...]:
    """TP degrees 1-8 dividing `count`, the attention heads (not for generic models) and KV heads;
    for a rented source also none that the documents warn against (`rented_tp_allowed`)."""
    return tuple(t for t in tp_allowed(model, source) if count % t == 0)


def tp_allowed(model: LlmModel, source: Source | None = None) -> tuple[int, ...]:
    """The degrees of `tp_degrees` before the count divides them: what the model and the source allow."""
    return tuple([t for t in engine_tp_degrees(model) if model.kv_heads % t == 0
                  and (source is None or rented_tp_allowed(source, t))])


def rented_tp_allowed(source: Source, tp: int) -> bool:
    """004 C7 (TP 4 over PCIe: 15-20 % gap; TP 8: "often not worth it") and C6 (RTX PRO 6000 has no
    NVLink): a rented configuration the rules would warn about is not picked, since renting leaves
    the choice of an NVLink system or a larger GPU open. On-premise hardware keeps them: 004's own
    PCIe packages (2, 3, N3, N4) are built to be split."""
    if source.kind != "cloud" or tp == 1:
        return True
    if source.gpu.id.startswith("rtx-pro-6000"):
        return False
    return not (source.column == "pcie" and tp >= 4)


def catalog_sources(catalog: Catalog) -> list[Source]:
    """All sources of a catalog (built once per catalog object, kept with it)."""
    return catalog.memo("configurator.sources", lambda: all_sources(catalog))
