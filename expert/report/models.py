"""The report of `advise` and `audit`: the JSON shape of `docs/contract.md`, as pydantic models.

Field order here is the key order of the JSON output; floats are rounded where the report is built
(`expert.report.build`), so two runs on the same input give byte-identical JSON.
"""


from typing import Any, ClassVar, Literal

from pydantic import Field, model_serializer

from expert.report.parts import ReportPart
from expert.report.training import SetupTuningPlan, TrainingPlan


class _AuditOnly(ReportPart):
    """A part whose `AUDIT_ONLY` fields (and `WHEN_SET` fields: those that apply to some workloads only)
    are written only when set, so other reports keep their shape."""

    AUDIT_ONLY: ClassVar[tuple[str, ...]] = ()
    WHEN_SET: ClassVar[tuple[str, ...]] = ()

    @model_serializer(mode="wrap")
    def _drop_unset_audit_fields(self, handler):
        data = handler(self)
        for key in self.AUDIT_ONLY + self.WHEN_SET:
            if data.get(key) is None:
                data.pop(key, None)
        return data


class MemorySummary(_AuditOnly):
    """Memory of the recommended configuration (GB, decimal)."""

    weights_gb: float
    kv_cache_gb: float
    overhead_gb: float
    total_gb: float
    fine_tuning_gb: float | None = Field(default=None, description="one fine-tuning run's memory in all, over "
                                         "fine_tuning_gpus GPUs (model states sharded: per GPU = total / GPUs)")
    fine_tuning_gpus: int | None = Field(default=None, description="the GPUs fine_tuning_gb spans (the serving GPUs)")
    reserve_ratio: float | None = Field(default=None, description="free share of usable memory")
    growth_total_gb: float | None = None
    overhead_gpus: int | None = Field(default=None, description="GPUs whose overhead_gb (one GPU's activations and "
                                      "runtime) total_gb counts: total_gb = weights_gb + kv_cache_gb + overhead_gb × "
                                      "overhead_gpus + copies_gb; absent when 1 (or overhead_gb is already a sum)")
    copies_gb: float | None = Field(default=None, description="memory total_gb counts more than once: KV heads or an "
                                    "MLA latent copied on each GPU of a tensor-parallel group, attention weights "
                                    "replicated under data-parallel attention; absent when none")
    used_per_gpu_gb: float | None = Field(default=None, description="audit: memory one GPU holds at the peak "
                                          "(weights, KV cache of the peak's sequences, runtime)")
    usable_per_gpu_gb: float | None = Field(default=None, description="audit: what the serving engine holds of "
                                            "one GPU; reserve_ratio = 1 − used / usable")

    AUDIT_ONLY = ("used_per_gpu_gb", "usable_per_gpu_gb")
    WHEN_SET = ("overhead_gpus", "copies_gb")


class CapacitySummary(_AuditOnly):
    """Load and the capacity it needs (000 D3)."""

    average_rps: float
    peak_rps: float
    inference_time_s: float
    concurrent_inferences: float
    gpus_needed: int
    peak_basis: str | None = Field(default=None, description="how peak_rps was obtained: 'rate' (a rate is the "
                                   "load to size for), 'rate × peak_to_average' or 'daily volume × peak_to_average'; an agent: 'agent tasks × "
                                   "peak_to_average', 'agent batch' (no peak factor) or 'agent closed loop' (the "
                                   "users' rate at the fixed point is the peak)")
    peak_factor: float | None = Field(default=None, description="the factor from the given load to peak_rps")
    serving_capacity_rps: float | None = Field(default=None, description="audit: the most requests per second the "
                                               "setup serves within the latency targets (docs/slo.md)")
    load_ratio: float | None = Field(default=None, description="audit: peak_rps / serving_capacity_rps (over 1: "
                                     "the setup does not serve its peak)")

    rate_unit: Literal["steps/s"] | None = Field(
        default=None, description="an agent loop: average_rps, peak_rps and serving_capacity_rps count LLM steps "
                                  "per second (tasks × fan-out × steps), not requests; absent otherwise")

    worst_agent: str | None = Field(default=None, description="audit of a pool: the agent with the highest "
                                    "load ratio, whose serving_capacity_rps and load_ratio these are (the "
                                    "rates above are all placed agents' summed); absent otherwise")

    measured_utilization: float | None = Field(default=None, description="audit: the setup's measured mean "
                                               "utilisation (setup file `utilization.mean`); measurements win over "
                                               "the estimate")
    measured_latency_p95_s: float | None = Field(default=None, description="audit: the setup's measured p95 "
                                                 "latency (setup file `latency_p95_s`)")

    AUDIT_ONLY = ("serving_capacity_rps", "load_ratio", "measured_utilization", "measured_latency_p95_s")
    WHEN_SET: ClassVar[tuple[str, ...]] = ("rate_unit", "worst_agent")


