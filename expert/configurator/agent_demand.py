"""The configurator's hook for agent loops: an `agent:` workload as the demand the search checks.

`demand()` sizes the loop once (`expert.sizing.agent_loop`); `equivalent()` turns it into the
single-request workload the search already understands:
- requests = LLM steps (task rate × fan-out × mean steps), peak over average as the workload's;
- prompt = the mean input a step reads (decode reads the KV of the whole context), output = visible
  + reasoning tokens per step, context = the mean context a live session holds;
- latency target = per step: (task target − tool time) / steps, for the complete step (the task waits
  for every step's last token); without a task target the workload's `latency_target_s` applies to
  each step as the workload states it (streamed: its first words). With an internal step target or a final answer
  target the two are told apart: an internal step (a tool call no one reads) must be complete within
  the tighter of its target and the task's share, the final answer's target is its first words when the
  workload streams (a TTFT target), else its complete step (every step has the mean step's shape).
Two small hooks change what the search checks for such a workload (`feasibility.py`):
- `ttft_shift`: a step prefills only its uncached tokens after the cached prefix
  (`agent_loop.prefill_s`), not the whole prompt (plus the copy from CPU memory when offloaded);
- `with_held`: sessions waiting on a tool keep their KV on the GPU (`kv_during_tools: gpu`); at
  the peak they are `held` = peak task rate × steps × tool time (Little's law), spread over the
  replicas, and take memory without decoding. Each replica holds the p95 of its share
  (`held_per_replica`: the idle sessions are a Poisson count, `agent_loop.poisson_p95`).
Without session affinity the first search prefills as if no step found its cache (the replica count is
not known yet); the search then sizes again with the hit rate at its pick's replicas R (`routed_replicas`,
`enumeration._routed`: one replica hits always, R replicas in turn 1/R of the time), and the report
states the hit rate the search sized (`shape_at(routed_replicas)`, one function for both).
"""

from __future__ import annotations

import copy
import math
from dataclasses import dataclass, replace

from expert.inputs.agent_block import ResolvedAgent
from expert.catalog.models import Gpu, LlmModel
from expert.sizing import agent_loop as loop
from expert.sizing.constants import Assumptions
from expert.inputs.workload import Workload
from expert.sizing.memory import kv_precision_at
from expert.sizing.parallel import link_word
from expert.sizing.speed import allreduce_traffic_s


@dataclass(frozen=True)
class AgentDemand:
    """An agent workload's loop, load and cache figures, independent of the GPU."""

    agent: ResolvedAgent
    shape: loop.LoopShape
    average_task_rate: float     # tasks per second over the day
    peak_task_rate: float
    held_peak: float             # sessions waiting on a tool with their KV on the GPU, at the peak
    step_target_s: float | None  # per-step latency target
    affinity: bool
    kv_during_tools: str
    context_limit: int
    kind: str = "conversational"
    kv_precision: str | None = None  # the stated KV precision (None: each candidate's, `kv_precision_at`)
    offload_share: float = 0.0   # `cpu`: share of the tool-waiting sessions whose KV waits in CPU memory
    users: int | None = None     # a closed loop's users (`concurrent_users`); None: an open loop
    retained: float = 1.0        # share of steps whose cached prefix survives the tool wait (`retained_share`)
    internal_target_s: float | None = None  # an internal step's complete-step target (with the task's share)
    final_target_s: float | None = None     # the final answer's target: first words when streamed
    streamed: bool = True        # the workload streams its answers (the final answer's target is its TTFT)
    routed_replicas: int | None = None  # without affinity: the replicas the hit rate is sized at (None: no hits)
    batch: bool = False          # nobody waits (`agent.batch`): no final answer anyone reads

    def shape_at(self, replicas: int | None) -> loop.LoopShape:
        """The loop's shape when its steps are spread over `replicas` (`agent_loop.routed_share`; None:
        the replica count is not known, only affinity finds the cache)."""
        kept = 0.0 if self.kv_during_tools == "drop" else self.retained
        share = loop.routed_share(self.affinity, replicas) * kept
        return loop.loop_shape(self.agent, self.agent.steps_mean, self.context_limit, share)

    def closed_rate(self, step_latency_s: float) -> float:
        """A closed loop's peak task rate at a step latency (`agent_loop.closed_loop_task_rate`)."""
        a = self.agent
        return loop.closed_loop_task_rate(self.users or 0, a.steps_mean, step_latency_s, a.tool_time_s,
                                          a.think_time_s)

    @property
    def idle_peak(self) -> float:
        """Sessions waiting on a tool at the peak (Little's law), wherever their KV waits."""
        return self.peak_task_rate * self.agent.fan_out * self.agent.steps_mean * self.agent.tool_time_s

    def offloading(self, share: float) -> "AgentDemand":
        """This `cpu` demand with `share` of the idle sessions' KV in CPU memory and the rest on the GPU:
        the GPU holds (1 − share) × `idle_peak` sessions, and a share `share` of the steps copies its
        prefix back first (`step_ttft`). `kv_during_tools: cpu` offloads where it pays (`enumeration.run`)."""
        return replace(self, offload_share=share, held_peak=self.idle_peak * (1.0 - share))


