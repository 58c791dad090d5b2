"""Typed catalog entries: GPUs, models, on-premise packages, cloud offers and tariffs.

These pydantic models are the single definition of the catalog file formats: the JSON Schemas in
`knowledge/schemas/` are generated from them (`python -m expert.catalog.schema_gen`) and a test
checks that the shipped schemas match. Every entry carries `sources`: a mapping from a field name
(or `default`, covering every field without its own entry) to a citation — document and section,
or a public reference. Ranges from the documents stay ranges (`Band`).
"""


from typing import Annotated, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, model_validator


class Strict(BaseModel):
    """Base for catalog records: unknown keys are rejected, instances are immutable."""

    # defer_build: the validator is built on first validation, not at import; a catalog read back
    # from the compiled cache (expert._plumbing.compiled) is never validated again and never builds one
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)




def _band_from_number(value):
    """A number as a band of one value; a `Band` as its bounds, so a `PriceBand` field also takes a plain
    `Band` (then checked against the price bounds); anything else as given."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return {"low": value, "high": value}
    if isinstance(value, Band):  # defined below; looked up when a value is validated
        return {"low": value.low, "high": value.high}
    return value


class Band(Strict):
    """A value that may be a range: `low`..`high` (equal when the source gives one number)."""

    low: float = Field(ge=0)
    high: float = Field(ge=0)

    @model_validator(mode="after")
    def _ordered(self) -> "Band":
        if self.high < self.low:
            raise ValueError(f"high ({self.high}) is below low ({self.low})")
        return self

    @property
    def mid(self) -> float:
        """The midpoint, used where one number is needed (documented at each use)."""
        return (self.low + self.high) / 2

    @classmethod
    def of(cls, low: float, high: float) -> "Band":
        """`Band(low=low, high=high)`."""
        return cls(low=low, high=high)

    def scaled(self, factor: float) -> "Band":
        """This band multiplied by a non-negative factor."""
        return Band.of(self.low * factor, self.high * factor)


BandLike = Annotated[Band, BeforeValidator(_band_from_number, json_schema_input_type=float | Band)]
Sources = dict[str, str]
# The weight formats a precision may name (expert.sizing.constants `bytes_per_param` holds their bytes):
# one list for the workload, the CLI and a model's native format. mxfp4 = OCP Microscaling FP4.
WeightFormat = Literal["fp32", "bf16", "fp16", "fp8", "int8", "int4", "mxfp4"]
Currency = Literal["CHF", "EUR", "USD"]


MIN_PRICE, MAX_PRICE = 0.01, 1e10
"""Bounds of every catalog price (one centime; ten billion): beyond them no arithmetic of the TCO
can overflow or divide by zero (issue 34)."""


class PriceBand(Band):
    """A price's amount: a band whose bounds are the contract's (docs/contract.md: prices ≥ 0.01), so the
    schema's message for a negative or zero price names that minimum (QA 46 nit). Issue 34: a zero (or
    1e-300) price made every configuration free, so the largest won the tie."""

    low: float = Field(ge=MIN_PRICE, le=MAX_PRICE)
    high: float = Field(ge=MIN_PRICE, le=MAX_PRICE)


PriceBandLike = Annotated[PriceBand, BeforeValidator(_band_from_number, json_schema_input_type=float | PriceBand)]


class Price(Strict):
    """A dated price with its currency, basis and source; `amount` may be a range."""

    amount: PriceBandLike
    currency: Currency
    date: str = Field(pattern=r"^\d{4}(-\d{2}(-\d{2})?)?$", description="YYYY, YYYY-MM or YYYY-MM-DD")
    basis: str = Field(description="what the amount covers, e.g. 'per GPU-month', 'per GPU, new'")
    source: str
    note: str | None = None
    confidence: Literal["high", "medium", "low"] | None = Field(
        default=None, description="how far the source can be trusted (aggregators and content sites: low)")


class DocumentClaim(Strict):
    """What a source document states where it differs from the vendor value kept in the entry."""

    field: str
    value: float | str | bool
    document: Literal["000", "004"]
    section: str
    note: str


class Interconnect(Strict):
    """How GPUs of this kind talk to each other."""

    kind: Literal["nvlink", "nvlink-bridge", "infinity-fabric", "ethernet", "none"]
    generation: str | None = None
    bandwidth_gbs: float | None = Field(default=None, ge=0, description="bidirectional per GPU")
    max_gpus: int | None = Field(default=None, ge=1, description="GPUs in one link domain (2 for a bridge)")


class Gpu(Strict):
    """One GPU variant (PCIe, SXM and NVL differ and are separate entries)."""

    id: str = Field(pattern=r"^[a-z0-9][a-z0-9.-]*$")
    name: str
    vendor: str
    variant: str
    aliases: list[str] = []
    architecture: str
    launch_year: int = Field(ge=2015, le=2030)
    form_factor: Literal["pcie", "sxm", "nvl", "oam"]
    grade: Literal["datacenter", "workstation", "consumer"]
    memory_gb: float = Field(ge=0.5, le=100_000, description="bounds (issue 34): no overflow, no division by ~0")
    memory_type: str
    bandwidth_gbs: float = Field(ge=1, le=1e6)
    fp16_tflops: float = Field(ge=0.1, le=1e6, description="dense FP16/BF16 tensor TFLOPS (no sparsity)")
    fp8_tflops: float | None = Field(default=None, gt=0, description="dense; null = no native FP8")
    int8_tops: float | None = Field(default=None, gt=0, description="dense; null = unknown/none")
    fp4_tflops: float | None = Field(default=None, gt=0,
                                     description="dense FP4 (MXFP4/NVFP4) tensor TFLOPS; null = no native FP4: "
                                                 "4-bit weights are dequantised (weight-only)")
    tdp_w: float = Field(ge=1, le=100_000)
    cuda_cores: int | None = Field(default=None, gt=0,
                                   description="CUDA cores (NVIDIA) or stream processors (AMD); "
                                               "null = not published")
    tensor_cores: int | None = Field(default=None, gt=0,
                                     description="Tensor Cores (NVIDIA) or matrix cores (AMD); "
                                                 "null = not published")
    interconnect: Interconnect
    ecc: bool | None = None
    mig: bool = False
    sources: Sources
    document_claims: list[DocumentClaim] = []
    notes: str | None = None

    @model_validator(mode="after")
    def _has_default_source(self) -> "Gpu":
        if "default" not in self.sources:
            raise ValueError("sources must have a 'default' entry")
        return self


class LlmModel(Strict):
    """A published model architecture, enough to size memory and speed without weights."""

    id: str = Field(pattern=r"^[a-z0-9][a-z0-9.-]*$")
    name: str
    aliases: list[str] = []
    params_b: float = Field(gt=0)
    layers: int = Field(gt=0)
    hidden: int = Field(gt=0)
    heads: int = Field(gt=0)
    kv_heads: int = Field(gt=0)
    head_dim: int = Field(gt=0)
    intermediate: int | None = Field(default=None, gt=0)
    vocab: int = Field(gt=0)
    max_context: int = Field(gt=0)
    sliding_window: int | None = Field(default=None, gt=0)
    sliding_window_share: float = Field(default=0.0, ge=0, le=1,
                                        description="share of layers using the sliding window")
    experts: int | None = Field(default=None, gt=0)
    experts_active: int | None = Field(default=None, gt=0)
    active_params_b: float | None = Field(default=None, gt=0)
    shared_experts: int | None = Field(default=None, ge=0,
                                       description="MoE: experts every token passes through, "
                                                   "besides the `experts_active` routed ones")
    kv_lora_rank: int | None = Field(default=None, gt=0,
                                     description="MLA (DeepSeek): width of the compressed KV latent "
                                                 "cached per token and layer")
    q_lora_rank: int | None = Field(default=None, gt=0,
                                    description="MLA: width of the compressed query (DeepSeek's q_lora_rank); "
                                                "sizes the attention weights DP attention replicates")
    qk_rope_head_dim: int | None = Field(default=None, gt=0,
                                         description="MLA: width of the decoupled RoPE key cached "
                                                     "next to the latent")
    moe_layers: int | None = Field(default=None, gt=0,
                                   description="MoE: layers that hold experts (default all); the others are "
                                               "dense (DeepSeek's first_k_dense_replace, Llama 4 Maverick's "
                                               "interleave_moe_layer_step)")
    vision_params_b: float | None = Field(default=None, gt=0,
                                          description="part of params_b in a vision encoder and projector: in "
                                                      "the weights (kept 16-bit), not in the KV cache, not read "
                                                      "per generated token")
    native_precision: WeightFormat | None = Field(
        default=None, description="weight format of the published checkpoint, the default precision when a "
                                  "workload states none (gpt-oss: mxfp4, DeepSeek/Kimi: fp8)")
    native_scope: Literal["linear", "experts"] = Field(
        default="linear", description="which weights the native format covers: 'linear' = every linear layer "
                                      "(embeddings, LM head and vision tower stay 16-bit), 'experts' = the routed "
                                      "experts only (gpt-oss: attention, router and embeddings stay BF16)")
    generic: bool = False
    sources: Sources
    notes: str | None = None

    @model_validator(mode="after")
    def _plausible_shape(self) -> "LlmModel":
        if self.kv_heads > self.heads or self.heads % self.kv_heads:
            raise ValueError(f"kv_heads ({self.kv_heads}) must divide heads ({self.heads}): each KV head serves "
                             "a whole group of query heads")
        if self.moe_layers and self.moe_layers > self.layers:
            raise ValueError(f"moe_layers ({self.moe_layers}) exceeds layers ({self.layers})")
        if self.native_scope == "experts" and not (self.experts and self.experts > 1):
            raise ValueError("native_scope 'experts' needs a mixture-of-experts model (experts > 1)")
        return self

    @property
    def is_moe(self) -> bool:
        """True for mixture-of-experts models (all experts in memory, active ones read per token)."""
        return bool(self.experts and self.experts > 1)

    @property
    def kv_values_per_token_layer(self) -> int:
        """Values cached per token and layer: the MLA latent + RoPE key when set, else K and V."""
        if self.kv_lora_rank:
            return self.kv_lora_rank + (self.qk_rope_head_dim or 0)
        return 2 * self.kv_heads * self.head_dim

    @property
    def decode_params_b(self) -> float:
        """Parameters read per generated token: the active ones for MoE, all for dense models."""
        return self.active_params_b or self.params_b


class CostItem(Strict):
    """A cost the document lists separately from hardware (build, set-up, operation)."""

    name: Literal["build", "setup", "commissioning", "operation"]
    price: Price | None = None
    note: str


class BomLine(Strict):
    """One line of a bill of materials: an item, how many per `per`, and its dated, sourced unit price.

    `per` scales the quantity: `system` (fixed), `gpu` (× GPU count), `core` (× the CPU cores 000 M3
    asks: 32, 64 for multi-GPU), `ram_gb` (× the system RAM 000 M3 asks: 4 × total VRAM)."""

    item: Literal["chassis", "cpu", "ram", "nvme", "nic", "psu", "gpu", "baseboard", "cooling"]
    description: str
    per: Literal["system", "gpu", "core", "ram_gb"] = "system"
    quantity: float = Field(default=1, ge=0)
    min_gpus: int = Field(default=1, ge=1, description="the line applies from this GPU count on")
    max_gpus: int | None = Field(default=None, ge=1, description="the line applies up to this GPU count")
    price: Price
    quote_needed: bool = Field(default=False, description="no public list price: a range to be replaced by a quote")


class Chassis(Strict):
    """A class of complete system around the GPUs (workstation, 4-GPU server, 8-10-slot server, HGX)."""

    id: str = Field(pattern=r"^[a-z0-9][a-z0-9.-]*$")
    name: str
    min_gpus: int = Field(ge=1)
    max_gpus: int = Field(ge=1)
    form_factor: Literal["pcie", "sxm"]
    grades: list[Literal["datacenter", "workstation", "consumer"]] = Field(
        description="GPU grades this chassis takes (passive data-centre cards need server airflow)")
    base_power_w: BandLike = Field(description="power of everything but the GPUs (CPUs, RAM, drives, fans, NICs)")
    site: str = Field(description="what the site must provide (outlet, circuit, rack, cooling)")
    lines: list[BomLine]
    sources: Sources
    notes: str | None = None


class Package(Strict):
    """An on-premise hardware package of document 004."""

    id: str
    name: str
    condition: Literal["used", "new"]
    gpu: str
    count: int = Field(ge=1)
    interconnect: Literal["pcie", "pcie-bridge", "sxm"]
    total_vram_gb: float = Field(gt=0)
    character: dict[Literal["en", "de"], str]
    expandable_counts: list[int] = Field(description="GPU counts this chassis can be built out to")
    hardware_net: Price | None = None
    extra_costs: list[CostItem] = []
    sources: Sources
    gpu_unit_price: Price | None = Field(
        default=None, description="price of one GPU used to build `hardware_net` (count × unit + host)")
    host_price: Price | None = Field(
        default=None, description="server or workstation without GPUs; null when no citable price was found")
    hardware_net_includes: list[Literal["gpus", "host"]] = Field(
        default=[], description="what `hardware_net` covers; without 'host' the chassis is not priced")
    chassis: str | None = Field(
        default=None, description="chassis id of the complete system; `hardware_net` is then the sum of its "
                                  "bill of materials (GPU line + chassis lines), computed when the catalog loads")
    notes: str | None = None


class ClaimCheck(Strict):
    """How far a derived value reproduces one claim of a document."""

    claim: str
    document: str
    section: str
    stated: float
    reproduced: float
    miss: str
    unit: str | None = None
    stated_range: BandLike | None = Field(
        default=None, description="for a range claim: the range; `stated` then holds its midpoint")
    holds: bool | None = Field(
        default=None, description="whether the reproduced value satisfies the claim within its tolerance")
    note: str | None = None


class HostRam(Strict):
    """The host RAM a cloud instance gives each of its GPUs, as the provider lists it (issue 33): a
    fine-tuning run with CPU offload must fit it."""

    gb_per_gpu: float | None = Field(description="GB of host RAM per GPU (the instance's RAM ÷ its GPUs, "
                                     "as listed); null: not known, and `note` says why", gt=0)
    instance: str | None = Field(default=None, description="the instance type the figure is for")
    source: str | None = None
    date: str | None = Field(default=None, description="when the source was read or dated")
    note: str | None = None


class Offer(Strict):
    """A rentable GPU: a provider's catalog price or a market range, per GPU and month."""

    id: str
    provider: str
    kind: Literal["provider-catalog", "market-range", "organisation"]
    gpu: str
    country: str | None = Field(default=None, description="ISO 3166 code of the hosting country")
    monthly: Price
    certifications: list[str] = []
    derivation: str | None = None
    claim_checks: list[ClaimCheck] = []
    sources: Sources
    hourly: Price | None = Field(
        default=None, description="the published per-GPU-hour price that `monthly` was converted from")
    provider_seat: str | None = Field(default=None, description="ISO 3166 code of the provider's seat")
    not_certified: list[str] = Field(
        default=[], description="certifications a source explicitly says the provider does NOT hold")
    energy_tdp_w: float | None = Field(
        default=None, gt=0,
        description="TDP used for T1 energy when costing this offer; default the GPU's vendor TDP. Set for "
                    "the document's provider to 000's stated TDP, because 000's TCO arithmetic (T1-T3) uses it")
    includes_power: bool | None = Field(
        default=None,
        description="true when the price already includes power and cooling (public cloud list prices), so no "
                    "T1 energy line is added; default: rents derived from 000's TCO and 000's market ranges pay "
                    "energy on top (the document's method), every other offer includes it")
    host_ram: HostRam | None = Field(
        default=None, description="the instance's host RAM per GPU with its source; absent or null: unknown")
    notes: str | None = None
    marketplace: bool = Field(
        default=False, description="a marketplace of third-party hosts: neither the hosting country nor a "
                                   "service grade is known, so the configurator does not pick it for critical "
                                   "production (docs/configurator.md)")


