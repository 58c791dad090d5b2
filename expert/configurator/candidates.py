"""The candidate space: where GPUs come from (cloud offers, individual purchases, 004's packages),
which counts, precisions and tensor-parallel degrees are valid, and what each costs per month.

Rules (docs/configurator.md has the full list):

- Sources by `deployment` and `budget`: `cloud` → rented offers; `on_premise` → packages and
  purchases; `any` → `budget: opex` rents, `budget: capex` buys (packages and purchases). The
  deployment wins when the two disagree (cloud + capex still rents; the result says so).
- Hosting: `ch` → offers hosted in CH; `eu` → EU/EEA/CH countries; `any` → all, also offers whose
  country is unknown (public offers, market ranges). On-premise hardware stands at the user's own
  site and satisfies every hosting requirement.
- Grades (000 G10, G11): consumer and workstation GPUs are left out when `critical` unless
  `allow_consumer_gpus`. Vendors (000 D4 framework compatibility, G12 ROCm/Gaudi maturity):
  AMD and Intel GPUs only with `allow_non_nvidia`.
- Counts: cloud 1-8 of any GPU; purchases of PCIe cards 1-8 (servers grow stepwise, 004 C3), of
  SXM/OAM boards only fully populated 4 or 8 (004 C3); packages have their fixed count.
- Precisions (000 Q2): 16-bit always (the workload's bf16, else fp16), fp32 only when asked for,
  fp8 only on GPUs with native FP8 (`fp8_tflops`), int8 always (weight-only where the GPU has no int8
  path), int4 only with `allow_int4` (or a workload precision of int4).
- Tensor parallelism: degrees 1-8 that divide the count, the model's attention heads and its KV
  heads (for a `params_b`-only generic model the head count is a derived guess, so only the KV-head
  rule applies). SXM/NVLink boards use 004's SXM column; PCIe cards, pairwise NVLink bridges and
  cards without NVLink the PCIe column (its TP 2 row *is* the bridged pair; 004 C7).
- Energy: the offer's `energy_tdp_w` when the catalog sets one; else the catalog TDP, except for
  offers whose rent was derived from document 000's own TCO (`source` starting with "derived"): their
  energy uses the TDP 000 used in that derivation (its `document_claims`), because the derived rent
  only reproduces 000's TCO together with it (A100 PCIe: 400 W instead of 300 W; T3 then holds).
"""

from __future__ import annotations

from dataclasses import dataclass

from expert.catalog.loader import Catalog
from expert.catalog.models import Gpu, LlmModel
from expert.workload import Workload

EU_EEA_CH = {"AT", "BE", "BG", "HR", "CY", "CZ", "DK", "EE", "FI", "FR", "DE", "GR", "HU", "IE", "IT", "LV",
             "LT", "LU", "MT", "NL", "PL", "PT", "RO", "SK", "SI", "ES", "SE", "IS", "LI", "NO", "CH"}
QUALITY_ORDER = {"fp32": 0, "bf16": 1, "fp16": 1, "fp8": 2, "int8": 3, "int4": 4}
SOURCE_ORDER = {"cloud": 0, "package": 1, "purchase": 2}
QUALITY_NOTE = {
    "en": {"fp8": "FP8 with dynamic scaling (Transformer Engine, 000 G3): close to 16-bit quality; validate",
           "int8": "INT8: usually < 3 % quality loss (000 Q2)",
           "int4": "INT4: 5-8 % quality loss depending on the task; needs case-by-case validation (000 Q2)"},
    "de": {"fp8": "FP8 mit dynamischer Skalierung (Transformer Engine, 000 G3): nahe an 16-Bit-Qualität; "
                  "validieren",
           "int8": "INT8: meist < 3 % Qualitätsverlust (000 Q2)",
           "int4": "INT4: 5-8 % Qualitätsverlust je nach Aufgabe; Einzelfallvalidierung nötig (000 Q2)"},
}