@dataclass(frozen=True)
class StepPrefill:
    """What a step's time to first token reads of an agent loop (`prefill_ttft`): the tokens it prefills
    after the cached prefix, that prefix, the share of steps that first copy their prefix back from CPU
    memory, the tokens such a step copies and the stated precision it is copied in (None: the candidate's own,
    `kv_precision_at`). Part of the profile cache's key (`profile.Sizing`): a `cpu` loop offloading nothing
    has the same step as the loop with its KV on the GPU, so they share profiles."""

    uncached: float
    cached: float
    reloaded: float
    kv_precision: str | None
    reload_tokens: float = 0.0


def shared_prefix_tokens(d: AgentDemand) -> int:
    """The prefix every session of the agent shares: its system prompt and tool definitions, held once per
    replica by the engine's prefix cache (vLLM's automatic prefix caching shares blocks by hash with
    reference counts, SGLang's radix tree shares prefix nodes: docs/agents.md), not once per session."""
    return d.agent.system_tokens


def step_prefill(d: AgentDemand) -> StepPrefill:
    """The step prefill of demand `d`. Only `cpu` copies an offloaded prefix back, and only on a step that
    finds it: every step with session affinity, 1/R of them when R replicas take the steps in turn
    (`agent_loop.routed_share`; none while R is not known, issue 31 departure 8). A step that finds it
    copies the prefix of a step that reuses its cache (the affine shape's), not the mean of hits and misses."""
    new = d.shape.mean_uncached
    cached = max(0.0, d.shape.mean_input - new)
    if d.kv_during_tools != "cpu" or d.offload_share <= 0:
        return StepPrefill(new, cached, 0.0, d.kv_precision)
    hit = loop.routed_share(d.affinity, d.routed_replicas)
    affine = d.shape if d.affinity else replace(d, affinity=True).shape_at(None)
    return StepPrefill(new, cached, d.offload_share * hit, d.kv_precision,
                       max(0.0, affine.mean_input - affine.mean_uncached) if hit else 0.0)


def demand(w: Workload, model: LlmModel, routed_replicas: int | None = None,
           task_rate: float | None = None) -> AgentDemand:
    """The loop of `w.agent` with the workload's model and volume (module docstring). A closed loop
    (`concurrent_users`) runs at X = N / (steps × (step + tool) + think) tasks per second
    (`agent_loop.closed_loop_task_rate`): `task_rate` states X (the fixed point `closed_loop.fixed_point`
    solved, which every section reads); without it a step of 0 s gives the rate's upper bound. Without
    session affinity the steps find their cache as often as `routed_replicas` replicas in turn allow
    (`AgentDemand.shape_at`)."""
    spec = w.agent
    agent = spec.resolved()
    limit = min(spec.context_limit_tokens or model.max_context, model.max_context)
    retained = loop.retained_share(agent.tool_time_s, spec.cache_retention_s)
    factor = peak_factor(w)
    if spec.concurrent_users is not None and task_rate is not None:
        peak, average = task_rate, task_rate / factor
    elif spec.concurrent_users is not None:
        peak = loop.closed_loop_task_rate(spec.concurrent_users, agent.steps_mean, 0.0,
                                          agent.tool_time_s, agent.think_time_s)
        average = peak / factor
    else:
        average = (spec.tasks_per_day / 86_400) if spec.tasks_per_day is not None else w.average_rps
        peak = average * factor
    held = peak * agent.fan_out * agent.steps_mean * agent.tool_time_s if spec.kv_during_tools == "gpu" else 0.0
    target = w.latency_target_s
    if spec.task_latency_target_s is not None:
        target = (spec.task_latency_target_s - agent.steps_mean * agent.tool_time_s) / agent.steps_mean
    internal, final = spec.step_latency_target_s, spec.final_latency_target_s
    if spec.task_latency_target_s is not None and (internal is not None or final is not None):
        internal = target if internal is None else min(internal, target)  # the task's share binds every step
    d = AgentDemand(agent, None, average, peak, held, target, spec.session_affinity, spec.kv_during_tools,
                    limit, spec.kind, w.kv_cache_precision, 1.0 if spec.kv_during_tools == "cpu" else 0.0,
                    spec.concurrent_users, retained, internal, final, w.streaming, routed_replicas, spec.batch)
    return replace(d, shape=d.shape_at(routed_replicas))


