"""The setup file (input of `audit`): an existing deployment, as measured.

Field names follow `docs/contract.md`; fields beyond it are optional extensions that let the
audit check more of document 000's guidance (deployment length for T5, software for Q1/Q2).
"""


from typing import Literal

from pydantic import Field, ValidationInfo, field_validator, model_validator
from pydantic_core import PydanticCustomError

from expert.inputs.countries import country_code
from expert.inputs.workload import Engine, Input, Precision, Workload


class Storage(Input):
    """System storage feeding the GPUs."""

    type: Literal["nvme", "sata-ssd", "hdd", "network"] = "nvme"
    read_mb_s: float | None = Field(default=None, gt=0, le=1e6)


class Hosting(Input):
    """Where the servers are and who runs them."""

    country: str = Field(default="CH", min_length=2, max_length=2, description="ISO 3166 code")
    provider_seat: str | None = Field(default=None, min_length=2, max_length=2)
    certifications: list[str] = Field(default=[], max_length=50)

    @field_validator("country", "provider_seat")
    @classmethod
    def _country(cls, value: str | None) -> str | None:
        return country_code(value)


class Utilization(Input):
    """Measured GPU utilisation, 0..1."""

    mean: float = Field(ge=0, le=1)
    peak: float | None = Field(default=None, ge=0, le=1)
    day_night_swing: float | None = Field(default=None, ge=0, le=1,
                                          description="peak-hour minus night-hour utilisation")

    @field_validator("peak")
    @classmethod
    def _peak_not_below_mean(cls, value: float | None, info: ValidationInfo) -> float | None:
        mean = info.data.get("mean")
        if value is not None and mean is not None and value < mean:
            raise PydanticCustomError("peak_below_mean", "peak ({value}) is below mean ({mean}): the peak "
                                      "utilisation is at least the mean", {"value": value, "mean": mean})
        return value


class Placement(Input):
    """How one agent of a pool runs on the setup's GPUs (the shape of `advise`'s `pool_groups`);
    what is left out is the configurator's plan for that agent on this GPU."""

    precision: Precision | None = None
    tensor_parallel: int | None = Field(default=None, ge=1, le=64)
    replicas: int | None = Field(default=None, ge=1, le=4096)


