"""The workload file (input of `advise`): document 000's clarification sentence plus sizing inputs.

Field names follow `docs/contract.md`. Every field but the model is optional; each default is
documented here, in the generated JSON Schema, and cites where it comes from.
"""


from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator, model_validator
from pydantic_core import PydanticCustomError

from expert.catalog.models import WeightFormat
from expert.inputs.agent_block import AgentLoop
from expert.inputs.countries import country_code
from expert.inputs.request_fit import context_too_small

Precision = WeightFormat  # fp32, bf16, fp16, fp8, int8, int4, mxfp4 (expert/sizing/weight_format.py)
KvPrecision = Literal["fp32", "bf16", "fp16", "fp8", "int8", "int4"]
Engine = Literal["vllm", "tensorrt-llm", "sglang", "llama.cpp", "transformers"]  # expert/sizing/engines.py
Frequency = Literal["none", "yearly", "quarterly", "monthly", "weekly"]
FineTuneMethod = Literal["full", "lora", "qlora"]

RUNS_PER_YEAR: dict[str, int] = {"none": 0, "yearly": 1, "quarterly": 4, "monthly": 12, "weekly": 52}


class Input(BaseModel):
    """Base for user-written files: unknown fields are rejected, and types are strict — `true` or
    "12" is not a number — exactly as the shipped JSON Schemas say."""

    model_config = ConfigDict(extra="forbid", strict=True, defer_build=True)


class FineTuning(Input):
    """How often and how the model is fine-tuned."""

    frequency: Frequency = "none"
    method: FineTuneMethod = Field(
        default="lora",
        description="Default lora: the documents' cases (13B monthly on one A100 80 GB, 000 M2) "
                    "only fit one GPU with parameter-efficient tuning.")
    dataset_tokens: int | None = Field(
        default=None, gt=0, le=10**13,
        description="Tokens per fine-tuning run (one epoch). Default 100 M, an assumption shown in the "
                    "answer with its band 10 M-415 M; 415 M is what 000 M2's '48 h on one A100' implies "
                    "for a 13B LoRA run (see docs/fine-tuning.md).")
    epochs: float = Field(default=1.0, gt=0, le=100)
    team_waits: bool = Field(
        default=False,
        description="Opt-in: the team waits for each run's result (000 M2 counts compute hours × team "
                    "rate). Counted as attended hours only (8 per calendar day of the run); "
                    "team_hourly_rate_chf 0 drops it.")
    idle_hours_per_day: float = Field(
        default=8.0, ge=0, le=24,
        description="Hours a day the serving GPUs are idle enough to train (nights); 0 = never train "
                    "on the serving GPUs.")

    @property
    def runs_per_year(self) -> int:
        """Fine-tuning runs per year."""
        return RUNS_PER_YEAR[self.frequency]

    @property
    def enabled(self) -> bool:
        """True when the model is fine-tuned at all."""
        return self.frequency != "none"


class Agent(Input):
    """One agent of a multi-agent workload sharing infrastructure (000 U4, T3)."""

    name: str = Field(min_length=1, max_length=80)
    model: str | None = None
    params_b: float | None = Field(default=None, gt=0, le=2000)
    requests_per_day: float | None = Field(default=None, ge=0, le=1e10)
    fine_tuning: FineTuning | Frequency = "none"

    @model_validator(mode="after")
    def _model_or_size(self) -> "Agent":
        if self.model is None and self.params_b is None:
            raise ValueError("give either model or params_b")
        return self


