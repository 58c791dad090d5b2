"""The fine-tuning plan in the report (issue 12): the job, the three sources of its GPUs cheapest
first, full / LoRA / QLoRA side by side, and the cost lines with the ranking objective."""


from pydantic import Field

from expert.report.parts import ReportPart


class TrainingOptionOut(ReportPart):
    """One source of the run's GPUs: serving-idle | rented-per-run | dedicated."""

    kind: str
    fits: bool
    gpu: str | None = None
    gpus: int = 0
    nodes: int = 0
    sharding: str | None = None
    memory_per_gpu_gb: float | None = None
    host_ram_gb: float | None = Field(default=None, description="optimizer state in host RAM per node under CPU "
                                      "offload (sharding fsdp-offload), GB; 0 without offload")
    server_ram_gb: float | None = Field(default=None, description="serving-idle: the serving server's RAM by 000 "
                                        "M3's 1:4 rule (4 × VRAM), GB; a larger host_ram_gb is refused")
    hours_per_run: float | None = None
    elapsed_hours_per_run: float | None = None
    billed_hours_per_run: float | None = None
    cost_per_run_chf: float = 0.0
    cost_horizon_chf: float = 0.0
    team_horizon_chf: float = 0.0
    offer: str | None = None
    provider: str | None = None
    billing: str | None = None
    interconnect: str | None = None
    reason: str | None = None
    instance_ram_gb: float | None = Field(default=None, description="rented: the instance's host RAM per node "
                                          "(offers.yaml host_ram per GPU × the node's GPUs), GB; null: unknown; an "
                                          "offer below host_ram_gb is skipped")
    degraded_nights_per_run: int | None = Field(default=None, description="serving-idle: nights per run the serving "
                                                "engine stops on these GPUs while the run holds them")
    degraded_nights_per_month: float | None = Field(default=None, description="serving-idle: those nights per month")
    degraded_hours_per_run: float | None = Field(default=None, description="serving-idle: hours the run holds "
                                                 "the serving GPUs per run")
    degraded_chf_per_run: float | None = Field(default=None, description="serving-idle: the degraded service "
                                               "priced as the serving capacity lost: hours × GPUs × the "
                                               "configuration's own cost per GPU-hour (000 T1), CHF")
    degraded_horizon_chf: float | None = Field(default=None, description="serving-idle: the same over the horizon")
    saving_per_run_chf: float | None = Field(default=None, description="serving-idle: what the nights save per "
                                             "run against `saving_against` after the degraded service, CHF")
    min_saving_per_run_chf: float | None = Field(default=None, description="serving-idle: the minimum they must "
                                                 "exceed: nights × idle_min_saving_chf_per_night (75 CHF)")
    saving_against: str | None = Field(default=None, description="the best other source compared with")
    declined: bool = Field(default=False, description="serving-idle: fits, but saves no more than the minimum, "
                                                      "so the run goes to `saving_against`")


class MethodRow(ReportPart):
    """One fine-tuning method run the cheapest way it can."""

    method: str
    fits: bool
    source: str | None = None
    gpu: str | None = None
    gpus: int | None = None
    nodes: int | None = None
    memory_per_gpu_gb: float | None = None
    hours_per_run: float | None = None
    cost_per_run_chf: float | None = None
    quality: str


class CostLines(ReportPart):
    """Separate, labelled cost lines over the horizon and what the ranking minimises."""

    gpu_tco_chf: float
    training_chf: float
    team_chf: float
    tco_chf: float
    degraded_service_chf: float = Field(default=0.0, description="the idle nights' degraded service over the "
                                        "horizon when the runs take them (not in tco_chf nor the objective)")
    objective_chf: float
    objective: str


class TrainingPlan(ReportPart):
    """The recommendation's fine-tuning plan; `lines` is the plan in the report's language."""

    method: str
    dataset_tokens: float
    dataset_assumed: bool
    dataset_source: str
    epochs: float
    runs_per_year: int
    chosen: str | None = None
    options: list[TrainingOptionOut] = []
    methods: list[MethodRow] = []
    methods_compared: bool = False
    checkpoint_gb: float | None = Field(default=None, description="one resumable checkpoint: trainable "
                                        "parameters × 14 B (16-bit weights + fp32 master and Adam moments; no "
                                        "gradients); LoRA/QLoRA: the adapters only")
    checkpoints_kept: int | None = Field(default=None, description="checkpoints kept (default 2: the latest and "
                                         "one earlier or best)")
    checkpoint_storage_gb: float | None = Field(default=None, description="checkpoint_gb × checkpoints_kept")
    cost_lines: CostLines
    lines: list[str] = []


