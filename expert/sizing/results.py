"""Typed results of the sizing core, each carrying its provenance (formula and sources per field).

Field names of `MemoryFields` and `Performance` are those of the CONTRACT `estimate` JSON; those of
`CostResult` the CONTRACT `cost` JSON. Single numbers are point values; where a range entered the
computation (a `Band` constant) the result also has `bands[field] = Band(low, high)`. Memory is in
decimal GB, times in seconds or hours as named, money in CHF.
"""


from typing import Literal, Union

from pydantic import BaseModel, ConfigDict, Field

from expert.catalog.models import Band

Mode = Literal["inference", "full", "lora", "qlora"]


class Provenance(BaseModel):
    """How one field was computed: the formula and the sources of its constants."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)
    formula: str
    sources: list[str] = []


class SizingResult(BaseModel):
    """Base of every result: immutable, with `provenance` per field and `bands` where ranges entered."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)
    provenance: dict[str, Provenance] = {}
    bands: dict[str, Band] = {}


class MemoryFields(SizingResult):
    """The CONTRACT `estimate.memory` fields (GB); per-GPU figures are for one GPU of one replica."""

    weights_gb: float
    kv_cache_gb: float
    activation_gb: float
    overhead_gb: float
    optimizer_gb: float = 0.0
    gradients_gb: float = 0.0
    total_gb: float
    per_gpu_gb: float
    usable_per_gpu_gb: float
    fits: bool

    def contract(self) -> dict:
        """Exactly the CONTRACT `estimate.memory` keys, in CONTRACT order."""
        keys = ("weights_gb", "kv_cache_gb", "activation_gb", "overhead_gb", "optimizer_gb", "gradients_gb",
                "total_gb", "per_gpu_gb", "usable_per_gpu_gb", "fits")
        return {k: getattr(self, k) for k in keys}


class InferenceMemory(MemoryFields):
    """Serving memory of one replica (a tensor-parallel group); `total_gb` = per-GPU × TP."""

    kind: Literal["inference"] = "inference"
    precision: str
    tensor_parallel: int
    replicas: int
    context_tokens: int
    sequences: int = Field(description="concurrent sequences held per replica")
    weights_per_gpu_gb: float
    kv_cache_per_gpu_gb: float
    kv_replication: float = Field(description="≥ 1: KV heads copied when kv_heads < TP")
    headroom_gb: float = Field(description="usable − needed, per GPU (negative: does not fit)")
    headroom_ratio: float = Field(description="headroom / usable")
    engine: str = Field(default="vllm", description="serving engine whose budget rule sized the KV pool")
    kv_precision: str = Field(default="fp16", description="precision of the KV cache")
    device_memory_gb: float = Field(default=0.0, description="memory the driver reports per GPU")
    kv_pool_per_gpu_gb: float = Field(default=0.0, description="KV memory the engine allocates per GPU "
                                      "(negative: the engine does not start)")
    attention: Literal["tp", "dp"] | None = Field(default=None, description="MLA models: the attention layout "
                                                  "assumed, tp (every latent on every GPU) or dp (data-parallel "
                                                  "attention: each session's latent once); null otherwise")


class FineTuneMemory(MemoryFields):
    """Training memory of one run; model states are sharded over `count` GPUs (ZeRO-3/FSDP)."""

    kind: Literal["finetune"] = "finetune"
    method: Literal["full", "lora", "qlora"]
    count: int
    trainable_params: float
    seq_len: int
    micro_batch: int
    gradient_checkpointing: bool
    flash_attention: bool
    inference_reference_gb: float = Field(description="16-bit weights, the D1 'inference memory'")
    document_rule_gb: Band = Field(description="000 D2: 3-4 × inference memory")
    ratio_to_inference: float