class AgentSummary(_AuditOnly):
    """An agent loop at the recommended configuration (docs/agents.md): per step, per task, sessions,
    KV and cache; `defaults` names the source of every value the workload left out."""

    WHEN_SET: ClassVar[tuple[str, ...]] = ("attention",)

    kind: str
    steps_mean: float
    steps_p90: float
    tasks_per_day: float
    peak_tasks_per_s: float
    input_tokens_per_step: float = Field(description="mean tokens a step reads (its whole context)")
    prefill_tokens_per_step: float = Field(description="mean tokens a step prefills (not in the prefix cache)")
    output_tokens_per_step: int
    input_output_ratio: float
    max_context_tokens: int
    context_limit_tokens: int
    compactions_per_task: float
    cache_hit_rate: float = Field(description="share of input tokens served from the prefix cache")
    session_affinity: bool = Field(description="every step reaches the replica holding its cache: routed by "
                                   "affinity, or a single replica")
    cache_hit_rate_lost_to_retention: float = Field(default=0.0, description="hit rate lost because cached "
                                                    "prefixes expire during tool waits (cache_retention_s)")
    reasoning_tokens_per_step: int = 0
    reasoning_kept: bool = Field(default=True, description="earlier steps' reasoning is sent back (kept) or "
                                 "stripped by the chat template")
    fan_out: int = Field(default=1, description="sessions a task runs at once (sub-agents, parallel branches)")
    kv_during_tools: str
    ttft_step_s: float = Field(description="prefill of a step's uncached tokens + the server's time per "
                               "request, no queueing")
    ttft_step_uncached_s: float = Field(description="the same step without any prefix cache")
    step_latency_s: float
    tool_time_s: float
    final_step_latency_s: float | None = Field(default=None, description="the final, user-visible answer: "
                                               "its first words (p95 TTFT) when streamed with a final target, "
                                               "else the complete step (the mean step's shape)")
    batch: bool = Field(default=False, description="nobody waits for a task (agent.batch): no final answer line, "
                        "no peak factor unless stated")
    step_latency_target_s: float | None = Field(default=None, description="internal (tool-call) step target")
    final_latency_target_s: float | None = Field(default=None, description="final answer step target")
    task_latency_s: float = Field(description="steps × (step latency + tool time), mean steps")
    task_latency_p90_s: float
    tool_share: float
    sessions_peak: float = Field(description="live sessions at the peak (Little's law), the mean")
    sessions_p95: float | None = Field(default=None, description="p95 of the live sessions (Poisson: "
                                       "mean + 1.645·√mean); the GPU memory for tool-waiting sessions is sized "
                                       "for the p95 of each replica's share")
    sessions_on_gpu_peak: float
    kv_per_session_gb: float = Field(description="KV of one session beyond the shared prefix, at its mean context")
    kv_shared_gb: float = Field(default=0.0, description="KV of the prefix all sessions share (system prompt and "
                                "tool definitions) per replica, all its copies: once per replica by the prefix "
                                "cache, once on each GPU under DP attention or for an MLA latent under TP")
    kv_shared_copies: float = Field(default=1.0, description="copies of the shared prefix in one replica "
                                    "(kv_shared_gb / kv_shared_copies is one copy)")
    kv_session_copies: float = Field(default=1.0, description="copies of a session's KV in one replica (an MLA "
                                     "latent under TP attention: one per GPU)")
    replicas: int | None = Field(default=None, description="the pick's replicas: kv_sessions_p95_gb / replicas is "
                                 "one replica's KV, the memory section's KV cache where nothing is copied")
    kv_sessions_gb: float = Field(description="KV of the sessions on the GPUs at the peak, the mean (Little's "
                                  "law), shared prefixes and copies included (an MLA latent under TP attention: "
                                  "one per GPU)")
    kv_sessions_p95_gb: float | None = Field(default=None, description="KV the GPUs must hold: every replica at "
                                             "the p95 of its sessions (its share of the concurrent requests, at "
                                             "least its batch, plus the p95 of its tool-waiting sessions), shared "
                                             "prefixes and copies included; the memory section's KV per replica "
                                             "times the replicas")
    attention: Literal["tp", "dp"] | None = Field(
        default=None, description="MLA models: attention layout assumed, tp (tensor parallel, the latent on "
                                  "every GPU) or dp (data-parallel attention, each GPU holds its own sessions' "
                                  "latent)")
    kv_bound: bool = Field(description="KV residency, not compute, sets the configuration: offloading idle "
                                       "sessions' KV to CPU memory would allow a cheaper one")
    kv_waits: str = Field(default="gpu", description="where a session's KV waits during its tools: gpu | host | "
                          "dropped (issue 31 item 6)")
    host_kv_gb: float = Field(default=0.0, description="offloaded sessions' KV in host DRAM at the peak, GB")
    host_ram_gb: float | None = Field(default=None, description="host RAM of the pick: 000 M3's rule (4 × total "
                                      "VRAM) for owned servers and packages; null where a cloud offer states none")
    host_ram_exceeded: bool = Field(default=False, description="host_kv_gb above host_ram_gb")
    host_ram_basis: str = Field(default="not-stated", description="000-m3-rule | not-stated")
    host_link_gbs: float | None = Field(default=None, description="host-to-GPU PCIe rate per GPU and direction")
    pcie_generation: int | None = None
    host_link_reload_gbs: float = Field(default=0.0, description="reloads of offloaded KV per GPU at the peak, GB/s "
                                        "(offload writes move the same bytes the other way)")
    host_link_load: float = Field(default=0.0, description="host_link_reload_gbs over host_link_gbs")
    weights_load_s: float | None = Field(default=None, description="time to load one GPU's weights over the same "
                                         "link at start, s")
    replica_steps_max: float | None = Field(default=None, description="LLM steps/s one replica of the pick computes "
                                           "at most with a stable steady state (`load.rate_max`: prefill and "
                                           "decode of the steps, QA 44 D9)")
    replica_gpus: str | None = Field(default=None, description="one replica of the pick, e.g. '4× b300'")
    peak_steps_per_s: float | None = Field(default=None, description="LLM steps/s at the peak the search sized")
    utilization: float | None = Field(default=None, description="000 D3's utilisation: a replica carries at most "
                                      "this share of replica_steps_max")
    replicas_for_compute: int | None = Field(default=None, description="replicas the peak needs for compute alone: "
                                             "peak steps/s over utilization × replica_steps_max, rounded up; the "
                                             "pick has more where memory, the latency targets or availability ask")
    offload_gpu: str | None = None
    offload_count: int | None = None
    offload_peak_steps_per_s: float | None = Field(default=None, description="kv_bound: LLM steps/s at the peak the "
                                                   "offloaded optimum serves; a closed loop's users settle lower "
                                                   "there, an open workload's rate is peak_steps_per_s")
    offload_monthly_saving_chf: float | None = None
    cost_per_task_chf: float | None = None
    cost_per_1000_tasks_chf: float | None = None
    defaults: dict[str, str] = {}