def _unpeaked_batch(w: Workload) -> bool:
    """A batch (`agent.batch`: nobody waits, the runs follow no people's day) that states no
    `peak_to_average`: its peak is its average."""
    return w.agent.batch and "peak_to_average" not in w.model_fields_set


def peak_factor(w: Workload) -> float:
    """The agent's peak over its daily average: `peak_to_average`, but 1 for an unpeaked batch."""
    return 1.0 if _unpeaked_batch(w) else w.peak_to_average


def rate_basis(w: Workload) -> dict:
    """How an agent's peak step rate was obtained, for the report's capacity section (`slo.rate_basis`
    for other workloads): a closed loop's users at the fixed point, a batch without a peak factor, or the
    tasks per day × `peak_to_average`."""
    if w.agent.concurrent_users is not None:
        return {"basis": "agent closed loop", "peak_factor": peak_factor(w)}
    if _unpeaked_batch(w):
        return {"basis": "agent batch", "peak_factor": 1.0}
    return {"basis": "agent tasks × peak_to_average", "peak_factor": peak_factor(w)}


def is_closed_loop(w: Workload) -> bool:
    """Whether `w` is an agent loop of a fixed number of users (`concurrent_users`)."""
    return w.agent is not None and w.agent.concurrent_users is not None


def _targets(w: Workload, d: AgentDemand) -> dict:
    """The equivalent workload's latency fields (module docstring)."""
    if d.internal_target_s is None and d.final_target_s is None:
        if w.agent.task_latency_target_s is not None:  # the task's share bounds each complete step
            return {"latency_target_s": d.step_target_s, "streaming": False}
        return {"latency_target_s": d.step_target_s}
    e2e, ttft = d.internal_target_s, w.ttft_target_s
    if d.final_target_s is not None and w.streaming:
        ttft = d.final_target_s if ttft is None else min(ttft, d.final_target_s)
    elif d.final_target_s is not None:
        e2e = d.final_target_s if e2e is None else min(e2e, d.final_target_s)
    return {"latency_target_s": e2e, "ttft_target_s": ttft, "streaming": False}


def equivalent(w: Workload, d: AgentDemand) -> Workload:
    """The per-step workload the search sizes (module docstring)."""
    a = d.agent
    return w.model_copy(update={**_targets(w, d),
        # the steps' average rate with the peak factor set explicitly: the task volume is daily (or derived
        # from concurrent users), so the rate-as-given rule of `Workload.peak_factor` must not drop it
        "agent": None, "requests_per_day": None, "requests_per_second": d.average_task_rate * a.fan_out * a.steps_mean,
        "peak_to_average": d.peak_task_rate / d.average_task_rate if d.average_task_rate > 0 else w.peak_to_average,
        "prompt_tokens": max(1, round(d.shape.mean_input)), "output_tokens": a.output_tokens + a.reasoning_tokens,
        "context_tokens": max(1, round(d.shape.mean_held)), "concurrency": None})


def step_ttft(d: AgentDemand, model: LlmModel, gpu: Gpu, tp: int, precision: str, column: str,
              a: Assumptions) -> float:
    """A mean step's time to first token (no queueing): prefill of its uncached tokens after the
    cached prefix, plus the copy of that prefix back from CPU memory for the offloaded share of steps."""
    return prefill_ttft(step_prefill(d), model, gpu, tp, precision, column, a)


