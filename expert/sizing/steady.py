"""The core's replica for the continuous-batching model (`load.py`): decode step, prefill compute per
token and prefill alone from the point roofline (`speed.Roofline`, as `speed.performance` builds it for
its point values), the engine's token budget per step and the KV pool's sequences.

For dense models the decode step is max(floor, memory, compute) with memory affine and compute
linear in the batch (plus the all-reduce traffic, linear): its three affine pieces come from the
roofline at batches 1 and 2, exactly as `configurator/profile.py` derives them, each raised by the
engine's per-step host overhead (`engine_speed.step_overhead_s`: TensorRT-LLM launches its steps
without CUDA graphs). Each TTFT carries the server's time per request
(`engine_speed.request_overhead_s`, `Replica.request_s`), as `speed.performance`'s does. MoE models
(expert coverage grows with the batch) pass `decode` only and are solved by iteration.
"""

from __future__ import annotations

import math

from expert.catalog.models import Gpu, LlmModel
from expert.sizing import load, speed
from expert.sizing.constants import Assumptions, resolve
from expert.sizing.kernels import weight_only_factor
from expert.sizing.engine_speed import SERIAL_PREFILL, cohort_prompt_s, cohort_prompts_max, request_overhead_s, \
    step_overhead_s
from expert.sizing.parallel import column_for, tp_efficiency
from expert.sizing.results import Performance


def dense_pieces(mem_1: float, mem_2: float, comp_1: float, eta: float, comm_b: float, floor: float,
                 overhead: float = 0.0, per_sequence: float = 0.0) -> list[tuple[float, float]]:
    """(a, c) with decode(b) = max_i a_i + c_i·b from the memory and compute times at batches 1 and 2
    (module docstring); the host's time on a step, `overhead` (s per step) and `per_sequence` (s per decoding
    sequence), raises every piece."""
    mem_b = mem_2 - mem_1
    mem_a = mem_1 - mem_b
    return [(floor + overhead, per_sequence), (mem_a / eta + overhead, mem_b / eta + comm_b + per_sequence),
            (overhead, comp_1 / eta + comm_b + per_sequence)]


def core_replica(model: LlmModel, gpu: Gpu, tp: int, precision: str, prompt: int, output: int,
                 kv_precision: str = "fp16", engine: str = "vllm", cap: float | None = None,
                 interconnect: str | None = None, assumptions: Assumptions | None = None,
                 uncached_prompt: int | None = None, prompt_cv: float = 0.0) -> load.Replica:
    """One replica of the core at its point values, for `load.steady` / `load.closed_loop`;
    `uncached_prompt` is what each request prefills (default: the whole prompt); `prompt_cv` the coefficient of
    variation of the prompts' lengths (0: all alike)."""
    a = resolve(assumptions)
    eta = tp_efficiency(tp, column_for(gpu, interconnect), a)[0]
    wo = weight_only_factor(gpu, precision, a, engine=engine)
    floor = speed.step_floor_s(model, tp, a, engine=engine)
    host = step_overhead_s(model, engine, a)

    roof = speed.Roofline(model, gpu, tp, precision, prompt, output, kv_precision, a.mbu.value, a.mfu.value, eta,
                          a, wo, floor, interconnect, host, request=request_overhead_s(engine, a), engine=engine)
    mem_1, comp_1, _ = roof.decode(1)
    pieces = None
    if model.is_moe and model.active_params_b:
        def decode(b):
            return roof.decode(max(1, int(round(b))))[2]
    else:
        pieces = dense_pieces(mem_1, roof.decode(2)[0], comp_1, eta, roof.comm(1), floor, host, roof.per_sequence)

        def decode(b):
            return max(x + c * b for x, c in pieces)
    chunk, _ = load.chunk_tokens(engine, gpu, prompt)
    uncached = prompt if uncached_prompt is None else max(1, uncached_prompt)
    return load.Replica(decode, pieces, roof.prefill(prompt, 1, compute_only=True) / prompt,
                        roof.prefill(prompt, 1), uncached, output, chunk, cap, roof.request,
                        cohort_prompt_s(uncached, a), cohort_prompts_max(uncached, chunk, a),
                        engine in SERIAL_PREFILL, prompt_cv)