class Choice(_AuditOnly):
    """One configuration: what to rent or buy, how many, and what it costs."""

    WHEN_SET: ClassVar[tuple[str, ...]] = ("attention", "failure_domains", "priced_elsewhere", "price_country",
                                           "kv_cache_precision", "rate_unit")

    gpu: str
    count: int
    source: Literal["cloud", "package", "purchase"]
    package: str | None = None
    offer: str | None = None
    provider: str | None = None
    country: str | None = Field(default=None, description="where the GPUs are (ISO 3166); an audited setup: its "
                                "hosting country (owned: else its site_country), not its price's")
    priced_elsewhere: bool | None = Field(
        default=None, description="an audited setup priced at an offer (`offer`, `provider`) that is not where "
                                  "the setup is, or whose location is unknown, or an owned setup priced at a rent "
                                  "(no purchase of its count in the catalog): true; absent otherwise")
    price_country: str | None = Field(
        default=None, description="with priced_elsewhere: that offer's country (ISO 3166), e.g. CH for a "
                                  "US-hosted setup priced at the Swiss provider's rent; absent where unknown")
    precision: str
    interconnect: str
    tensor_parallel: int = 1
    replicas: int = 1
    attention: Literal["tp", "dp"] | None = Field(
        default=None, description="MLA models: attention layout assumed, tp (latent copied on every GPU of a "
                                  "replica) or dp (data-parallel attention: each GPU holds its own requests' "
                                  "latent, experts sharded; SGLang --enable-dp-attention, vLLM DP+EP)")
    failure_domains: list[str] | None = Field(
        default=None, description="high_availability: the servers (bought) or cloud instances the replicas are "
                                  "spread over, N+1 over at least two, one line each")
    monthly_cost_chf: float
    tco_chf: float
    horizon_months: int
    fits: bool
    headroom: float | None = None
    latency_p95_s: float | None = Field(default=None, description="estimated end-to-end latency at the operating "
                                        "point: p95 TTFT + (output − 1) × TPOT")
    memory_per_gpu_gb: float | None = None
    usable_per_gpu_gb: float | None = None
    upfront_chf: float | None = Field(default=None, description="paid up front (the complete system's price) "
                                                                 "for bought hardware; none for rentals")
    resale_chf: float | None = Field(default=None, description="net resale at the end of the horizon (000 T5)")
    chassis: str | None = Field(default=None, description="chassis class of a bought system (packages.yaml)")
    system_power_w: float | None = Field(default=None, description="server power of a bought system, W")
    ttft_p95_s: float | None = Field(default=None, description="estimated p95 time to first token at the operating "
                                     "point (queueing + prefill + first token)")
    tpot_ms: float | None = Field(default=None, description="estimated mean time per output token at the operating batch")
    batch_per_replica: int | None = Field(default=None, description="operating batch per replica (Little's law)")
    tpot_rate_rps: float | None = Field(default=None, description="arrival rate per replica at the peak that "
                                        "ttft_p95_s and tpot_ms are for (the continuous-batching steady state, "
                                        "docs/slo.md)")
    tpot_batch: float | None = Field(default=None, description="sequences decoding in that steady state")
    rate_unit: Literal["steps/s"] | None = Field(
        default=None, description="an agent loop: tpot_rate_rps counts LLM steps per second (tasks × fan-out × "
                                  "steps), not requests; absent otherwise")
    kernel: str | None = Field(default=None, description="the quantised kernel family the speed assumes "
                               "(expert/sizing/kernels.py: W8A8 INT8/FP8, W8A16/W4A16 Marlin weight-only, MXFP4 "
                               "FP4 tensor-core); none for 16-bit and FP32")
    kv_cache_precision: str | None = Field(default=None, description="the precision the KV cache of this "
                                           "configuration is sized and read in: the stated kv_cache_precision, "
                                           "else its weights' default (fp8 weights cache in FP8, 16-bit and "
                                           "weight-only int8/int4/mxfp4 in 16 bits)")