def prefill_ttft(p: StepPrefill, model: LlmModel, gpu: Gpu, tp: int, precision: str, column: str,
                 a: Assumptions) -> float:
    """`step_ttft` of a step prefill."""
    ttft = loop.prefill_s(model, gpu, tp, precision, column, p.uncached, p.cached, a)
    if p.reloaded:  # layer-wise loading hides the copy behind the prefill where it can (agent_loop)
        copy = loop.reload_s(model, tp, p.reload_tokens, a, kv_precision_at(precision, p.kv_precision), gpu)
        ttft += p.reloaded * loop.exposed_reload_s(copy, ttft, model.layers)
    return ttft


def ttft_shift(d: AgentDemand, model: LlmModel, gpu: Gpu, tp: int, precision: str, column: str, prompt: int,
               a: Assumptions) -> float:
    """`step_ttft` minus the core's full-prompt prefill of the equivalent workload, s."""
    return prefill_shift(step_prefill(d), model, gpu, tp, precision, column, prompt, a)


def prefill_shift(p: StepPrefill, model: LlmModel, gpu: Gpu, tp: int, precision: str, column: str, prompt: int,
                  a: Assumptions) -> float:
    """`ttft_shift` of a step prefill. The core's full-prompt prefill (`speed.Roofline.prefill`) also
    carries the tensor-parallel all-reduces of every prompt token; a step moves only its uncached tokens'
    activations (the cached prefix's KV stays where it is), so the cached tokens' all-reduces come off too
    (QA 44 D9: DeepSeek-V3 at TP 4 on B300 was charged 0.110 s of all-reduce for 37 837 tokens per step
    instead of 0.009 s for its 3 067 new ones)."""
    return prefill_ttft(p, model, gpu, tp, precision, column, a) \
        - loop.prefill_s(model, gpu, tp, precision, column, prompt, 0, a) \
        - tokens_allreduce_s(model, gpu, tp, column, p.cached, a)


def tokens_allreduce_s(model: LlmModel, gpu: Gpu, tp: int, column: str, tokens: float, a: Assumptions) -> float:
    """The tensor-parallel all-reduces of `tokens` prefilled tokens on a replica of the catalog `column`, s
    (`speed.allreduce_traffic_s` over the link the profile's roofline takes: NVLink for SXM, else PCIe)."""
    return allreduce_traffic_s(model, gpu, tp, round(tokens), link_word(column), a)


def held_per_replica(d: AgentDemand | None, replicas: int) -> int:
    """Tool-waiting sessions each replica holds at the peak, the p95 of its Poisson share (memory must hold
    the fluctuation, not only the mean: `agent_loop.poisson_p95`); 0 without an agent."""
    if d is None or d.held_peak <= 0 or replicas < 1:
        return 0
    return math.ceil(loop.poisson_p95(d.held_peak / replicas) - 1e-9)


def replica_sequences(concurrent: float, replicas: int, batch: int | None, held: int) -> int:
    """Sequences one replica's KV memory holds at the peak: its operating batch (the figure the search's
    memory check admitted, `serving.Serving.batch_for`: Little's law over the mean time in system at D3's
    utilisation, at least the stated concurrency's share), plus the p95 of its tool-waiting sessions
    (`held_per_replica`). Without an operating point (a setup beyond its capacity, nothing fits) the
    replica's share of the concurrent requests (000 D3). The memory section, the agent section's p95 KV
    and the pick's `memory_per_gpu_gb` read this one figure (issue 31 leftover 2; QA 47 #1: D3's
    concurrency over the p95 latency asked one sequence more than the search had checked, and printed
    80.4 GB on a 78.2 GB A100 beside `fits: true`)."""
    share = batch if batch else math.ceil(concurrent / max(1, replicas) - 1e-9)
    return max(1, share) + held


def with_held(prof, held: int):
    """A copy of a replica profile whose memory already holds `held` idle sessions' KV."""
    if held <= 0:
        return prof
    p = copy.copy(prof)
    p.base_gb = prof.base_gb + held * prof.kv_seq_gb
    p.growth_base_gb = prof.growth_base_gb + held * prof.growth_kv_seq_gb
    p.seq_mem = max(0, prof.seq_mem - held)  # floor(F/kv − held) = floor(F/kv) − held, growth model too
    p._replica = None  # the KV pool's cap changed (not the uncapped replica and its rate)
    return p