def localised(plan: dict | None, lang: str) -> dict | None:
    """The configurator's plan with its texts in one language."""
    if plan is None:
        return None
    out = dict(plan)
    out["lines"] = plan["lines"].get(lang) or plan["lines"]["en"]
    out["methods"] = [{**m, "quality": m["quality"].get(lang) or m["quality"]["en"]} for m in plan["methods"]]
    return out


class SetupTuningPlan(ReportPart):
    """An audited setup's fine-tuning plan (issue 33 item 2): the job on the setup's own GPUs, the host RAM
    of CPU offload against the server's, where the runs could go (the advice's three sources, the cheapest
    first) and the checkpoints; `lines` is the plan in the report's language."""

    agent: str | None = Field(default=None, description="a pool's plan (fine_tuning_plans): the agent that "
                              "fine-tunes; null in fine_tuning_plan")
    method: str = Field(description="full | lora | qlora")
    dataset_tokens: float
    dataset_assumed: bool = Field(description="the workload gives no dataset_tokens: the default is assumed")
    epochs: float
    runs_per_year: int
    runs_on: str = Field(description="where the setup says its runs go (training_gpus): serving | separate")
    gpu: str = Field(description="the setup's GPU")
    gpus: int = Field(description="the setup's GPUs, all of which the run on them uses")
    nodes: int = Field(description="8-GPU nodes the run on them spans")
    sharding: str = Field(description="single-gpu | fsdp-node | fsdp-offload | fsdp-multinode "
                          "(expert.sizing.ft_job.layout_on)")
    cpu_offload: bool = Field(description="fp32 master weights and Adam moments held in host RAM (a full "
                              "fine-tune that does not fit one node's GPUs otherwise)")
    memory_per_gpu_gb: float = Field(description="the run's memory per GPU on the setup's GPUs, GB")
    usable_per_gpu_gb: float = Field(description="what a run can use of one GPU (95 %: no serving engine "
                                     "holds memory while it runs), GB")
    memory_fits: bool = Field(description="memory_per_gpu_gb ≤ usable_per_gpu_gb")
    host_ram_gb: float = Field(description="host RAM per node the CPU offload needs, GB; 0 without offload")
    server_ram_gb: float | None = Field(default=None, description="the server's RAM: the setup's ram_gb, else "
                                        "000 M3's 1:4 rule (4 × the setup's VRAM), GB")
    server_ram_stated: bool = Field(description="server_ram_gb is the setup's own ram_gb")
    host_ram_exceeded: bool = Field(description="host_ram_gb > server_ram_gb: the run does not fit this server")
    hours_per_run: float = Field(description="one run on the setup's GPUs, hours (the job planner's MFU)")
    fits_here: bool = Field(description="the runs fit the setup's GPUs at their idle hours: memory, host RAM and "
                            "half the period between runs (the serving-idle option)")
    nights_per_run: int | None = Field(default=None, description="fits_here: nights of degraded service per run")
    nights_per_month: float | None = Field(default=None, description="fits_here: those nights per month")
    degraded_chf_per_run: float | None = Field(default=None, description="fits_here and priced: the serving "
                                               "capacity the nights hold at the setup's own cost per GPU-hour")
    chosen: str | None = Field(default=None, description="the cheapest source that fits (the idle nights only "
                               "when they save the minimum per night), marked → in the lines; null: none fits")
    options: list[TrainingOptionOut] = Field(default=[], description="serving-idle (on the setup's GPUs), "
                                             "rented-per-run, dedicated: chosen first")
    checkpoint_gb: float = Field(description="one resumable checkpoint, GB (adapters only for LoRA/QLoRA)")
    checkpoints_kept: int
    checkpoint_storage_gb: float = Field(description="checkpoint_gb × checkpoints_kept")
    lines: list[str] = []