class SourcedValue(Strict):
    """A single assumption with its source."""

    value: BandLike
    unit: str
    source: str
    note: str | None = None


class FxRate(Strict):
    """A currency conversion rate into CHF, dated."""

    chf_per_unit: float = Field(gt=0)
    date: str
    source: str
    note: str | None = None


class PurchasePrice(Strict):
    """What one GPU costs to buy."""

    gpu: str
    condition: Literal["new", "used"] = "new"
    price: Price


class Tariffs(Strict):
    """The cost assumptions of document 000's TCO section, plus exchange rates."""

    electricity_chf_per_kwh: SourcedValue
    cooling_factor: SourcedValue
    infrastructure_share: SourcedValue
    hours_per_month: SourcedValue
    horizon_months: SourcedValue
    resale_share: SourcedValue
    team_hourly_rate_chf: SourcedValue
    fx: dict[Currency, FxRate]
    purchase: list[PurchasePrice]

    @model_validator(mode="after")
    def _positive_hours(self) -> "Tariffs":
        if self.hours_per_month.value.low <= 0:
            raise ValueError("hours_per_month must be above 0 (energy per month is TDP × hours)")
        return self
    tco_formula: str | None = Field(
        default=None, description="document 000's TCO formula in words, as the tariffs above are meant")