class AuditedSetup(Choice):
    """An audited setup as a configuration: a `Choice` whose price may be unknown (the catalog prices no
    offer and no system of its GPU, e.g. Gaudi2 or an A100 40 GB PCIe): then `source`, `monthly_cost_chf`
    and `tco_chf` are null and no saving is stated."""

    source: Literal["cloud", "package", "purchase"] | None = Field(
        description="where the price comes from; null: the catalog has no price for this GPU")
    monthly_cost_chf: float | None = Field(description="null: the catalog has no price for this GPU")
    tco_chf: float | None = Field(description="null: the catalog has no price for this GPU")


class AuditOptimum(ReportPart):
    """An audit's comparison (docs/contract.md): the setup priced as the configurator prices, the
    configurator's optimum for the same workload and targets, and what the optimum saves."""

    setup: AuditedSetup = Field(description="the audited setup: its price (rented: its GPU's default offer; owned: "
                                "the same system bought today; null where the catalog prices none of its GPU) "
                                "and its estimated serving figures at the peak")
    meets_targets: bool | None = Field(default=None, description="the model fits (a pool: its replicas fit its "
                                       "GPUs), the estimated TTFT/TPOT at the peak meet the latency targets and "
                                       "the setup serves the peak; none when not estimated")
    missed: Literal["memory", "peak", "availability", "latency"] | None = Field(
        default=None, description="where meets_targets is false, what the setup misses first: memory (the model "
        "or a pool's replicas do not fit), peak (it serves less than the peak), availability (high_availability: "
        "after its largest server or instance fails, the rest hold fewer replicas than the peak needs, or it "
        "has one) or latency (the estimated "
        "TTFT/TPOT at the peak exceed the targets beyond their tolerance, or the measured p95 latency exceeds "
        "the target it measures)")
    optimum: Choice | None = Field(default=None, description="the configurator's recommendation for the same "
                                   "workload; none when nothing fits or a pool group is audited")
    is_optimum: bool = False
    residency: Literal["ch", "eu", "known"] | None = Field(
        default=None, description="the residency filter the optimum was searched with, from where the setup is "
        "(a workload with hosting any): ch and eu as `hosting`, known: offers of a known server location only")
    reason: Literal["targets", "vendor", "grade", "source", "options", "offer", "constraint", "costlier",
                    "near_tie", "pool", "other"] | None = Field(
        default=None, description="why the optimum is not this setup though it costs more (docs/contract.md); "
        "none when it saves or is this setup")
    saving_chf_month: float = 0.0
    saving_chf_horizon: float = 0.0
    saving_share: float = Field(default=0.0, description="saving_chf_month / the setup's monthly cost")
    summary: str = Field(default="", description="the comparison in one sentence, in the report's language")


