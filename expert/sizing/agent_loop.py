"""Sizing an agent's tool loop: growing context, prefix-cache hits, KV held across tool waits,
sessions by Little's law, task latency and cost per task (docs/notes/modelling-anchors.md §5.3).

Step s of a task (s = 1..n) reads I_s tokens: I_1 = system + task, I_{s+1} = I_s + reasoning + output +
appended when the chat template sends the reasoning back (`kept`), I_s + output + appended when it strips
it (`stripped`). When I_{s+1} would pass the context limit, the agent compacts its history to half the
limit (own estimate of a summarising compaction).
Uncached tokens (what prefill computes) of step s:
- step 1: the task tokens (the system prompt and tool definitions are shared by every session, so
  they stay cached on every replica);
- later steps, session affinity and KV kept on GPU or CPU during the tool: only the appended
  tokens (the previous input and output are in the prefix cache; vLLM caches generated blocks too);
  with reasoning `stripped` the cached blocks hold reasoning before the output, so the prefix found
  ends with the previous input and output + appended are prefilled;
- without affinity (steps spread over replicas without a shared cache), with the KV dropped during
  tools, or right after a compaction: everything but the system prompt (Mooncake measured 1.7 %
  hits, only the system prompt, without a shared pool).
A share p of the steps finds its previous KV (`reuse`: round-robin over R replicas without affinity
hits 1/R, `routed_share`; a retention time T_r shorter than the tool waits loses the rest,
`retained_share`): the shape is p × (reused) + (1 − p) × (recomputed). Hit rate = 1 − Σ uncached / Σ input. A fractional mean step count interpolates linearly between the
neighbouring whole counts. Sessions (Little's law): task rate × task duration; the sessions waiting
on a tool hold their KV on the GPU only with `kv_during_tools: gpu`; with `cpu` each step first copies
its cached KV back from CPU memory (`reload_s`) over the GPU's PCIe link, layer by layer behind the prefill.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from expert.catalog.models import Gpu, LlmModel
from expert.inputs.agent_block import ResolvedAgent
from expert.sizing.constants import Assumptions, exact, resolve
from expert.sizing.memory import kv_cache_gb, kv_heads_per_gpu, weights_gb
from expert.sizing.parallel import tp_efficiency_point
from expert.sizing.kernels import weight_only_factor
from expert.sizing.speed import prefill_compute_tflops

SECONDS_PER_MONTH = 365.25 / 12 * 86_400  # a mean calendar month
COMPACT_TO = 0.5  # own estimate: a compaction summarises the history to half the limit
#: Host-to-GPU copy rate for KV offloaded to CPU memory, GB/s per direction and GPU, by the GPU's PCIe
#: generation (`host_link_gbs`). Gen4: own estimate, the effective rate of PCIe 4.0 x16 (31.5 GB/s raw,
#: PCI-SIG; ~80 % after protocol overhead). Gen5 (H100, H200, B200: NVIDIA product briefs, "PCIe Gen5
#: x16"): ~50 GB/s per direction, the vLLM offloading connector's DMA copies of 0.5-2 MB blocks on H100
#: (vLLM blog, "Inside vLLM's new KV offloading connector", 2026-01-08,
#: https://blog.vllm.ai/2026/01/08/kv-offloading-connector.html, section "Evaluating GPU-CPU Transfer
#: Techniques"), i.e. 79 % of PCIe 5.0's 63 GB/s raw - the same share as the Gen4 estimate.
HOST_LINK_GEN4 = exact(25.0, "GB/s per direction", "own estimate: ~80 % of PCIe 4.0 x16 (31.5 GB/s, PCI-SIG)")
HOST_LINK_GEN5 = exact(50.0, "GB/s per direction", "vLLM blog 2026-01-08 (KV offloading connector, H100 DMA)")
#: Whether the KV of the next layer is copied while the current layer computes (layer-wise loading:
#: vLLM's KV connector API `start_load_kv` / `wait_for_layer_load`, vllm/distributed/kv_transfer/
#: kv_connector/v1/base.py; LMCache's layer-wise mode). Model: the copy of layer 1 is exposed, the rest
#: hides behind the prefill: exposed = max(copy / layers, copy - prefill × (layers - 1) / layers).
LAYERWISE_LOAD = True


@dataclass(frozen=True)
class LoopShape:
    """Token totals and means of one task of `steps` steps."""

    steps: float
    total_input: float       # Σ I_s
    total_uncached: float    # Σ uncached tokens (prefill work)
    total_held: float        # Σ (I_s + output): context held while the step runs and its tool waits
    max_context: int         # largest I_s + output
    compactions: float

    @property
    def mean_input(self) -> float:
        """Mean tokens a step reads."""
        return self.total_input / self.steps

    @property
    def mean_uncached(self) -> float:
        """Mean tokens a step prefills."""
        return self.total_uncached / self.steps

    @property
    def mean_held(self) -> float:
        """Mean context a live session holds (KV per session)."""
        return self.total_held / self.steps

    @property
    def hit_rate(self) -> float:
        """Share of input tokens served from the prefix cache."""
        return 1 - self.total_uncached / self.total_input if self.total_input else 0.0


def _whole(agent: ResolvedAgent, n: int, limit: int, reuse: bool) -> LoopShape:
    system, out, thought = agent.system_tokens, agent.output_tokens, agent.reasoning_tokens
    generated = thought + out                        # what a step writes (and its KV holds)
    grows = out + (thought if agent.reasoning_kept else 0)
    # stripped reasoning: the cache holds reasoning before the output, so the output is not a cached prefix
    reprefilled = out if thought and not agent.reasoning_kept else 0
    context = system + agent.task_tokens
    total_in = total_unc = total_held = 0.0
    biggest, compactions, fresh = 0, 0, True
    for s in range(n):
        if s > 0:
            context += grows + agent.appended_tokens
            if context + generated > limit:  # compaction: history summarised, its cache lost
                context = max(system, int(limit * COMPACT_TO))
                compactions, fresh = compactions + 1, True
        uncached = agent.task_tokens if s == 0 else (
            agent.appended_tokens + reprefilled if reuse and not fresh else context - system)
        fresh = False
        total_in, total_unc = total_in + context, total_unc + uncached
        total_held += context + generated
        biggest = max(biggest, context + generated)
    return LoopShape(n, total_in, total_unc, total_held, biggest, compactions)


def mixed(a: LoopShape, b: LoopShape, f: float) -> LoopShape:
    """a + f × (b − a) of every total (the largest context of the larger shape)."""
    def mix(x: float, y: float) -> float:
        return x + f * (y - x)

    return LoopShape(mix(a.steps, b.steps), mix(a.total_input, b.total_input),
                     mix(a.total_uncached, b.total_uncached), mix(a.total_held, b.total_held),
                     max(a.max_context, b.max_context), mix(a.compactions, b.compactions))


def _steps(agent: ResolvedAgent, steps: float, limit: int, reuse: bool) -> LoopShape:
    lo = _whole(agent, math.floor(steps), limit, reuse)
    if steps == math.floor(steps):
        return lo
    return mixed(lo, _whole(agent, math.ceil(steps), limit, reuse), steps - math.floor(steps))


def loop_shape(agent: ResolvedAgent, steps: float, limit: int, reuse: bool | float = True) -> LoopShape:
    """One task's token shape (module docstring); `reuse`: the share of steps that find the previous
    step's KV again (True = 1: session affinity and KV kept during the tool)."""
    if steps < 1:
        raise ValueError("an agent task has at least one step")
    p = float(reuse)
    if p >= 1.0 or p <= 0.0:
        return _steps(agent, steps, limit, p >= 1.0)
    return mixed(_steps(agent, steps, limit, False), _steps(agent, steps, limit, True), p)


