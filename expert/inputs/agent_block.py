"""The workload's optional `agent:` block: an agent that runs a multi-step tool loop.

A task (one user request) takes several LLM steps; each step reads the whole context so far
(system prompt + tool definitions + task + earlier steps), writes an answer or a tool call, waits
for the tool and appends its result. Every field is optional: what is left out comes from the
defaults of the agent's `kind`, each cited below (`KIND_DEFAULTS`); `resolved()` fills them in.
Published shapes: docs/notes/modelling-anchors.md §5 (TraceLab, vLLM × Mooncake, AgentX).
"""


from dataclasses import dataclass
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

AgentKind = Literal["conversational", "analytical", "coding"]
KvDuringTools = Literal["gpu", "cpu", "drop"]
ReasoningInContext = Literal["kept", "stripped"]

TRACELAB = "TraceLab (UW, arXiv 2606.30560, uw-syfi/TraceLab@0b8a262)"
MOONCAKE = "vLLM × Mooncake blog 2026-05-06 (vllm-project.github.io@5eb9051, Codex SWE-bench Pro)"
OWN = "own estimate"

#: Defaults per agent kind: field → (value, source). `conversational` is 000 U1's RAG agent with
#: tools, `analytical` 000 U2's analytical agent, `coding` a coding/operations agent (TraceLab).
KIND_DEFAULTS: dict[str, dict[str, tuple[float, str]]] = {
    "conversational": {
        "steps_mean": (3, f"{OWN}: retrieve, at most one more tool call, answer (no published RAG-agent trace)"),
        "steps_p90": (6, f"{OWN}: 2× the mean (TraceLab's p90/mean is 20/7.8 = 2.6)"),
        "system_tokens": (2000, f"{OWN}: system prompt and a few tool definitions"),
        "task_tokens": (1500, "000 U1 chat request: the workload default prompt_tokens"),
        "appended_tokens": (1000, f"notes §5.3: 1-2.2 k per step; {TRACELAB}: median ~0.9 k"),
        "output_tokens": (250, f"{TRACELAB}: median output per step 252 (Claude)"),
        "tool_time_s": (1.0, f"{OWN}: one retrieval or API call"),
        "think_time_s": (84.0, f"{TRACELAB}: human think time between requests p50 1.4 min"),
    },
    "analytical": {
        "steps_mean": (5, f"{OWN}: between the RAG agent (3) and TraceLab's coding requests (7.8)"),
        "steps_p90": (12, f"{OWN}: TraceLab's p90/mean ratio 2.6 × 5 ≈ 12"),
        "system_tokens": (4000, "SemiAnalysis AgentX example trace: ~4 k system + tools (ai-dynamo/aiperf@01a4d17)"),
        "task_tokens": (4096, "llm-d planner use case document_analysis_rag 4096→512 (llm-d-planner@e50305a)"),
        "appended_tokens": (1000, f"notes §5.3: 1-2.2 k per step; {TRACELAB}: median ~0.9 k"),
        "output_tokens": (512, "llm-d planner use case document_analysis_rag 4096→512"),
        "tool_time_s": (5.0, f"{OWN}: a database query or a document fetch"),
        "think_time_s": (84.0, f"{TRACELAB}: human think time between requests p50 1.4 min"),
    },
    "coding": {
        "steps_mean": (7.8, f"{TRACELAB}: tool-initiated steps per request, mean 7.8"),
        "steps_p90": (20, f"{TRACELAB}: steps per request p90 20"),
        "system_tokens": (20000, f"{MOONCAKE}: synthetic trace, 20 k shared system tokens"),
        "task_tokens": (10000, f"{MOONCAKE}: synthetic trace, 10 k first input"),
        "appended_tokens": (2048, f"{MOONCAKE}: synthetic 2 048 per turn (measured median +2 242)"),
        "output_tokens": (250, f"{TRACELAB}: median output per step 252 (Claude), 184 (Codex)"),
        "tool_time_s": (16.8, f"{TRACELAB}: tool execution per step, mean 16.8 s"),
        "think_time_s": (84.0, f"{TRACELAB}: human think time between requests p50 1.4 min"),
    },
}