class Performance(SizingResult):
    """Serving speed of the whole configuration (CONTRACT `estimate.performance` plus detail)."""

    ttft_s: float
    tpot_s: float
    decode_tokens_per_s_per_sequence: float
    throughput_tokens_per_s: float
    bound: Literal["memory", "compute"]
    tensor_parallel_efficiency: float
    e2e_latency_s: float
    prefill_s: float = Field(description="prefill of the whole batch (used for throughput)")
    memory_time_s: float = Field(description="decode step, memory part, per GPU before TP efficiency")
    compute_time_s: float = Field(description="decode step, compute part, per GPU before TP efficiency")
    bandwidth_limit_tokens_per_s: float = Field(description="bandwidth / weight bytes read per GPU")
    batch: int
    tensor_parallel: int
    replicas: int
    interconnect: str
    compute_tflops: float
    kernel: str | None = Field(default=None, description="the quantised kernel family assumed "
                               "(expert/sizing/kernels.py); none for 16-bit and FP32")
    step_floor_s: float = Field(default=0.0, description="least time of one step: kernel launches and "
                                "all-reduces (a decode step never takes less)")
    binds: Literal["memory", "compute", "step_floor"] | None = Field(
        default=None, description="what sets the decode step's time: `bound`'s roofline, or the step floor when "
                                  "it is longer (the kernel launches, not the bandwidth, set tpot_s; QA 44 D13)")
    tpot_interleaved_s: float = Field(default=0.0, description="TPOT under continuous batching at steady "
                                      "state: a decode step plus the prefills of the requests that arrive "
                                      "meanwhile; since issue 22 equal to tpot_steady_s")
    tpot_steady_s: float = Field(default=0.0, description="TPOT (= ITL) under continuous batching with `batch` "
                                 "requests in flight (closed loop, expert/sizing/load.py): each step carries "
                                 "the chunked prefill of arrivals; tpot_s is the decode step alone")
    ttft_steady_s: float = Field(default=0.0, description="mean TTFT in that steady state (queueing + chunked "
                                 "prefill)")
    ttft_steady_p95_s: float = Field(default=0.0, description="p95 TTFT in that steady state")
    admission_wait_s: float = Field(default=0.0, description="mean wait for a free KV slot in that steady state, "
                                    "included in both TTFTs (an open loop whose KV pool binds: M/D/c, "
                                    "expert/sizing/admission.py)")
    steady_rate_rps: float = Field(default=0.0, description="arrival rate per replica of that steady state")
    steady_batch: float = Field(default=0.0, description="sequences decoding in that steady state")
    prefill_share: float = Field(default=0.0, description="share of each step the prefill of arrivals takes")
    rate_max_rps: float = Field(default=0.0, description="largest arrival rate per replica with a stable "
                                "steady state (prefill, KV pool)")
    regime: str = Field(default="", description="which steady state the *_steady_* figures are for")
    operating_point: bool = Field(default=True, description="false where the configuration has none (QA 45 "
                                  "#9): no room for a sequence, or --batch above the room; the steady fields are "
                                  "then -1 and `regime` says why")

    def contract(self) -> dict:
        """Exactly the CONTRACT `estimate.performance` keys, in CONTRACT order."""
        keys = ("ttft_s", "tpot_s", "decode_tokens_per_s_per_sequence", "throughput_tokens_per_s", "bound",
                "tensor_parallel_efficiency")
        return {k: getattr(self, k) for k in keys}


class Capacity(SizingResult):
    """Load → concurrency → replicas and GPUs (000 D3)."""

    average_rps: float
    peak_rps: float
    inference_time_s: float
    concurrent_inferences: float = Field(description="D3: rps × inference time / target utilisation")
    concurrent_inferences_rounded: int = Field(description="as the document rounds (57.1 → 57)")
    target_utilization: float
    sequences_per_replica: int
    sequences_per_replica_memory: int | None = None
    sequences_per_replica_latency: int | None = None
    tensor_parallel: int
    replicas_needed: int | None = Field(description="None when not even one sequence fits")
    gpus_needed: int | None
    count: int | None = None
    utilization: float | None = Field(default=None, description="peak utilisation at `count` GPUs")
    average_utilization: float | None = None
    latency_met: bool | None = Field(default=None, description="end-to-end latency within the target")


