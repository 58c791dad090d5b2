"""Result types of the configurator. `ConfiguredChoice` extends the report's `Choice` with the cost
breakdown and the operating point; `to_choice()` / `to_alternative(lang)` give exactly the report's
shapes (`expert.report.models.Choice`, `Alternative`)."""


from typing import Literal

from pydantic import BaseModel, ConfigDict

from expert.report.models import Alternative, Choice

Lang = Literal["en", "de"]


class ConfiguredChoice(Choice):
    """A configuration with its cost lines (issue 12): `gpu_cost_chf` the serving GPUs' TCO (000 T1),
    `training_cost_chf` the fine-tuning GPUs (0 when runs use the serving GPUs' idle hours),
    `tco_chf` = the two (money spent), `team_cost_chf` team time waiting on runs (000 M2, opt-in),
    `objective_chf` = tco + team time, what the ranking minimises; `monthly_cost_chf` = tco / months."""

    gpu_cost_chf: float
    team_cost_chf: float = 0.0
    training_cost_chf: float = 0.0
    objective_chf: float | None = None
    training_source: str | None = None
    pool: str | None = None
    t1_cost_chf: float | None = None  # 000 T1 cost of exactly `count` × `gpu` (what the T1 card explains)
    condition: str | None = None
    batch_per_replica: int | None = None
    concurrent_inferences: float | None = None
    finetune_hours_per_run: float | None = None
    finetune_memory_per_gpu_gb: float | None = None
    quality_note: dict[str, str] | None = None

    def to_choice(self) -> Choice:
        """The report's `Choice` (extra fields dropped)."""
        return Choice.model_validate(self.model_dump(include=set(Choice.model_fields)))


class ConfiguredAlternative(ConfiguredChoice):
    """A configuration that lost; `why_not` in English and German."""

    why_not: dict[str, str]
    feasible: bool = True

    def to_alternative(self, lang: Lang = "en") -> Alternative:
        """The report's `Alternative` with `why_not` in the chosen language."""
        data = self.model_dump(include=set(Choice.model_fields))
        return Alternative.model_validate({**data, "why_not": self.why_not[lang]})


class ParetoPoint(BaseModel):
    """One configuration on the cost/latency Pareto front."""

    model_config = ConfigDict(extra="forbid")
    gpu: str
    count: int
    source: str
    key: str
    precision: str
    tco_chf: float
    latency_p95_s: float


class Sensitivity(BaseModel):
    """One single change of input and what it does to the choice."""

    model_config = ConfigDict(extra="forbid")
    change: str
    changes_choice: bool
    text: dict[str, str]
    choice: ConfiguredChoice | None = None


class DocumentView(BaseModel):
    """What documents 000/004 would pick, and whether the cost optimum agrees."""

    model_config = ConfigDict(extra="forbid")
    family: str
    multi_gpu: bool = False
    text: dict[str, str]
    sections: list[str]
    agrees: bool | None = None
    comparison: dict[str, str] | None = None


class SearchResult(BaseModel):
    """The answer of `search()`; `nothing_fits` is set (and `recommendation` None) when nothing fits."""

    model_config = ConfigDict(extra="forbid")
    recommendation: ConfiguredChoice | None = None
    alternatives: list[ConfiguredAlternative] = []
    quantised: list[ConfiguredAlternative] = []
    """A stated precision is kept: the cheaper quantised options beside it (`quantised.py`)."""
    unquantised: ConfiguredChoice | None = None
    """An open precision was quantised: the optimum at the workload's own precision (`quantised.py`)."""
    unquantised_fits: bool | None = None
    """Whether that optimum exists; None when there was nothing to compare."""
    pareto: list[ParetoPoint] = []
    sensitivity: list[dict[str, str]] = []
    sensitivity_details: list[Sensitivity] = []
    nothing_fits: dict[str, str] | None = None
    near_tie: dict[str, str] | None = None
    """The pick won a near tie over the cheapest (`near_tie_pick.py`): why, {en, de}."""
    tightest_constraint: str | None = None
    document: DocumentView | None = None
    pool: dict | None = None
    pool_comparison: dict | None = None
    agent: dict | None = None
    training_plan: dict | None = None
    pool_lines: dict[str, list[str]] | None = None
    evaluated: int = 0
    feasible: int = 0
    notes: list[str] = []