class AgentLoop(BaseModel):
    """An agent's tool loop (module docstring). Unset fields take the defaults of `kind`."""

    model_config = ConfigDict(extra="forbid", strict=True, defer_build=True)

    kind: AgentKind = Field(default="conversational", description="conversational (000 U1, RAG with tools) | "
                            "analytical (000 U2) | coding (coding or operations agent); picks the defaults")
    steps_mean: float | None = Field(default=None, ge=1, le=1000, description="LLM steps per task, mean")
    steps_p90: float | None = Field(default=None, ge=1, le=10_000, description="LLM steps per task, p90")
    system_tokens: int | None = Field(default=None, ge=0, le=2_000_000,
                                      description="system prompt + tool definitions (shared by all sessions)")
    task_tokens: int | None = Field(default=None, ge=1, le=2_000_000,
                                    description="the user's request and attached context at the first step")
    appended_tokens: int | None = Field(default=None, ge=0, le=2_000_000,
                                        description="tokens appended per step (tool result, user turn)")
    output_tokens: int | None = Field(default=None, ge=1, le=200_000, description="visible output per step")
    reasoning_tokens: int = Field(default=0, ge=0, le=200_000, description="reasoning (thinking) tokens "
                                  "generated per step before its visible output")
    reasoning_in_context: ReasoningInContext = Field(
        default="kept", description="kept: the chat template sends a step's reasoning back with the next "
        "steps of the task, the context grows by it (Qwen3 and gpt-oss harmony within a tool loop) | "
        "stripped: the template drops it, the cached prefix ends before the previous answer and its visible "
        "output is prefilled again (DeepSeek-R1)")
    fan_out: int = Field(default=1, ge=1, le=1000, description="sessions a task runs at once: sub-agents or "
                         "parallel tool-call branches, each with its own context and loop (steps_mean and "
                         "steps_p90 count one branch's steps)")
    tool_time_s: float | None = Field(default=None, ge=0, le=86_400, description="tool execution per step, s")
    tasks_per_day: float | None = Field(default=None, ge=0, le=1e10,
                                        description="tasks per day; default the workload's requests_per_day")
    batch: bool = Field(default=False, description="nobody waits for a task (CI runs, nightly pipelines): "
                        "no peak factor unless peak_to_average is stated (the load follows no people's day) and "
                        "no final answer anyone reads")
    concurrent_users: int | None = Field(default=None, ge=1, le=10_000_000,
                                         description="users working at the peak (closed loop with think time)")
    think_time_s: float | None = Field(default=None, ge=0, le=86_400,
                                       description="a user's pause between tasks, s")
    context_limit_tokens: int | None = Field(default=None, ge=1, le=10_000_000,
                                             description="compaction threshold; default the model's context")
    session_affinity: bool = Field(default=True, description="a session's steps go to the replica that holds "
                                   "its KV cache (prefix-aware or sticky routing)")
    kv_during_tools: KvDuringTools = Field(default="gpu", description="where a session's KV cache waits while "
                                           "its tool runs: gpu (held), cpu (offloaded), drop (recomputed)")
    task_latency_target_s: float | None = Field(default=None, gt=0, le=86_400,
                                                description="target for one whole task, tool time included")
    step_latency_target_s: float | None = Field(default=None, gt=0, le=86_400, description="target for one "
                                                "internal step (a tool call no human reads), complete step")
    final_latency_target_s: float | None = Field(default=None, gt=0, le=86_400, description="target for the "
                                                 "final, user-visible answer step, complete step")
    cache_retention_s: float | None = Field(default=None, gt=0, le=30 * 86_400, description="how long a "
                                            "session's cached prefix survives between its steps (provider TTL or "
                                            "engine LRU); default: kept as long as the session lives")

    @model_validator(mode="after")
    def _check(self) -> "AgentLoop":
        if self.tasks_per_day is not None and self.concurrent_users is not None:
            raise ValueError("give either tasks_per_day or concurrent_users, not both")
        if self.batch and self.final_latency_target_s is not None:
            raise ValueError("a batch run (batch: true) has no final answer anyone reads: "
                             "give task_latency_target_s or step_latency_target_s, not final_latency_target_s")
        r = self.resolved()
        if r.steps_p90 < r.steps_mean:
            raise ValueError(f"steps_p90 ({r.steps_p90:g}) must be at least steps_mean ({r.steps_mean:g})")
        if self.concurrent_users is not None and r.steps_mean * r.tool_time_s + r.think_time_s <= 0:
            raise ValueError("concurrent_users needs tool_time_s or think_time_s above 0 (a user's cycle)")
        if self.task_latency_target_s is not None and self.task_latency_target_s <= r.steps_mean * r.tool_time_s:
            raise ValueError(f"task_latency_target_s ({self.task_latency_target_s:g} s) leaves no time for the "
                             f"model: the tools alone take {r.steps_mean * r.tool_time_s:g} s per task")
        return self

    def resolved(self) -> "ResolvedAgent":
        """All values, the kind's cited defaults where a field is unset; `sources` names each default."""
        defaults = KIND_DEFAULTS[self.kind]
        values, sources = {}, {}
        for name, (value, source) in defaults.items():
            given = getattr(self, name)
            values[name] = value if given is None else given
            sources[name] = source if given is None else "given"
        return ResolvedAgent(**values, reasoning_tokens=self.reasoning_tokens, sources=sources,
                             reasoning_kept=self.reasoning_in_context == "kept", fan_out=self.fan_out)


@dataclass(frozen=True)
class ResolvedAgent:
    """The agent's shape with every default filled in."""

    steps_mean: float
    steps_p90: float
    system_tokens: int
    task_tokens: int
    appended_tokens: int
    output_tokens: int
    tool_time_s: float
    think_time_s: float
    reasoning_tokens: int
    sources: dict
    reasoning_kept: bool = True  # the template sends earlier steps' reasoning back (`reasoning_in_context`)
    fan_out: int = 1