class Setup(Input):
    """An existing deployment to audit."""

    name: str | None = Field(default=None, max_length=120)
    gpu: str = Field(description="catalog id (see `gpu-expert catalog gpus`)")
    count: int = Field(default=1, ge=1, le=4096)
    interconnect: Literal["nvlink", "pcie", "pcie-bridge"] | None = None
    servers: list[int] | None = Field(
        default=None, min_length=1, max_length=4096, description="GPUs per server (owned) or cloud instance "
        "(rented), one entry each: the failure domains a high_availability workload is checked against, each "
        "bought as its own system; they add up to count, each a whole number of replicas; default: one")
    ownership: Literal["rented", "owned"] = "rented"
    offer: str | None = Field(
        default=None, max_length=120, description="rented: the catalog offer the GPUs are rented at (`gpu-expert "
        "catalog offers`), which the audit prices; `advise --setup-out` writes its pick's; default: the GPU's "
        "default offer (the document's Swiss provider first)")
    condition: Literal["new", "used"] | None = Field(
        default=None, description="owned hardware: bought new or used (004 Frage 1); the audit prices the same "
                                  "system in that condition today where the catalog sells it; default: new, "
                                  "else used")
    site_country: str | None = Field(
        default=None, min_length=2, max_length=2, pattern=r"^[A-Za-z]{2}$",
        description="ISO 3166 code of the organisation's own site; the hosting country of owned hardware "
                    "when `hosting` is not given")
    cpu_cores: int | None = Field(default=None, ge=1, le=100_000)
    ram_gb: float | None = Field(default=None, gt=0, le=1e7)
    storage: Storage | None = None
    network_gbps: float | None = Field(default=None, gt=0, le=1e5)
    hosting: Hosting | None = None
    utilization: Utilization | None = None
    latency_p95_s: float | None = Field(default=None, gt=0, le=3600)
    tensor_parallel: int = Field(default=1, ge=1, le=64)
    monitoring: bool | None = None
    backups: bool | None = None
    deployment_months: int | None = Field(default=None, ge=1, le=240,
                                          description="how long the setup is planned to run (000 T5)")
    usage_pattern: Literal["steady", "fluctuating"] | None = None
    inference_engine: Literal["vllm", "tensorrt-llm", "sglang", "tgi", "transformers", "other"] | None = None
    engine: Engine | None = Field(default=None, description="serving engine whose memory budget applies; "
                                  "default: inference_engine where it is one of these, else the workload's")
    engine_version: str | None = Field(
        default=None, pattern=r"^v?\d+\.\d+", description="version of the serving engine as deployed, e.g. "
        "0.8.3: vLLM before 0.12 runs its engine loop synchronously, each decode step waiting for the host "
        "(docs/accuracy.md, 'Poisson rows'); default: a current release")
    precision: Precision | None = Field(default=None, description="precision the model is served in; "
                                        "default: the workload's")
    quantization_validated: bool | None = None
    training_gpus: Literal["serving", "separate"] = Field(
        default="serving", description="where the workload's fine-tuning runs: on these serving GPUs, or on "
                                       "separate GPUs rented per run or dedicated (docs/fine-tuning.md)")
    prefix_cache_hit_rate: float | None = Field(
        default=None, ge=0, le=1, description="measured share of prompt tokens served from the prefix cache "
                                              "(vLLM: prefix cache hits / queries), 0..1")
    routing: Literal["session-affinity", "prefix-aware", "round-robin", "least-loaded", "random"] | None = Field(
        default=None, description="how the router spreads requests over the replicas")
    placement: dict[str, Placement] | None = Field(
        default=None, description="a pool of agents (workload.agents): the agents these GPUs serve, each with "
                                  "its precision, tensor parallelism and replicas; default: all agents, each as "
                                  "the configurator would place it on this GPU (docs/agents.md)")
    workload: Workload | None = None

    @field_validator("site_country")
    @classmethod
    def _country(cls, value: str | None) -> str | None:
        return country_code(value)

    @field_validator("tensor_parallel")
    @classmethod
    def _tp_divides_count(cls, value: int, info: ValidationInfo) -> int:
        count = info.data.get("count")
        if count is not None and (value > count or count % value):
            raise PydanticCustomError(
                "tensor_parallel_count", "tensor_parallel {value} does not fit {count} GPUs: it must be at "
                "most count and divide it (replicas × tensor_parallel = count)", {"value": value, "count": count})
        return value

    @model_validator(mode="after")
    def _servers_hold_count(self) -> "Setup":
        if self.servers is None:
            return self
        if min(self.servers) < 1 or sum(self.servers) != self.count:
            raise ValueError(f"servers {self.servers} must be at least 1 GPU each and add up to count "
                             f"({self.count})")
        if any(g % self.tensor_parallel for g in self.servers):
            raise ValueError(f"servers {self.servers}: each must hold whole replicas of tensor_parallel "
                             f"{self.tensor_parallel} GPUs (a replica lives inside one server)")
        return self

    @model_validator(mode="after")
    def _offer_is_rented(self) -> "Setup":
        if self.offer is not None and self.ownership != "rented":
            raise ValueError("offer names a rent: leave it out for owned hardware (priced as its complete system)")
        return self

    @model_validator(mode="after")
    def _condition_is_owned(self) -> "Setup":
        if self.condition is not None and self.ownership != "owned":
            raise ValueError("condition (new | used) describes owned hardware: set ownership: owned, or leave "
                             "condition out for a rented setup")
        return self

    @model_validator(mode="after")
    def _placement_names_agents(self) -> "Setup":
        if self.placement is None:
            return self
        names = [a.name for a in self.workload.agents] if self.workload is not None else []
        if not names:
            raise ValueError("placement needs a workload with agents (a pool of models)")
        unknown = [n for n in self.placement if n not in names]
        if unknown:
            raise ValueError(f"placement.{unknown[0]}: no agent of that name (allowed: {', '.join(names)})")
        return self

    @property
    def running(self) -> bool:
        """True when the setup reports a measured utilisation or latency: it serves today."""
        return self.utilization is not None or self.latency_p95_s is not None

    @property
    def serving_engine(self) -> str:
        """The engine whose budget sizes this setup: `engine`, else a matching `inference_engine`,
        else the workload's, else vLLM."""
        if self.engine:
            return self.engine
        if self.inference_engine in ("vllm", "tensorrt-llm", "sglang", "transformers"):
            return self.inference_engine
        return self.workload.engine if self.workload is not None else "vllm"
