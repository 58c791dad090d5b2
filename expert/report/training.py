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