def routed_share(affinity: bool, replicas: int | None) -> float:
    """Share of a session's steps that reach the replica holding its KV: all with session affinity or a
    single replica, 1/R when R replicas take the steps in turn (round-robin, no affinity); none without
    affinity while the replica count is not known (`replicas` None)."""
    if affinity:
        return 1.0
    if replicas is None:
        return 0.0
    return 1.0 if replicas <= 1 else 1.0 / replicas


def retained_share(tool_time_s: float, retention_s: float | None) -> float:
    """Share of steps whose cached prefix survived the tool wait before them: P(wait ≤ T_r) =
    1 − exp(−T_r / mean tool time) for exponentially distributed waits (own estimate of the waits'
    spread); 1 without a retention limit (the KV stays as long as the session lives)."""
    if retention_s is None or tool_time_s <= 0:
        return 1.0
    return 1.0 - math.exp(-retention_s / tool_time_s)


P95_Z = 1.6449  # standard normal 95th percentile (one-sided)


def poisson_p95(mean: float) -> float:
    """95th percentile of a Poisson count of mean m (live sessions arriving independently), by the normal
    approximation m + 1.645·√m (Johnson, Kemp & Kotz, Univariate Discrete Distributions, 3rd ed., §4.5):
    at 15 sessions 21.4 (+43 %), at 20 sessions 27.4 (+37 %), at 1 000 sessions 1 052 (+5 %)."""
    return mean + P95_Z * math.sqrt(mean) if mean > 0 else 0.0


def prefill_s(model: LlmModel, gpu: Gpu, tp: int, precision: str, column: str, new: float, cached: float,
              assumptions: Assumptions | None = None) -> float:
    """Time to prefill `new` tokens after `cached` tokens already in the prefix cache (one sequence, no
    queueing): the roofline of `speed._scenario` with attention over the cached prefix, i.e. work =
    2·active·new + L·d_attn·(new² + 2·cached·new) (Kaplan et al. arXiv:2001.08361 §2.1). It leaves out the
    tensor-parallel all-reduces of the new tokens (the search adds them, `agent_demand`) and the server's time
    per request, so with cached = 0 it is the core's TTFT only at TP 1 on a dense model without a serving engine."""
    return prefill_with(model, tp, prefill_rates(model, gpu, tp, precision, column, assumptions), new, cached)