def loaded_performance(model: LlmModel, gpu: Gpu, count: int = 1, tensor_parallel: int = 1,
                       precision: str = "fp16", batch: int = 1, prompt_tokens: int | None = None,
                       output_tokens: int | None = None, kv_precision: str = "fp16",
                       interconnect: str | None = None, assumptions: Assumptions | None = None,
                       engine: str = "vllm", max_sequences: float | None = None,
                       rate_rps: float | None = None, prompt_cv: float = 0.0, recv_interval: int = 1) -> Performance:
    """`speed.performance` with its continuous-batching fields: the steady state (`load.py`) of one
    replica of `engine` whose KV pool holds `max_sequences`, at `rate_rps` requests/s per replica when
    given, else with `batch` requests in flight (a closed loop, as NIM/AIPerf benchmarks); prompts whose
    lengths vary by `prompt_cv` (coefficient of variation) queue M/G/1; a closed loop's arrivals wait for a
    server that takes in requests every `recv_interval` decode steps (`load.receive_wait_s`; 1: every step)."""
    a = resolve(assumptions)
    p = speed.performance(model, gpu, count, tensor_parallel, precision, batch, prompt_tokens, output_tokens,
                          kv_precision, interconnect, a, engine)
    prompt = int(a.default_prompt_tokens.value) if prompt_tokens is None else prompt_tokens
    output = int(a.default_output_tokens.value) if output_tokens is None else output_tokens
    r = core_replica(model, gpu, tensor_parallel, precision, prompt, output, kv_precision, engine, max_sequences,
                     interconnect, a, prompt_cv=prompt_cv)
    top = load.rate_max(r)
    if rate_rps is not None:
        st = load.steady(r, rate_rps)
        regime = f"at {rate_rps:.3g} req/s per replica"
    else:
        st = load.closed_loop(r, batch, top)
        per_prompt = load.cohort_prompt_wait_s(r, st)
        st = st._replace(ttft_mean_s=load.closed_loop_ttft_s(st, batch, per_prompt, r.cohort_max, recv_interval),
                         ttft_p95_s=load.closed_loop_ttft_p95_s(st, batch, per_prompt, r.cohort_max, recv_interval))
        regime = f"at batch {batch} in flight ({st.rate_rps:.3g} req/s per replica)" + (
            f", receiving every {recv_interval} steps" if recv_interval > 1 else "")
    ok = st.stable or rate_rps is None
    finite = lambda x: x if ok and math.isfinite(x) else -1.0  # noqa: E731 - JSON has no infinity: -1 = unstable
    return p.model_copy(update={
        "tpot_interleaved_s": finite(st.step_s), "tpot_steady_s": finite(st.step_s),
        "ttft_steady_s": finite(st.ttft_mean_s), "ttft_steady_p95_s": finite(st.ttft_p95_s),
        "admission_wait_s": finite(st.admission_s),
        "steady_rate_rps": st.rate_rps, "steady_batch": finite(st.batch), "prefill_share": st.prefill_share,
        "rate_max_rps": top, "regime": regime + (f", prompt lengths CV {prompt_cv:g}" if prompt_cv else "")
        + ("" if ok else ": beyond capacity")})


def without_operating_point(p: Performance, room: int, batch: int, rate_rps: float | None) -> Performance:
    """`p` where the configuration has no operating point (QA 45 #9): its KV pool holds no sequence
    (`room` 0: the model does not fit), or fewer than the closed loop's `batch` in flight (no `rate_rps`).
    The steady fields are -1 as for an unstable state (the contract's "no steady state"), `rate_max_rps` 0
    where nothing fits (else what the pool it has serves), `operating_point` false and `regime` says why;
    `p` unchanged where the point exists."""
    if room >= 1 and (rate_rps is not None or batch <= room):
        return p
    why = ("no operating point: room for 0 sequences, the model does not fit" if room < 1 else
           f"no operating point: room for {room} sequence{'' if room == 1 else 's'} per replica, fewer than the "
           f"batch of {batch} in flight")
    unstable = dict.fromkeys(("tpot_interleaved_s", "tpot_steady_s", "ttft_steady_s", "ttft_steady_p95_s",
                              "steady_batch"), -1.0)
    return p.model_copy(update={**unstable, "steady_rate_rps": 0.0, "prefill_share": 0.0, "operating_point": False,
                                "rate_max_rps": 0.0 if room < 1 else p.rate_max_rps, "regime": why})