class FineTuneRun(SizingResult):
    """Duration of one fine-tuning run and its team-time cost."""

    method: Literal["full", "lora", "qlora"]
    params_b: float
    gpu: str
    count: int
    dataset_tokens: float
    epochs: float
    flops_per_param_token: float
    total_flops: float
    efficiency: float = Field(description="effective MFU on this GPU")
    relative_efficiency: float = Field(description="efficiency / reference (A100 80 GB SXM) MFU")
    hours: float
    days: float
    runs_per_year: int = 0
    compute_hours_per_month: float = 0.0
    team_hourly_rate_chf: float = 0.0
    team_cost_per_run_chf: float = 0.0
    # the job planner's layout the hours are timed on (QA 46 #8; None outside `ft_run.job_run`)
    sharding: str | None = Field(default=None, description="single-gpu | fsdp-node | fsdp-offload | fsdp-multinode "
                                 "(expert.sizing.ft_job)")
    cpu_offload: bool | None = Field(default=None, description="the hours assume the fp32 master weights and Adam "
                                     "moments in host RAM (× 0.67 MFU)")
    host_ram_gb: float | None = Field(default=None, description="host RAM per node the CPU offload needs, GB; 0 "
                                      "without offload")
    memory_per_gpu_gb: float | None = Field(default=None, description="the timed layout's memory per GPU, GB")
    usable_per_gpu_gb: float | None = Field(default=None, description="what a run can use of one GPU, GB")
    fits: bool | None = Field(default=None, description="the timed layout fits (memory per GPU and host RAM); "
                              "false: the hours are of a run that cannot run here")


class CostResult(SizingResult):
    """The CONTRACT `cost` JSON fields (CHF, whole configuration) plus per-GPU rent and full break-even."""

    gpu: str
    count: int
    months: float
    mode: Literal["rent", "buy"]
    monthly_rent_chf: float | None
    purchase_chf: float | None
    energy_chf: float
    infrastructure_chf: float
    resale_chf: float
    total_chf: float
    break_even_months: float | None
    cost_per_month_chf: float
    monthly_rent_per_gpu_chf: float | None = None
    break_even_full_months: float | None = Field(default=None, description="incl. energy, infrastructure, resale")

    def contract(self) -> dict:
        """Exactly the CONTRACT `cost` keys, in CONTRACT order."""
        keys = ("gpu", "count", "months", "mode", "monthly_rent_chf", "purchase_chf", "energy_chf",
                "infrastructure_chf", "resale_chf", "total_chf", "break_even_months", "cost_per_month_chf")
        return {k: getattr(self, k) for k in keys}


class Estimate(SizingResult):
    """What `gpu-expert estimate` prints: memory and speed, and the run time for fine-tuning modes."""

    model: str
    gpu: str
    count: int
    precision: str
    mode: Mode
    batch: int
    prompt_tokens: int
    output_tokens: int
    context_tokens: int
    tensor_parallel: int
    memory: Union[InferenceMemory, FineTuneMemory]
    performance: Performance
    fine_tuning: FineTuneRun | None = None
    engine: str = Field(default="vllm", description="serving engine whose memory budget was used")
    kv_precision: str = Field(default="fp16", description="precision of the KV cache")
    replicas: int = Field(default=1, description="count / tensor_parallel independent copies")
    max_concurrent_sequences: int = Field(
        default=0, description="most sequences of context_tokens one replica's KV pool holds (0: does not start)")
    layout_reason: str = Field(default="", description="why this TP × replicas layout (issue 22)")
    rate_rps: float | None = Field(default=None, description="arrival rate of the whole configuration the "
                                   "steady state is for (None: `batch` in flight per replica)")
    prompt_cv: float = Field(default=0.0, description="coefficient of variation of the prompts' lengths the "
                             "steady state's prefill queue assumes (0: every prompt prompt_tokens long)")
    recv_interval: int = Field(default=1, description="decode steps between the server's receives of new requests "
                               "(SGLang --scheduler-recv-interval; 1: every step) the closed loop's TTFT assumes")

    def contract(self) -> dict:
        """The CONTRACT `estimate` JSON: `memory` and `performance` with exactly their keys."""
        return {"memory": self.memory.contract(), "performance": self.performance.contract()}


class FullSizing(SizingResult):
    """Memory, speed, capacity, cost and fine-tuning for one workload on one GPU type."""

    model: str
    gpu: str
    count: int
    memory: InferenceMemory
    performance: Performance
    capacity: Capacity
    cost: CostResult | None = None
    fine_tuning: FineTuneRun | None = None
    fine_tuning_memory: FineTuneMemory | None = None