class Workload(Input):
    """A workload to size: what the agent runs, how much, how fast, with which data."""

    name: str | None = Field(default=None, max_length=120)
    model: str | None = Field(default=None, description="catalog id or alias (see `gpu-expert catalog models`), "
                              "or a Hugging Face config.json, its folder, or a Hugging Face id in the local cache")
    params_b: float | None = Field(default=None, gt=0, le=2000, description="billions of parameters")
    precision: Precision = Field(
        default="fp16",
        description="precision of the weights. Stated, the pick keeps it (a validated checkpoint, a quality "
                    "sign-off) and cheaper quantised options are shown beside it; omitted, the precision is "
                    "open: 16-bit (fp16) is the baseline and the configurator may quantise (fp8, int8; int4 with "
                    "allow_int4), 000 Q2 (docs/configurator.md)")
    engine: Engine = Field(default="vllm", description="serving engine whose memory budget applies "
                           "(docs/engines.md)")
    kv_cache_precision: KvPrecision | None = Field(
        default=None, description="KV cache precision; default: the weights' for 16-bit and fp8, fp16 for "
        "int8/int4 (weight-only)")
    requests_per_day: float | None = Field(default=None, ge=0, le=1e10)
    requests_per_second: float | None = Field(default=None, ge=0, le=1e6)
    peak_to_average: float = Field(default=3.0, ge=1, le=100,
                                   description="peak load over the daily average (llm-d Planner uses 1.5-2.5 "
                                               "over an 8-hour day; 3 over 24 h is the same order); applies to "
                                               "requests_per_day; a requests_per_second rate is the load to size "
                                               "for unless this is set explicitly (docs/slo.md)")
    latency_target_s: float | None = Field(
        default=None, gt=0, le=3600,
        description="latency target, s: the first words (p95 time to first token, queueing included) when "
                    "`streaming`, the complete answer (end to end) when not or when the answer is short "
                    "(output_tokens <= 32). Without it a streamed answer "
                    "gets 000 U1's 'under 2 s' as TTFT (docs/slo.md)")
    ttft_target_s: float | None = Field(
        default=None, gt=0, le=3600,
        description="p95 time to first token, s (queueing + prefill + first token); default "
                    "latency_target_s when streaming, else 2 s for a streamed answer (000 U1, docs/slo.md)")
    tpot_target_ms: float | None = Field(
        default=None, gt=0, le=60_000,
        description="mean time per output token of a request, ms; default 150 (reading speed, MLPerf "
                    "conversational 100-200 ms) or 40 with a TTFT target of 0.5 s or less (MLPerf "
                    "interactive 30-40 ms, 000 G5); docs/slo.md")
    streaming: bool = Field(
        default=True, description="the answer is read as it streams (chat); false: consumed whole (an "
                                  "agent step, a batch job), so latency_target_s is end to end")
    prompt_tokens: int = Field(default=1500, ge=1, le=2_000_000)
    output_tokens: int = Field(default=250, ge=1, le=200_000)
    prompt_cv: float = Field(default=0.0, ge=0, le=10,
                             description="how much the prompts' lengths vary, std / mean (0: every prompt "
                                         "prompt_tokens long; ShareGPT's chat prompts 1.1): prompts queue for the "
                                         "prefill longer, × (1 + CV_S²) (M/G/1, docs/slo.md)")
    context_tokens: int | None = Field(default=None, ge=1, le=10_000_000,
                                       description="per sequence as configured; default prompt + output")
    concurrency: int | None = Field(default=None, ge=1, le=100_000,
                                    description="concurrent sequences to hold; default from capacity (D3)")
    inference_time_s: float | None = Field(default=None, gt=0, le=3600)
    target_utilization: float = Field(default=0.7, gt=0, le=1, description="000 D3 example: 70 %")
    fine_tuning: FineTuning | Frequency = "none"
    data: Literal["sensitive", "non_sensitive"] = "non_sensitive"
    sector: Literal["finance", "health", "public", "other"] = "other"
    hosting: Literal["ch", "eu", "any"] = "any"
    deployment: Literal["cloud", "on_premise", "any"] = "any"
    budget: Literal["opex", "capex", "any"] = Field(
        default="opex", description="opex rents, capex buys, any compares both and takes the cheaper (000 T5: "
                                    "under 18 months a workload free to choose rents)")
    site_country: str | None = Field(
        default=None, min_length=2, max_length=2, pattern=r"^[A-Za-z]{2}$",
        description="ISO 3166 code of the organisation's own site, where bought hardware stands")
    budget_limit_chf: float | None = Field(default=None, gt=0, le=1e10,
                                           description="most you will spend over the horizon")
    horizon_months: int = Field(default=36, ge=1, le=240, description="000 T1: 36 months")
    growth_params_b: float | None = Field(default=None, gt=0, le=2000,
                                          description="expected model size in 12-18 months (000 M5)")
    team_hourly_rate_chf: float = Field(default=150, ge=0, le=10_000, description="000 U2: 150 CHF/h")
    critical: bool = Field(default=True, description="critical production (excludes consumer GPUs, 000 G11)")
    high_availability: bool = Field(
        default=False, description="000 R3: the agent must keep serving when one GPU fails (a highly available "
                                   "agent runs on 2-4 identical GPUs with load balancing)")
    allow_int4: bool = Field(default=False, description="int4 needs case-by-case validation (000 Q2)")
    allow_quantization: bool | None = Field(
        default=None,
        description="true: the configurator may run the model at the stated precision or a quantised one "
                    "below it (fp8, int8; int4 with allow_int4); false: it keeps the precision (fp16 when none "
                    "is stated). Default: false when precision is stated, true when it is omitted (000 Q2: "
                    "INT8 usually < 3 % quality loss, INT4 5-8 % and validated case by case)")
    allow_consumer_gpus: bool = False
    allow_non_nvidia: bool = Field(
        default=False, description="consider AMD and Intel GPUs: 000 D4 asks for framework compatibility "
                                   "and G12 calls ROCm less mature than CUDA and Gaudi little adopted")
    agents: list[Agent] = Field(default=[], max_length=50)
    agent: AgentLoop | None = Field(default=None, description="an agent running a multi-step tool loop "
                                    "(docs/agents.md); requests_per_day then counts tasks")

    @field_validator("site_country")
    @classmethod
    def _country(cls, value: str | None) -> str | None:
        return country_code(value)

    @field_validator("context_tokens")
    @classmethod
    def _holds_a_request(cls, value: int | None, info: ValidationInfo) -> int | None:
        prompt, output = info.data.get("prompt_tokens"), info.data.get("output_tokens")
        if value is not None and prompt is not None and output is not None:
            refusal = context_too_small(prompt, output, value)
            if refusal:
                raise PydanticCustomError("context_too_small", refusal)
        return value

    @model_validator(mode="after")
    def _check(self) -> "Workload":
        if self.model is None and self.params_b is None and not self.agents:
            raise ValueError("give the model (catalog id) or params_b")
        if self.model is not None and self.params_b is not None:
            raise ValueError("give either model or params_b, not both")
        if self.requests_per_day is not None and self.requests_per_second is not None:
            raise ValueError("give either requests_per_day or requests_per_second, not both")
        if self.agent is not None and self.agents:
            raise ValueError("agent (one agent's tool loop) and agents (a pool of models) cannot be combined")
        if self.agent is not None and self.agent.tasks_per_day is not None and (
                self.requests_per_day is not None or self.requests_per_second is not None):
            raise ValueError("give the volume once: agent.tasks_per_day or requests_per_day/requests_per_second")
        return self

    @property
    def tuning(self) -> FineTuning:
        """The fine-tuning settings, normalising the short form ('monthly')."""
        return _settings(self.fine_tuning)

    @property
    def most_frequent_tuning(self) -> FineTuning:
        """The most frequent fine-tuning of the workload or any of its agents (multi-agent pools)."""
        tunings = [self.tuning] + [_settings(a.fine_tuning) for a in self.agents]
        return max(tunings, key=lambda t: t.runs_per_year)

    @property
    def average_rps(self) -> float:
        """Average requests per second over the day (0 when no volume is given)."""
        if self.requests_per_second is not None:
            return self.requests_per_second
        return (self.requests_per_day or 0.0) / 86_400

    @property
    def latency_limit_s(self) -> float:
        """The latency target as given, or one hour (no constraint) when none is given. The sizing
        uses `expert.inputs.slo.targets` (TTFT, TPOT, end to end) instead."""
        return self.latency_target_s if self.latency_target_s is not None else 3600.0

    @property
    def precision_stated(self) -> bool:
        """True when the workload names its precision (`precision:` given, not the default)."""
        return "precision" in self.model_fields_set

    @property
    def precision_open(self) -> bool:
        """True when the configurator may quantise below `precision` (`allow_quantization`, by default
        true exactly when no precision is stated)."""
        if self.allow_quantization is not None:
            return self.allow_quantization
        return not self.precision_stated

    def at_native(self, native: str | None) -> "Workload":
        """This workload at a model's native weight format (`LlmModel.native_precision`) when it states
        no precision; the precision stays open exactly when it was (`weight_format`). A stated precision
        is kept: the native format never overrides it."""
        if native is None or self.precision_stated or self.precision == native:
            return self
        return self.model_copy(update={"precision": native, "allow_quantization": self.precision_open})

    @property
    def kv_precision(self) -> str:
        """The KV cache precision in effect at the workload's own precision (`kv_precision_at`)."""
        return self.kv_precision_at(self.precision)

    def kv_precision_at(self, precision: str) -> str:
        """The KV cache precision of a configuration of this workload whose weights are in `precision`
        (`expert.sizing.memory.kv_precision_at`)."""
        from expert.sizing.memory import kv_precision_at  # lazily: see `_default_kv_precision`

        return kv_precision_at(precision, self.kv_cache_precision)

    @property
    def peak_factor(self) -> float:
        """The factor from the given load to the load to size for: a rate per second is that load
        (factor 1) unless `peak_to_average` is set explicitly; a daily volume gets `peak_to_average`."""
        if self.requests_per_second is not None and "peak_to_average" not in self.model_fields_set:
            return 1.0
        return self.peak_to_average

    @property
    def peak_rps(self) -> float:
        """Requests per second to size for (`peak_factor` × the given load)."""
        return self.average_rps * self.peak_factor

    @property
    def context(self) -> int:
        """Tokens per sequence as configured (prompt + output when not given)."""
        return self.context_tokens or (self.prompt_tokens + self.output_tokens)


def _settings(fine_tuning: FineTuning | str) -> FineTuning:
    """Fine-tuning settings, the short form ('monthly') as `FineTuning(frequency=...)`: a new object
    each time, since `FineTuning` is not frozen and a caller may change what it gets."""
    return FineTuning(frequency=fine_tuning) if isinstance(fine_tuning, str) else fine_tuning


def _default_kv_precision(precision: str) -> str:
    """`expert.sizing.memory.default_kv_precision`, imported on the first call: importing the sizing core
    with this module would load it for every reader of a workload file."""
    from expert.sizing.memory import default_kv_precision

    return default_kv_precision(precision)