class GrowthCheck(ReportPart):
    """The model expected in 12-18 months on the same GPUs at the same load (000 M5; `flows/growth.py`)."""

    params_b: float
    tensor_parallel: int
    total_gb: float
    used_per_gpu_gb: float
    usable_per_gpu_gb: float
    fits: bool = Field(description="one sequence of the grown model fits the engine's budget")
    serving_capacity_rps: float | None = None
    peak_rps: float | None = None
    load_ratio: float | None = Field(default=None, description="peak_rps / serving_capacity_rps (over 1: the "
                                     "grown model does not serve today's peak within the targets)")
    ttft_p95_s: float | None = None
    tpot_ms: float | None = None
    measured_basis: float | None = Field(default=None, description="audit of a running setup: the measured "
                                         "utilisation (peak, else mean) that load_ratio scales by today's "
                                         "model's capacity over the grown model's")
    summary: str = ""


class Alternative(Choice):
    """A configuration that lost, and why in plain words."""

    WHEN_SET: ClassVar[tuple[str, ...]] = Choice.WHEN_SET + ("pool_groups",)

    why_not: str
    pool_groups: list[str] | None = Field(default=None, description="a pool of agents of several GPU groups: each group "
                                   "('1× l40s'); gpu and count are the first group's, the cost the whole pool's")


class SloTargets(ReportPart):
    """The latency targets the sizing used and where each came from (docs/slo.md)."""

    streaming: bool
    ttft_target_s: float | None = None
    tpot_target_ms: float | None = None
    e2e_target_s: float | None = None
    tolerance: float = Field(description="a target counts as met up to this share above it (0.1: an estimate up to 1.1 × the target)")
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


class AgentPlacement(ReportPart):
    """How one agent of a pool runs: the same shape as a setup's `placement` entry."""

    precision: str
    tensor_parallel: int
    replicas: int


