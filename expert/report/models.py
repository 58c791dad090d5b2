"""The report of `advise` and `audit`: the JSON shape of `shared/CONTRACT.md`, as pydantic models.

Field order here is the key order of the JSON output; floats are rounded where the report is built
(`expert.report.build`), so two runs on the same input give byte-identical JSON.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field


class ReportPart(BaseModel):
    """Base for report parts: no unknown fields."""

    model_config = ConfigDict(extra="forbid")


class MemorySummary(ReportPart):
    """Memory of the recommended configuration (GB, decimal)."""

    weights_gb: float
    kv_cache_gb: float
    overhead_gb: float
    total_gb: float
    fine_tuning_gb: float | None = None
    reserve_ratio: float | None = Field(default=None, description="free share of usable memory")
    growth_total_gb: float | None = None


class CapacitySummary(ReportPart):
    """Load and the capacity it needs (000 D3)."""

    average_rps: float
    peak_rps: float
    inference_time_s: float
    concurrent_inferences: float
    gpus_needed: int
    peak_basis: str | None = Field(default=None, description="how peak_rps was obtained: 'rate' (a rate is the "
                                   "load to size for), 'rate × peak_to_average' or 'daily volume × peak_to_average'")
    peak_factor: float | None = Field(default=None, description="the factor from the given load to peak_rps")


class Choice(ReportPart):
    """One configuration: what to rent or buy, how many, and what it costs."""

    gpu: str
    count: int
    source: Literal["cloud", "package", "purchase"]
    package: str | None = None
    offer: str | None = None
    provider: str | None = None
    country: str | None = None
    precision: str
    interconnect: str
    tensor_parallel: int = 1
    replicas: int = 1
    monthly_cost_chf: float
    tco_chf: float
    horizon_months: int
    fits: bool
    headroom: float | None = None
    latency_p95_s: float | None = Field(default=None, description="estimated end-to-end latency at the operating "
                                        "point: p95 TTFT + (output − 1) × TPOT")
    memory_per_gpu_gb: float | None = None
    usable_per_gpu_gb: float | None = None
    ttft_p95_s: float | None = Field(default=None, description="estimated p95 time to first token at the operating "
                                     "point (queueing + prefill + first token)")
    tpot_ms: float | None = Field(default=None, description="estimated mean time per output token at the operating batch")
    batch_per_replica: int | None = Field(default=None, description="operating batch per replica (Little's law)")


class Alternative(Choice):
    """A configuration that lost, and why in plain words."""

    why_not: str


class SloTargets(ReportPart):
    """The latency targets the sizing used and where each came from (docs/slo.md)."""

    streaming: bool
    ttft_target_s: float | None = None
    tpot_target_ms: float | None = None
    e2e_target_s: float | None = None
    tolerance: float = Field(description="a target counts as met within this share of the estimate")
    sources: dict[str, str] = {}


class Source(ReportPart):
    """Where a rule's knowledge comes from."""

    document: str
    section: str


class Finding(ReportPart):
    """One conclusion of a rule, explained in the chosen language."""

    rule_id: str
    category: str
    severity: Literal["info", "warning", "critical"]
    title: str
    explanation: str
    advice: str
    source: Source
    facts: dict[str, Any] = {}


class FiredRule(ReportPart):
    """One step of the forward-chaining trace."""

    rule_id: str
    matched: dict[str, Any]
    derived: list[dict[str, Any]]


class Report(ReportPart):
    """The full answer for a workload (advice) or an existing setup (audit)."""

    kind: Literal["advice", "audit"]
    lang: Literal["en", "de"]
    clarification: str
    memory: MemorySummary | None = None
    capacity: CapacitySummary | None = None
    slo: SloTargets | None = None
    recommendation: Choice | None = None
    alternatives: list[Alternative] = []
    nothing_fits: str | None = Field(default=None, description="why no configuration fits, if none does")
    document_recommendation: str | None = None
    sensitivity: list[str] = []
    findings: list[Finding] = []
    fired_rules: list[FiredRule] = []