@dataclass(frozen=True)
class Source:
    """One place to get GPUs of one kind, with its price per GPU-month (rent) or purchase (CHF)."""

    kind: str                      # cloud | package | purchase
    key: str                       # offer id, package id, or "purchase:<gpu>:<condition>"
    gpu: Gpu
    counts: tuple[int, ...]
    order: int                     # catalog order within its kind (tie-break)
    rent_chf: float = 0.0          # per GPU-month (cloud)
    purchase_chf: float = 0.0      # for the whole count (package) or per GPU (purchase)
    energy_tdp_w: float = 0.0
    column: str = "pcie"           # 004 table column
    provider: str | None = None
    country: str | None = None
    package: str | None = None
    condition: str | None = None
    offer_kind: str | None = None
    marketplace: bool = False

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
    """Which sources the workload admits (deployment first, then budget)."""
    if w.deployment == "cloud":
        return ("cloud",)
    if w.deployment == "on_premise":
        return ("package", "purchase")
    return ("cloud",) if w.budget == "opex" else ("package", "purchase")


def _document_tdp(gpu: Gpu) -> float | None:
    for claim in gpu.document_claims:
        if claim.field == "tdp_w" and isinstance(claim.value, (int, float)):
            return float(claim.value)
    return None


def offer_energy_tdp(offer, gpu: Gpu) -> float:
    """TDP for the energy term of a rented GPU: the offer's `energy_tdp_w` when the catalog sets it,
    else for offers derived from 000's TCO the TDP 000 used (module docstring), else the GPU's."""
    explicit = getattr(offer, "energy_tdp_w", None)
    if explicit:
        return float(explicit)
    if offer.monthly.source.startswith("derived"):
        return _document_tdp(gpu) or gpu.tdp_w
    return gpu.tdp_w


def all_sources(catalog: Catalog) -> list[Source]:
    """Every source in the catalog, before any workload filter (cached per catalog by the caller)."""
    out: list[Source] = []
    for i, offer in enumerate(catalog.offers.values()):
        gpu = catalog.gpus[offer.gpu]
        amount = offer.monthly.amount
        out.append(Source("cloud", offer.id, gpu, tuple(range(1, 9)), i,
                          rent_chf=catalog.to_chf(amount.mid, offer.monthly.currency),
                          energy_tdp_w=offer_energy_tdp(offer, gpu), column=column_of(gpu),
                          provider=offer.provider, country=offer.country, offer_kind=offer.kind,
                          marketplace=offer.marketplace))
    for i, pkg in enumerate(catalog.packages.values()):
        if pkg.hardware_net is None:
            continue
        gpu = catalog.gpus[pkg.gpu]
        price = catalog.to_chf(pkg.hardware_net.amount.mid, pkg.hardware_net.currency)
        out.append(Source("package", pkg.id, gpu, (pkg.count,), i, purchase_chf=price, energy_tdp_w=gpu.tdp_w,
                          column="sxm" if pkg.interconnect == "sxm" else "pcie", package=pkg.id,
                          condition=pkg.condition))
    for i, entry in enumerate(catalog.tariffs.purchase):
        gpu = catalog.gpus[entry.gpu]
        counts = (4, 8) if gpu.form_factor in ("sxm", "oam") else tuple(range(1, 9))
        price = catalog.to_chf(entry.price.amount.mid, entry.price.currency)
        out.append(Source("purchase", f"purchase:{entry.gpu}:{entry.condition}", gpu, counts, i,
                          purchase_chf=price, energy_tdp_w=gpu.tdp_w, column=column_of(gpu),
                          condition=entry.condition))
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
    return [s for s in sources if s.kind in kinds and grade_allowed(s.gpu, w)
            and (s.kind != "cloud" or (hosting_allowed(s.country, w.hosting)
                                       and not (known and s.country is None)
                                       and not (w.critical and s.marketplace)))]


def precisions(gpu: Gpu, w: Workload) -> tuple[str, ...]:
    """Precisions to try on `gpu`, best quality first (module docstring)."""
    out = []
    if w.precision == "fp32":
        out.append("fp32")
    out.append("bf16" if w.precision == "bf16" else "fp16")
    if gpu.fp8_tflops:
        out.append("fp8")
    out.append("int8")
    if w.allow_int4 or w.precision == "int4":
        out.append("int4")
    return tuple(out)


def tp_degrees(model: LlmModel, count: int, source: Source | None = None) -> tuple[int, ...]:
    """TP degrees 1-8 dividing `count`, the attention heads (not for generic models) and KV heads;
    for a rented source also none that the documents warn against (`rented_tp_allowed`)."""
    return tuple(t for t in range(1, 9) if count % t == 0 and model.kv_heads % t == 0
                 and (model.generic or model.heads % t == 0) and (source is None or rented_tp_allowed(source, t)))


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