def prefill_rates(model: LlmModel, gpu: Gpu, tp: int, precision: str, column: str,
                  assumptions: Assumptions | None = None) -> tuple[float, float, float]:
    """What `prefill_s` reads besides the tokens: (FLOP/s, time to read the weights, TP efficiency), for
    callers that prefill several token counts on one replica (`prefill_with`)."""
    a = resolve(assumptions)
    wo = weight_only_factor(gpu, precision, a)
    flops = prefill_compute_tflops(gpu, precision, a) * 1e12 * a.mfu.value * wo
    bw = gpu.bandwidth_gbs * 1e9 * a.mbu.value * wo
    return flops, weights_gb(model, precision, a) * 1e9 / tp / bw, tp_efficiency_point(tp, column, a)


def prefill_with(model: LlmModel, tp: int, rates: tuple[float, float, float], new: float, cached: float) -> float:
    """`prefill_s` from its `prefill_rates` (the same operations in the same order, so the same float)."""
    flops, weights, eta = rates
    work = 2 * model.decode_params_b * 1e9 * new + model.layers * model.heads * model.head_dim * (
        new * new + 2 * cached * new)
    return max(work / tp / flops, weights) / eta


def pcie_generation(gpu: Gpu | None) -> int:
    """The GPU's host link generation: 5 for Hopper and Blackwell (H100, H200, B200 product briefs:
    PCIe Gen5 x16), 4 otherwise (Ampere, Ada, and an unknown GPU: the conservative case)."""
    arch = gpu.architecture.lower() if gpu is not None else ""
    return 5 if arch.startswith(("hopper", "blackwell")) else 4


def host_link_gbs(gpu: Gpu | None) -> float:
    """Host-to-GPU copy rate of one GPU's PCIe link, GB/s per direction (`HOST_LINK_GEN4`/`GEN5`)."""
    return (HOST_LINK_GEN5 if pcie_generation(gpu) == 5 else HOST_LINK_GEN4).value


def reload_s(model: LlmModel, tp: int, cached: float, assumptions: Assumptions | None = None,
             kv_precision: str = "fp16", gpu: Gpu | None = None) -> float:
    """Time to copy a session's cached KV back from CPU memory before its next step (each GPU of the
    replica loads its share over its own link at `host_link_gbs`, Gen4 when `gpu` is not given); the KV
    is copied at the precision it is cached in (`kv_precision`: an FP8 cache moves half the bytes)."""
    return offload_gb(model, tp, cached, assumptions, kv_precision) / host_link_gbs(gpu)


def offload_gb(model: LlmModel, tp: int, cached: float, assumptions: Assumptions | None = None,
               kv_precision: str = "fp16") -> float:
    """One GPU's share of a session's cached KV, GB: what it writes to and reads back from host memory."""
    return kv_cache_gb(model, max(0, round(cached)), 1, kv_precision, assumptions) \
        * kv_heads_per_gpu(model, tp) / model.kv_heads


def exposed_reload_s(copy_s: float, prefill_s: float, layers: int) -> float:
    """The part of a reload the step waits for: all of it without layer-wise loading, else the first
    layer's copy or what the prefill cannot hide (`LAYERWISE_LOAD`)."""
    if not LAYERWISE_LOAD or layers < 2:
        return copy_s
    return max(copy_s / layers, copy_s - prefill_s * (layers - 1) / layers)


def task_latency_s(steps: float, step_s: float, tool_s: float) -> float:
    """A task's wall time: Σ over steps of (step time + tool time) (notes §5.3)."""
    return steps * (step_s + tool_s)


def sessions(task_rate: float, steps: float, step_s: float, tool_s: float) -> float:
    """Little's law: live sessions = task rate × task duration."""
    return task_rate * task_latency_s(steps, step_s, tool_s)


def closed_loop_task_rate(users: float, steps: float, step_s: float, tool_s: float, think_s: float) -> float:
    """Tasks per second of `users` in a closed loop, each starting a task, waiting for it and thinking:
    X = N / (R + Z) with R the task's time in the system (`task_latency_s`) and Z the think time (the
    interactive response-time law; Lazowska et al., Quantitative System Performance, 1984, §3.3). The
    tasks in service, X × R = N × R / (R + Z), never exceed the users. 0 when the cycle is 0."""
    cycle = task_latency_s(steps, step_s, tool_s) + think_s
    return users / cycle if cycle > 0 else 0.0


def cost_per_task(monthly_cost: float, average_task_rate: float) -> float | None:
    """Monthly cost over the tasks of a month (None when no volume is given)."""
    tasks = average_task_rate * SECONDS_PER_MONTH
    return monthly_cost / tasks if tasks > 0 else None
