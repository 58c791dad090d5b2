"""Fast closed forms of the sizing core for the search: one `ReplicaProfile` per (model, GPU,
precision, TP, interconnect column), sized once for its inputs (`Sizing`, `sized`).

The sizing core (`expert.sizing.memory.inference_memory`, `expert.sizing.speed.performance`) builds
pydantic results with provenance and three speed scenarios per call (≈ 70-130 µs). A search needs
thousands of such numbers, so this module evaluates the *same* formulas at the point values only:

- per-GPU memory at `b` sequences = weights/TP + KV per sequence per GPU × b + activation + overhead
  (`memory.inference_memory`), usable = what the serving engine holds per GPU (`engines.budget`'s
  numbers, `engines.budget_sizes`; vLLM by default);
- TPOT at batch `b` and the prefill of one request: the core's own point roofline (`speed.Roofline`,
  which `speed._scenario` and so `performance` are built on) at batches 1 and 2; for dense models
  the memory time is affine and the compute time and all-reduce traffic linear in the batch, the
  step floor constant, so every other batch follows exactly from those two (MoE models call the core
  per batch). `e2e(b)` = prefill + output × TPOT(b), without queueing, as the core's `e2e_latency_s`.

`tests/configurator/test_configurator_profile.py` checks both against the core on many combinations
(equal to 1e-9 relative). Nothing here is a new formula. The operating point, the latency targets
and the replica count are in `serving.py` (the `Serving` mixin), the latency-limited batch of a set
of targets in `latency_limit.py` (`with_target`, re-exported here). A copy of a profile (per set of
targets, per count of held agent sessions) is shallow: it keeps the replica and capacity its original
worked out, less what its own change invalidates (`agent_demand.with_held`). `build_profile` works out
the uncapped replica and its capacity (`rate_max`, a bisection) before any copy is made: worked out
lazily, each copy (an agent loop makes one per candidate checked) solved the same bisection again.

Growth reserve (000 M5, "Fehler 5"): where growth is stated (`growth_params_b`), the replica must fit
in the usable memory *and* the grown model (generic dense shape, same precision, same sequences)
must fit too — the room the growth model needs. Without it, M5's own context decides: for a model
below `growth_context_below_b` (20B: "a 7B agent may need 13B or 20B") the weights per GPU may take
at most (1 − 30 %) of its memory, the low end of M5's band counted as the document counts it (7B =
14 GB on 24 GB leaves 42 %); larger models get no flat reserve.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from expert.catalog.models import Gpu, LlmModel
from expert.sizing.constants import GIB, Assumptions
from expert.sizing.engines import budget_sizes
from expert.sizing import dp_attention
from expert.sizing.memory import bytes_per_param, kv_cache_gb, kv_heads_per_gpu, kv_precision_at, weights_gb
from expert.sizing.parallel import link_word, tp_efficiency_point
from expert.sizing import load
from expert.sizing import speed as core_speed
from expert.sizing.kernels import weight_only_factor
from expert.sizing.engine_speed import request_overhead_s, step_overhead_s
from expert.sizing.steady import dense_pieces
from expert.configurator.agent_demand import StepPrefill, prefill_shift
from expert.configurator.keys import inputs
from expert.configurator.latency_limit import with_target
from expert.configurator.serving import EPS, Serving
from expert.inputs.slo import Targets


@dataclass
class ReplicaProfile(Serving):
    """Memory and speed of one TP replica of `model` on `gpu` at `precision` (point values)."""

    model: LlmModel
    gpu: Gpu
    precision: str
    tp: int
    column: str
    prompt: int
    output: int
    context: int
    slo: Targets | None
    a: Assumptions
    growth: LlmModel | None = None
    ttft_shift: float = 0.0         # agent loops: cached-prefix prefill minus full prefill (agent_demand.py)
    kv_precision: str = "fp16"      # what the KV cache is held and read in: sizes it and each decode step's reads
    prompt_cv: float = 0.0          # the prompts' lengths' coefficient of variation: the prefill queue's M/G/1 wait
    base_gb: float = 0.0            # per GPU without KV: weights/TP + activation + overhead
    kv_seq_gb: float = 0.0          # KV per sequence per GPU (beyond a shared prefix)
    shared_kv_gb: float = 0.0       # KV of the prefix all sequences share, once per replica, per GPU
    usable_gb: float = 0.0          # what the engine holds per GPU (engines.budget)
    limit_gb: float = 0.0           # what the replica may use per GPU (reserve applied)
    reserve: float = 0.0            # flat reserve share (0 when the growth model decides)
    weights_gb: float = 0.0         # weights per GPU
    growth_base_gb: float = 0.0
    growth_kv_seq_gb: float = 0.0
    seq_mem: int = 0                # most sequences memory allows (with reserve)
    seq_lat: int = 0                # most sequences the latency targets allow without queueing (≤ seq_mem)
    e2e_1: float = 0.0              # latency at batch 1
    prefill_1: float = 0.0          # prefill of one request alone, s (TTFT adds the server's `_request`)
    chunk: int = 8192               # tokens one step may carry (load.chunk_tokens of the engine)
    prefill_compute: float = 0.0    # compute of one request's uncached prefill, fused into decode steps, s
    engine: str = "vllm"            # its host time per step and per request (engine_speed)
    attention: str = "tp"           # "dp": MLA attention data-parallel over the replica's GPUs (dp_attention.py)
    kv_copies: float = 1.0          # copies of a session's KV in the replica (MLA under TP: tp)
    _rate_max: float | None = field(default=None, repr=False)
    _replica: object = field(default=None, repr=False)        # with the KV pool as its cap
    _uncapped: object = field(default=None, repr=False)       # without it

    def __copy__(self) -> "ReplicaProfile":
        """What `copy.copy` makes (a new object sharing every attribute), without the reduce protocol:
        a profile is copied per set of targets and per count of held agent sessions."""
        new = object.__new__(type(self))
        new.__dict__.update(self.__dict__)
        return new

    # --- speed ---
    def _setup_speed(self) -> None:
        """The core's point roofline (`speed.Roofline`, as `performance` builds it for the point) at
        batches 1 and 2; the rest of the batches follow from them (module docstring)."""
        a = self.a
        self._eta = tp_efficiency_point(self.tp, self.column, a)
        self._floor = core_speed.step_floor_s(self.model, self.tp, a, engine=self.engine)
        self._host = step_overhead_s(self.model, self.engine, a)
        self._request = request_overhead_s(self.engine, a)
        link = link_word(self.column)
        wo = weight_only_factor(self.gpu, self.precision, a, engine=self.engine)
        roof = self._roof = core_speed.Roofline(self.model, self.gpu, self.tp, self.precision, self.prompt,
                                                self.output, self.kv_precision, a.mbu.value, a.mfu.value, self._eta, a, wo,
                                                self._floor, link, self._host, self._read, self._request,
                                                self.engine)
        self._comm_b = roof.comm(1)
        self._moe = self.model.is_moe and bool(self.model.active_params_b)
        mem_1, comp_1, self._tpot_1 = roof.decode(1)
        self._ttft_core = roof.prefill(self.prompt, 1)
        self._prefill_full = roof.prefill(self.prompt, 1, compute_only=True)
        if not self._moe:  # dense: memory time is affine in the batch, compute time linear
            self._pieces = dense_pieces(mem_1, roof.decode(2)[0], comp_1, self._eta, self._comm_b, self._floor,
                                        self._host, roof.per_sequence)

    def _apply_shift(self) -> None:
        """The numbers `ttft_shift` moves: TTFT, the prefill compute, the latencies at batch 1."""
        ttft = self._ttft_core
        self._ttft = ttft + self.ttft_shift
        # agent loops prefill only the uncached part: its compute shrinks as the prefill does
        share = max(0.0, self._ttft) / ttft if ttft > 0 else 1.0
        self.prefill_compute = self._prefill_full * min(1.0, share)
        self.prefill_1 = self._ttft
        # the core's own decode at batch 1, after the server's time per request
        self.e2e_1 = ttft + self._request + self.output * self._tpot_1 + self.ttft_shift

    def replica(self, capped: bool = True) -> load.Replica:
        """This replica for the continuous-batching steady state (`expert.sizing.load`), with the same
        decode step as `tpot` (affine pieces for dense models) and the KV pool as its sequence cap
        (`capped=False`: none)."""
        if self._uncapped is None:
            self._uncapped = self._uncapped_replica()
        if not capped:
            return self._uncapped
        if self._replica is None:
            self._replica = self._uncapped.capped(self.seq_mem or None)
        return self._replica

    def _uncapped_replica(self) -> load.Replica:
        pieces, decode = None, lambda b: self.tpot(max(1, int(round(b))))
        if not self._moe:
            pieces = self._pieces
            (f0, g0), (f1, g1), (f2, g2) = pieces
            decode = lambda b: max(f0 + g0 * b, f1 + g1 * b, f2 + g2 * b)  # noqa: E731 - the pieces' maximum
        uncached = max(1, round(self.prompt * (self.prefill_compute / self._prefill_full)))\
            if self._prefill_full > 0 else self.prompt
        per_token = self.prefill_compute / uncached
        return load.Replica(decode, pieces, per_token, max(self._ttft, 1e-9), uncached, self.output, self.chunk,
                            request_s=self._request, prompt_cv=self.prompt_cv)

    def tpot(self, batch: int) -> float:
        """Time per output token at `batch` sequences per replica, s."""
        if self._moe:
            return self._roof.decode(batch)[2]
        return max(a + c * batch for a, c in self._pieces)

    def e2e(self, batch: int) -> float:
        """End-to-end latency without queueing (prefill + output × TPOT) at `batch`, s."""
        if batch == 1:
            return self.e2e_1
        if self._moe:
            return self._ttft_core + self._request + self.output * self.tpot(batch) + self.ttft_shift
        return self._ttft + self._request + self.output * self.tpot(batch)

    # --- memory ---
    def need_gb(self, batch: int) -> float:
        """Per-GPU memory of the replica holding `batch` sequences, GB."""
        return self.base_gb + self.kv_seq_gb * batch

    def growth_need_gb(self, batch: int) -> float:
        """Per-GPU memory of the grown model (M5) at `batch` sequences, GB."""
        return self.growth_base_gb + self.growth_kv_seq_gb * batch

    def model_headroom(self) -> float:
        """The share of usable memory the model (weights, activation, runtime) leaves: 000 M5's
        reserve is room for the model to grow; the KV pool takes what the load needs of the rest."""
        return (self.usable_gb - self.base_gb) / self.usable_gb

    def memory_ratio(self, batch: int) -> float:
        """Needed over allowed per GPU at `batch` sequences (> 1: does not fit)."""
        r = self.need_gb(batch) / self.limit_gb
        if self.reserve:
            r = max(r, self.weights_gb / (self.gpu.memory_gb * (1 - self.reserve)))
        if self.growth is not None:
            r = max(r, self.growth_need_gb(batch) / self.usable_gb)
        return r


def _free_sequences(free_gb: float, per_seq: float) -> int:
    if free_gb <= 0:
        return 0
    if per_seq <= 0:
        return 10**9
    return int(math.floor(free_gb / per_seq + EPS))


def build_profile(model: LlmModel, gpu: Gpu, precision: str, tp: int, column: str, prompt: int, output: int,
                  context: int, slo: Targets | None, a: Assumptions,
                  growth: LlmModel | None = None, engine: str = "vllm", ttft_shift: float = 0.0,
                  kv_precision: str = "fp16", shared_tokens: int = 0, prompt_cv: float = 0.0) -> ReplicaProfile:
    """Compute the profile (memory limits, latency-limited batch) once; `engine` picks the memory budget,
    `kv_precision` (the workload's `kv_precision`) sizes the KV cache and sets what a decode step reads of
    it, as the estimate does. `shared_tokens`: a prefix every sequence of the replica shares (an agent's
    system prompt and tool definitions), held once per replica by the engine's prefix cache and counted
    in `base_gb`; each sequence then holds only the rest of its context (decode still reads the whole
    context per sequence: no shared-prefix attention kernel is assumed). An MLA model on more than one
    GPU of SGLang or vLLM takes data-parallel attention where more sequences fit (`dp_attention`). `prompt_cv`:
    how much the prompts' lengths vary (the prefill queue's M/G/1 wait, `load.Replica.prompt_cv`)."""
    args = (model, gpu, precision, tp, column, prompt, output, context, slo, a, growth, engine, ttft_shift,
            kv_precision, shared_tokens)
    p = _layout_profile(*args, "tp", prompt_cv)
    if dp_attention.dp_attention_possible(model, tp, engine):
        dp = _layout_profile(*args, "dp", prompt_cv)
        if dp.seq_mem > p.seq_mem:
            p = dp
    p._setup_speed()
    p._apply_shift()
    p.rate_max()  # the uncapped replica and its capacity, before any copy: every copy shares them
    return p if slo is None else with_target(p, slo)


def _layout_profile(model, gpu, precision, tp, column, prompt, output, context, slo, a, growth, engine, ttft_shift,
                    kv_precision, shared_tokens, layout, prompt_cv=0.0) -> ReplicaProfile:
    """The memory side of `build_profile` under attention `layout` ("tp" or "dp")."""
    p = ReplicaProfile(model, gpu, precision, tp, column, prompt, output, context, slo, a, growth, ttft_shift,
                       kv_precision, prompt_cv)
    p.chunk = load.chunk_tokens(engine, gpu, prompt)[0]
    p.engine, p.attention = engine, layout
    # the weights a step reads, kept for the roofline; their all-weights term is `weights_gb` (dense models)
    p._read = read = core_speed.read_terms(model, precision, a)
    attention = dp_attention.attention_params_b(model) * bytes_per_param(precision, a).value
    w = dp_attention.weights_per_gpu_gb(read[2] if read[2] is not None else weights_gb(model, precision, a),
                                        attention, tp, layout)
    _, act, over, pool = budget_sizes(engine, model, gpu, tp, w, context, a)
    p.weights_gb = w
    heads = kv_heads_per_gpu(model, tp)
    share = dp_attention.kv_share_per_gpu(model, tp, layout, heads)
    p.kv_copies = 1.0 if layout == "dp" else max(1.0, heads * tp / model.kv_heads)
    shared = min(shared_tokens, context)
    # a shared prefix: once per replica under TP (split like any KV), once per GPU's own cache under DP
    shared_share = 1.0 if layout == "dp" else heads / model.kv_heads
    p.shared_kv_gb = kv_cache_gb(model, shared, 1, kv_precision, a) * shared_share if shared else 0.0
    p.base_gb = w + act + over + p.shared_kv_gb
    p.kv_seq_gb = kv_cache_gb(model, context - shared, 1, kv_precision, a) * share
    p.usable_gb = w + act + over + pool  # engines.Budget.usable_gb
    if growth is None:
        p.reserve = a.vram_reserve.low if model.params_b < a.growth_context_below_b.value else 0.0
        p.limit_gb = p.usable_gb
        room = p.weights_gb <= gpu.memory_gb * (1 - p.reserve) + EPS
        p.seq_mem = _free_sequences(p.limit_gb - p.base_gb, p.kv_seq_gb) if room else 0
    else:
        p.reserve = 0.0
        p.limit_gb = p.usable_gb
        g_act = (a.activation_moe_gib if growth.is_moe else a.activation_dense_gib).value * GIB
        p.growth_base_gb = weights_gb(growth, precision, a) / tp + g_act + over
        g_ctx = min(context, growth.max_context)
        p.growth_kv_seq_gb = kv_cache_gb(growth, g_ctx, 1, kv_precision, a) * kv_heads_per_gpu(growth, tp) \
            / growth.kv_heads
        p.seq_mem = min(_free_sequences(p.usable_gb - p.base_gb, p.kv_seq_gb),
                        _free_sequences(p.usable_gb - p.growth_base_gb, p.growth_kv_seq_gb))
    return p


@inputs
class Sizing:
    """What a search's replica profiles read besides the GPU, precision, TP degree and column (`sized`):
    the key of the profile cache (`feasibility.Context.profile`), so two searches that agree on it
    share their profiles. `slo` None: the profile without targets, of which each set of targets
    makes a copy (`with_target`)."""

    model: LlmModel
    growth: LlmModel | None
    prompt: int
    output: int
    context: int
    engine: str
    kv_precision: str | None        # the stated KV precision; None: each candidate's own (`kv_precision_at`)
    a: Assumptions
    prefill: StepPrefill | None     # an agent loop's step (`agent_demand.step_prefill`), None without one
    slo: Targets | None
    shared: int = 0                 # tokens of a prefix all sequences share (an agent's system prompt)
    prompt_cv: float = 0.0          # how much the prompts' lengths vary (the workload's `prompt_cv`)


def sized(s: Sizing, gpu: Gpu, precision: str, tp: int, column: str) -> ReplicaProfile:
    """`build_profile` of these inputs; an agent loop's step prefills only its uncached tokens
    (`agent_demand.prefill_shift`)."""
    kv = kv_precision_at(precision, s.kv_precision)
    shift = 0.0 if s.prefill is None else prefill_shift(s.prefill, s.model, gpu, tp, precision, column, s.prompt,
                                                        s.a)
    return build_profile(s.model, gpu, precision, tp, column, s.prompt, s.output, s.context, s.slo, s.a, s.growth,
                         s.engine, shift, kv, s.shared, s.prompt_cv)