class PoolGroup(ReportPart):
    """One group of GPUs of a recommended pool and the agents it serves (000 U4, R3, T3)."""

    gpu: str
    offer: str = Field(description="the offer, package or purchase the GPUs come from")
    count: int
    role: Literal["serve+train", "inference", "train"]
    agents: dict[str, AgentPlacement] = Field(default={}, description="agent name → its placement")


class PoolRun(ReportPart):
    """Where one fine-tuned agent of a recommended pool trains, and what its runs cost (issue 33)."""

    agent: str
    where: Literal["idle", "around", "rented", "none"] = Field(description="idle: the serving GPUs' idle nights; "
                                                               "around: a train-only group around the clock; "
                                                               "rented: GPUs rented for the run's hours; none: nowhere")
    gpu: str
    count: int
    provider: str | None = None
    rented_because: Literal["memory", "time", "saving"] | None = Field(
        default=None, description="rented: the job does not fit the pool's GPUs, would outlast its period there, "
                                  "or the pool's idle nights would not save the minimum per night against renting")
    hours_per_run: float
    memory_per_gpu_gb: float
    nights_per_run: int = Field(default=0, description="idle: nights of degraded service per run")
    nights_per_month: float = 0.0
    degraded_chf_per_run: float = Field(default=0.0, description="idle: the serving capacity the nights hold, at "
                                        "the group's own cost per GPU-hour (not in the TCO)")
    rented_chf_per_run: float = 0.0
    checkpoint_gb: float = Field(description="one resumable checkpoint (adapters only for LoRA/QLoRA)")


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
    agent: AgentSummary | None = None
    findings: list[Finding] = []
    fired_rules: list[FiredRule] = []
    pool: list[str] = Field(default=[], description="a pool of agents: its groups, cost lines and comparisons")
    pool_groups: list[PoolGroup] = Field(
        default=[], description="a pool of agents: each group's GPUs and the agents it serves (audit each "
                                "serving group as a setup with this `placement`)")
    pool_runs: list[PoolRun] = Field(default=[], description="a pool of agents: each fine-tuned agent's runs, "
                                     "where they go and what they cost")
    training_plan: TrainingPlan | None = Field(
        default=None, description="the fine-tuning job and where its GPUs come from (advice with fine-tuning)")
    near_tie: str | None = Field(default=None, description="advice: the pick is not the cheapest but won the "
                                 "near-tie band (fewer GPUs or the faster answer within 2 % of the cheapest's "
                                 "horizon cost): why, in the report's language (written only then)")
    growth: GrowthCheck | None = Field(default=None, description="the expected model (growth_params_b) on the "
                                       "recommended or audited GPUs at the same load (written only with a "
                                       "stated growth)")
    audit: AuditOptimum | None = Field(default=None, description="audit: the setup's cost and serving figures "
                                       "against the configurator's optimum (written only in audits)")
    fine_tuning_plan: SetupTuningPlan | None = Field(
        default=None, description="audit of a single-model setup whose workload fine-tunes: the job on its own "
                                  "GPUs, CPU offload's host RAM against the server's, where the runs could go and "
                                  "the checkpoints (written only then)")
    fine_tuning_plans: list[SetupTuningPlan] = Field(
        default=[], description="audit of a pool of agents: one fine_tuning_plan per agent that fine-tunes, on "
                                "all of the setup's GPUs at their idle hours, with its `agent` (written only then)")
    quantised_alternatives: list[Alternative] = Field(
        default=[], description="the workload states its precision, which the recommendation keeps: the "
                                "cheaper quantised configurations (fp8, int8; int4 with allow_int4), each with "
                                "its saving and 000 Q2's quality note in why_not (docs/configurator.md)")

    @model_serializer(mode="wrap")
    def _drop_empty_quantised(self, handler):
        """`quantised_alternatives` is written only when there are some (a stated precision that quantising
        would undercut), so reports without them keep their shape."""
        data = handler(self)
        for key in ("quantised_alternatives", "fine_tuning_plans"):
            if not data.get(key):
                data.pop(key, None)
        for key in ("audit", "near_tie", "growth", "fine_tuning_plan"):
            if data.get(key) is None:
                data.pop(key, None)
        return data
