"""Continuous batching at steady state: TPOT (ITL) and TTFT of one replica at an arrival rate.

Engines that batch continuously (vLLM, SGLang, TensorRT-LLM in-flight batching, NIM) run one forward
step at a time; each step carries one token of every sequence that decodes *and* a chunk of the
prompts of new arrivals (chunked prefill). The weights are read once per step for both, so a
prefill token adds its compute, not another weight read. At arrival rate λ per replica, prompts of
P uncached tokens, O output tokens and `decode(b)` the step of b decoding sequences alone:

    step = decode(b) + λ · step · P · c        (λ·step·P prefill tokens arrive per step)
         = decode(b) / (1 − ρ),   ρ = λ · P · c  (the prefill's busy share of the GPU)
    b    = λ · O · step                          (Little's law over the decode phase)

with `c` the compute time of one prefill token (`speed.prefill_compute_s` / P). Both equations are
solved together (`steady`): for a decode time made of affine pieces in b (the dense roofline:
floor, memory, compute) the fixed point is closed form, s = max_i a_i / (1 − ρ − c_i·λ·O), stable
only when every denominator is positive; otherwise (MoE) by bisection on whole sequences. TPOT =
ITL = step (the mean gap between a request's tokens, as NIM/AIPerf and MLPerf define it).

TTFT: a prompt is prefilled in chunks of at most `chunk − b` tokens (the engine's token budget per
step less the decoding sequences, `chunk_tokens`), each chunk step also carrying the decode, so its
service is S = max(prefill alone, P·c) + ⌈P / (chunk − b)⌉ · decode(b) (the last chunk's step
emits the first token); the prefill lane is busy
u = λ·S and a new prompt waits M/D/1 behind the ones ahead: mean u·S / (2(1 − u))
(Pollaczek-Khinchine), p95 from the waiting time's exponential tail (Kingman, `wait_p95`). Prompts whose
lengths vary (coefficient of variation κ, `Replica.prompt_cv`) make the lane M/G/1: both waits × (1 + CV_S²),
CV_S = κ·P·c / S (the prefill's compute is what varies with the length; `load_solver.variability`).
ShareGPT's 200 prompts of vLLM's serving suite: κ = 1.10. TTFT adds the
server's time per request (tokenisation, scheduling, the streamed response: `engine_speed`), which
runs beside the GPU and so does not occupy the lane. The state is unstable (the queue grows) when
ρ, u or a piece's denominator reaches 1, or the sequences in flight exceed what the KV pool holds.
Below that, an open loop's arrivals that find the pool's slots all taken wait for one before their
prefill (each holds its slot for the mean TTFT + O·step: M/D/c, Erlang C, `admission.py`), and both TTFTs
include that wait; with room for one sequence it is the M/D/1 wait of the whole request time.

A benchmark at fixed concurrency N (NIM/AIPerf, `estimate --batch N`) is a closed loop: N requests
in flight, N = λ · (TTFT + O · step) (`closed_loop`); beyond the largest stable rate the engine runs
at that rate and the rest queue before admission (TTFT grows by their wait, `admission_wait_s`; TPOT
stays: the plateau of NIM's Llama-3.3-70B table at concurrency ≥ 100, ITL 92.9-93.2 ms). Below that
rate the steady state's TTFT is far below what NIM measures at concurrency 5-250: the benchmark starts
its N requests together and, with fixed output lengths, they return together, so each prompt also waits
for the server's work on the (n − 1)/2 prompts admitted before it on average (`cohort_wait_s`, a per-token
cost fitted on NIM's Llama-3.1-8B sweep, `constants.cohort_admit_us_per_token`; on vLLM, which prefills the
prompts ahead first, at least u × the GPU's prefill of each, `cohort_prompt_wait_s`). The cohort that returns
together is bounded by the engine's token budget per step: at most `cohort_budget_steps` steps' budgets of
prompts (`engine_speed.cohort_prompts_max`; NIM's 8B at 5 000-token prompts waits 0.6-0.9 s at 25-150 in
flight, not the 1.2-3.7 s of the whole cohort). The cohort's wait and the lane's M/D/1 wait count the same
prompts ahead (clumped or at random), so a closed loop waits for the larger of the two, not their sum
(`closed_loop_ttft_s`). A server that takes in new requests only every R decode steps while others decode
(SGLang's `--scheduler-recv-interval R`, default 1) makes each closed-loop arrival wait for the next
receive as well: (R − 1)/2 steps on average beyond the every-step default (`receive_wait_s`). Static
batching (TensorRT-LLM's offline benchmark, a batch that starts together) is not this model: its TPOT is
`decode(b)`.

Each replica solves through a closure over its fields (`Replica.solve`, built by `load_solver.py`),
which the bisections call without building a state.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from functools import cached_property
from typing import Callable, NamedTuple, Sequence

from expert.catalog.models import Gpu
from expert.sizing.admission import admission_waits
from expert.sizing.load_solver import solver, tail_p95, wait_mean, within

# Token budget of one step (prompt chunk + decoding sequences) by engine, defaults as shipped:
VLLM_CHUNK = ("vllm-project/vllm:vllm/engine/arg_utils.py EngineArgs.get_batch_defaults: "
              "max_num_batched_tokens 8192 for the OpenAI server on GPUs with >= 70 GiB except A100, else "
              "2048 (PR #17885)")
TRTLLM_CHUNK = ("NVIDIA/TensorRT-LLM BuildConfig / LLM API max_num_tokens default 8192 "
                "(docs: 'Tuning Max Batch Size and Max Num Tokens')")
SGLANG_CHUNK = ("sgl-project/sglang:python/sglang/srt/server_args.py chunked_prefill_size by GPU memory "
                "(2048 below 35 GiB, 4096 below 60, 8192 below 160, else 16384; engines.SGLANG_TIERS)")
LLAMACPP_CHUNK = "ggml-org/llama.cpp common/common.h: n_batch default 2048 (logical batch per decode call)"


def chunk_tokens(engine: str, gpu: Gpu, prompt: int) -> tuple[int, str]:
    """(tokens one step may carry, source) for `engine` on `gpu`; transformers has no chunking (the
    whole prompt is one step, and no other request runs beside it)."""
    gib = gpu.memory_gb  # the catalog's GB of a GPU are GiB (engines.py)
    if engine == "vllm":
        big = gib >= 70 and not gpu.id.startswith("a100")
        return (8192 if big else 2048), VLLM_CHUNK
    if engine == "tensorrt-llm":
        return 8192, TRTLLM_CHUNK
    if engine == "sglang":
        from expert.sizing.engines import SGLANG_TIERS
        return next(chunk for below, chunk, _, _ in SGLANG_TIERS if gib < below), SGLANG_CHUNK
    if engine == "llama.cpp":
        return 2048, LLAMACPP_CHUNK
    return max(prompt, 1), "transformers: no chunked prefill (the prompt in one step)"


def wait_p95(u: float, service_s: float) -> float:
    """p95 M/D/1 wait: S·ln(u/0.05) / (2(1 − u)) for u > 0.05 (Kingman's exponential tail), else 0."""
    return float("inf") if u >= 1 else tail_p95(u, service_s, 1 - u)


@dataclass(frozen=True)
class Replica:
    """What the steady state needs of one replica: `decode(b)` (s, b may be fractional for `pieces`),
    the affine pieces (a, c) of it in b when known (dense), prefill compute per token `c_prefill` (s),
    the prefill of one prompt alone `prefill_1` (s), uncached prompt and output tokens, the step's token
    budget, the most sequences the KV pool holds (`cap`, None: unlimited) and the server's time per
    request `request_s` (s, `engine_speed.request_overhead_s`: added to TTFT, not to the prefill lane) and the
    server's time per prompt of a request admitted ahead in a closed loop's cohort `cohort_s` (s,
    `cohort_wait_s`) and the most prompts of a cohort that return together `cohort_max`
    (`engine_speed.cohort_prompts_max`; inf: unbounded); `serial_prefill`: a prompt of the cohort waits for
    the GPU prefill of those ahead (`engine_speed.SERIAL_PREFILL`, `cohort_prompt_wait_s`); `prompt_cv`: the
    coefficient of variation of the prompts' lengths (0: all `prompt` tokens; the lane is then M/D/1)."""

    decode: Callable[[float], float]
    pieces: Sequence[tuple[float, float]] | None
    c_prefill: float
    prefill_1: float
    prompt: int
    output: int
    chunk: int
    cap: float | None = None
    request_s: float = 0.0
    cohort_s: float = 0.0
    cohort_max: float = math.inf
    serial_prefill: bool = False
    prompt_cv: float = 0.0

    @cached_property
    def solve(self) -> Callable[[float], tuple | None]:
        """The steady state's numbers at an arrival rate (`load_solver.solver`, built once per replica)."""
        return solver(self)

    def capped(self, cap: float | None) -> Replica:
        """This replica with a KV pool of `cap` sequences (None: unlimited)."""
        return replace(self, cap=cap)


class SteadyState(NamedTuple):
    """One replica at arrival rate `rate_rps`: step (= TPOT/ITL), sequences decoding (`batch`) and in
    flight, the prefill's busy share of each step, the prefill lane's busy share, TTFT (mean, p95), the
    decode step alone, stability, the lane's service per prompt (s; 0: not known) and its wait's M/G/1
    factor over M/D/1 (`load_solver.variability`; 1: fixed prompt lengths). Immutable; a named
    tuple because the search builds thousands (a third of a frozen dataclass's cost)."""

    rate_rps: float
    step_s: float
    batch: float
    in_flight: float
    prefill_share: float
    lane_share: float
    ttft_mean_s: float
    ttft_p95_s: float
    decode_s: float
    stable: bool
    service_s: float = 0.0
    variability: float = 1.0
    admission_s: float = 0.0


def steady(r: Replica, lam: float, admission: bool = True) -> SteadyState:
    """The steady state of replica `r` at `lam` requests/s (module docstring). Poisson arrivals that find
    the KV pool's `cap` slots taken wait for one (`admission.admission_waits`, M/D/c with Erlang C): the
    TTFTs include that wait, `admission_s` is its mean and `in_flight` counts the sequences that hold a
    slot. `admission=False`: a closed loop, whose requests beyond the pool wait as `admission_wait_s` says."""
    core = r.solve(lam)
    if core is None:
        inf = float("inf")
        return SteadyState(lam, inf, inf, inf, lam * r.prompt * r.c_prefill, inf, inf, inf, inf, False)
    rho, s, b, d, service, u, mean, flight, lane, g = core
    ok = lane and (r.cap is None or flight <= r.cap + 1e-9)
    p95 = service + g * wait_p95(u, service) + r.request_s
    waits, waits_p95 = admission_waits(r.cap, flight, flight / lam) if admission and lam > 0 else (0.0, 0.0)
    return SteadyState(lam, s, b, flight, rho, u, mean + waits, p95 + waits_p95, d, ok, service, g, waits)


def rate_ceiling(r: Replica) -> float:
    """The top of `rate_max`'s bisection, requests/s: `rate_max` is at most it (the bisection's answer is
    its lower end, which only moves to midpoints below the top)."""
    hi = 1 / (r.prompt * r.c_prefill) if r.c_prefill > 0 else 1 / max(r.prefill_1, 1e-9)
    return min(hi, 1 / max(r.prefill_1, 1e-12))


def rate_max(r: Replica, tol: float = 1e-6) -> float:
    """The largest arrival rate per replica with a stable steady state, requests/s: bisection of
    [0, `rate_ceiling`] on "stable" (true on an interval from 0: ρ, the step and the prefill lane's
    share rise with λ) until the bracket is within `tol` of its top; the answer is its stable end."""
    lo, hi = 0.0, rate_ceiling(r)
    while hi - lo > tol * hi:
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if within(r.solve(mid), r.cap) else (lo, mid)
    return lo


def closed_loop(r: Replica, concurrency: float, top: float | None = None) -> SteadyState:
    """The steady state with `concurrency` requests in flight (N = λ·(TTFT + O·step)); beyond the
    largest stable rate `top` (default `rate_max`) the engine runs at that rate, the rest queue."""
    top = rate_max(r) if top is None else top
    if concurrency <= 1:  # one request at a time: nothing arrives while it decodes
        alone = steady(r, 0.0)
        return alone._replace(rate_rps=1 / (alone.ttft_mean_s + r.output * alone.step_s))
    at_top = steady(r, top, admission=False)
    if at_top.in_flight <= concurrency:
        return at_top
    lo, hi = 0.0, top
    for _ in range(60):
        mid = (lo + hi) / 2
        core = r.solve(mid)
        lo, hi = (mid, hi) if within(core, r.cap) and core[7] <= concurrency else (lo, mid)
    return steady(r, lo, admission=False)


def admission_wait_s(state: SteadyState, concurrency: float) -> float:
    """Mean wait before admission in a closed loop of `concurrency` requests whose steady state
    (`closed_loop`) holds fewer in flight, s: the other N − in-flight requests queue at the engine's rate,
    (N − in flight) / rate (Little's law over the queue); 0 when all are admitted. NIM's Llama-3.1-8B
    FP8 at 20 000-token prompts: TTFT 403 ms at concurrency 1, 78 s at 100, 279 s at 250."""
    excess = concurrency - state.in_flight
    return excess / state.rate_rps if excess > 1e-9 and state.rate_rps > 0 else 0.0


def cohort_size(state: SteadyState, concurrency: float, most: float = math.inf) -> float:
    """Requests of a closed loop's cohort that start and return together: min(N, in flight, `most`)
    (`Replica.cohort_max`, the engine's token budget's bound)."""
    return min(concurrency, state.in_flight, most)


def cohort_prompt_wait_s(r: Replica, state: SteadyState) -> float:
    """What each prompt admitted ahead in a closed loop's cohort costs a later one, s: the server's time
    `r.cohort_s`, or for an engine that prefills the prompts ahead first (`r.serial_prefill`: vLLM) the
    larger of it and u × the GPU's prefill of one prompt, u = the prefill lane's busy share, the chance that
    an arrival queues at all (M/D/1). Mistral-7B on an RTX 4090, 256-token prompts at 32 in flight:
    0.47 × 37.8 ms = 17.9 ms."""
    if not r.serial_prefill:
        return r.cohort_s
    return max(r.cohort_s, state.lane_share * r.prompt * r.c_prefill)


def cohort_wait_s(state: SteadyState, concurrency: float, per_prompt_s: float, most: float = math.inf) -> float:
    """Mean wait of a prompt behind the others of its closed-loop cohort, s: n = `cohort_size` requests
    start together (fixed output lengths bring them back together), each waits for the server's work on
    the prompts admitted before it, (n − 1)/2 of them on average, `per_prompt_s` each (`Replica.cohort_s`).
    NIM Llama-3.1-8B FP8, 1 000-token prompts at concurrency 50: 24.5 × 10 ms = 245 ms of the 415 ms."""
    n = cohort_size(state, concurrency, most)
    return (n - 1) / 2 * per_prompt_s if n > 1 else 0.0


def cohort_wait_p95_s(state: SteadyState, concurrency: float, per_prompt_s: float, most: float = math.inf) -> float:
    """p95 of `cohort_wait_s`, s: the prompt 95 % of the way down its cohort waits for 0.95 · (n − 1) others."""
    n = cohort_size(state, concurrency, most)
    return 0.95 * (n - 1) * per_prompt_s if n > 1 else 0.0


def receive_wait_s(state: SteadyState, concurrency: float, recv_interval: int = 1, share: float = 0.5) -> float:
    """Wait of a closed-loop arrival for the server to take it in, beyond a server that receives before every
    step, s: a scheduler that receives only every `recv_interval` = R decode steps while others decode
    (SGLang `--scheduler-recv-interval`, sgl-project/sglang:python/sglang/srt/managers/scheduler_recv_skipper.py:
    a decode step adds 1 to a counter, a prefill 1 000, it receives when the counter reaches R) lets an arrival,
    uniform over the R-step cycle, wait `share` × (R − 1) steps more: mean share 0.5, p95 0.95 (`share`).
    0 at one request in flight: nothing else decodes, the idle scheduler receives at once. DeepSeek-R1 on SGLang
    0.5.12, 8 × B300 (InferenceX), 1 024-token prompts at 16 in flight, R = 30: 14.5 × 10.9 ms = 158 ms, TTFT
    119 → 277 ms against 312 ms measured."""
    if concurrency <= 1 or recv_interval <= 1:
        return 0.0
    return share * (recv_interval - 1) * state.step_s


def closed_loop_ttft_s(state: SteadyState, concurrency: float, per_prompt_s: float = 0.0,
                       most: float = math.inf, recv_interval: int = 1) -> float:
    """Mean TTFT of a closed loop of `concurrency` requests, s: the steady state's (`state`, from
    `closed_loop`) with its lane's M/D/1 wait replaced by the larger of it and the wait behind the cohort
    (`cohort_wait_s`: the same prompts ahead, clumped), plus the wait of the requests beyond its capacity
    for admission (`admission_wait_s`) and the wait for a server that receives every `recv_interval` steps
    (`receive_wait_s`)."""
    lane = state.variability * wait_mean(state.lane_share, state.service_s) if state.service_s > 0 else 0.0
    cohort = cohort_wait_s(state, concurrency, per_prompt_s, most)
    return state.ttft_mean_s - lane + max(lane, cohort) + admission_wait_s(state, concurrency) \
        + receive_wait_s(state, concurrency, recv_interval)


def closed_loop_ttft_p95_s(state: SteadyState, concurrency: float, per_prompt_s: float = 0.0,
                           most: float = math.inf, recv_interval: int = 1) -> float:
    """p95 TTFT of a closed loop, s: as `closed_loop_ttft_s` with the p95 waits (`wait_p95`,
    `cohort_wait_p95_s`, `receive_wait_s` at 0.95) and the mean wait for admission."""
    lane = state.variability * wait_p95(state.lane_share, state.service_s) if state.service_s > 0 else 0.0
    cohort = cohort_wait_p95_s(state, concurrency, per_prompt_s, most)
    return state.ttft_p95_s - lane + max(lane, cohort) + admission_wait_s(state, concurrency) \
        + receive_wait_s(state, concurrency, recv_interval, 0.95)


__all__ = ["Replica", "SteadyState", "steady", "rate_ceiling", "rate_max", "closed_loop", "admission_wait_s",
           "cohort_size", "cohort_prompt_wait_s", "cohort_wait_s", "receive_wait_s", "cohort_wait_p95_s",
           "closed_loop_ttft_s", "closed_loop_ttft_p95_s", "chunk_tokens", "wait_mean", "wait_p95"]
