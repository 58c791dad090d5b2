"""Corrections to the roofline of `speed.py`, each from its own sources (constants.py):

- **FP8 prefill.** A prompt's GEMMs have thousands of rows (its tokens): the large-matmul shapes where
  Hopper's FP8 tensor cores run `fp8_prefill_speedup` × the FP16 rate (cuBLAS 12.9: 1.75 × BF16; band
  1.6-2.0 from FlashAttention-3's FP8/FP16 ratio to the datasheet's 2 ×), capped at the GPU's FP8 peak.
  A decode step's GEMMs have as many rows as sequences decode, and a whole serving step carries
  attention, norms and sampling besides: it keeps document 000 G3's production gain (+35 %,
  `speed.compute_tflops`), which fits the static-batch throughput rows. Only GPUs with native FP8
  (`gpu.fp8_tflops`); elsewhere FP8 is weight-only and computes at FP16.
- **Eager decode steps.** An engine that launches each decode step's kernels from the host, instead of
  replaying a captured CUDA graph, adds `eager_decode_ms_per_layer` × layers to every step, whatever
  the batch (SGLang PR #1401 measured the difference on Llama-3-8B at batch 1: +27.5 to +69 µs per
  layer). TensorRT-LLM's C++ executor, the runtime of NIM's TensorRT-LLM profiles, has CUDA graphs off by
  default (`EAGER_DECODE`; TensorRT-LLM ≥ 1.0's PyTorch workflow captures CUDA graphs by default, PR
  #5480, so there it is a pessimistic assumption); vLLM, SGLang and llama.cpp capture decode steps in
  CUDA graphs. NIM
  1.8.0's Llama-3.1-8B FP8 at concurrency 1 decodes in 4.53-5.06 ms against a 3.3 ms roofline (32
  layers × 27.5 µs = 0.88 ms), Llama-3.3-70B FP8 on 2 × H100 in 18.6-19.6 against 16.1 (80 layers:
  2.2 ms). The overhead adds to the decode step (`speed._scenario`), so the continuous-batching steady
  state (`load.py`) carries it in every step, through the replica's affine pieces.
- **A server's request.** A serving engine's TTFT is the prefill plus what the server does around it:
  tokenisation, scheduling, the first step's launch, detokenisation and the streamed response
  (`request_overhead_ms`, 4.1-7.3 ms, measured on TensorRT-LLM: NIM 1.8.0 at concurrency 1 and
  TensorRT-LLM 0.5's offline runtime; vLLM and SGLang assumed alike). Every engine named adds it once per
  request (`Roofline.ttft`); no engine named, or `transformers` (a `generate` call, no server): the
  roofline alone. It joins the prefill lane's service in the steady state (`load.py`): a pessimism of
  a few ms per request where the tokenizer runs beside the GPU.
- **A closed loop's cohort on vLLM.** N requests started together wait for the work on the prompts
  admitted before them (`load.cohort_wait_s`). On TensorRT-LLM (NIM) that work is the server's, a cost
  per prompt token fitted on NIM's 8B (`cohort_prompt_s`). vLLM prefills the prompts ahead on the GPU
  before a new one (`SERIAL_PREFILL`): a prompt that queues waits for their GPU prefill, and one queues
  with the chance u that the prefill lane is busy (M/D/1: P(wait) = u), so each prompt ahead costs
  u × its GPU prefill (`load.cohort_prompt_wait_s`). Mistral-7B on one RTX 4090 (256/128 tokens, mean
  TTFT 63-667 ms at 4-48 in flight) follows it within −9 to +9 %, where NIM's server cost read −46 to
  −81 % from 16 in flight; the same wait on NIM's TensorRT-LLM rows takes the 70B's median from 21 to
  39 % (up to 8 × at 5 000-token prompts; docs/accuracy.md), so TensorRT-LLM keeps the server's cost.
  SGLang and llama.cpp: no closed-loop TTFT row; NIM's path.
- **vLLM's host time on a step.** `host_ms_per_step` and `host_ms_per_sequence` (s per decoding sequence,
  `host_per_sequence_s`) are 0: current vLLM overlaps its scheduling and output processing with the GPU
  (async scheduling). An older vLLM waits for them on every decode step (`engine_versions.py`: the
  accuracy rows and an audit that state the version).
"""

from __future__ import annotations

from expert.catalog.models import Gpu, LlmModel
from expert.sizing.constants import TRTLLM_GRAPHS, Assumptions, resolve

# Engines whose decode steps run without CUDA graphs by default, with the source.
EAGER_DECODE = {"tensorrt-llm": TRTLLM_GRAPHS}
# Engines whose MoE block runs every expert hit as kernels of its own (a loop over the experts), with the source;
# the serving engines run a layer's routed experts in grouped kernels (`kernel_floor_ms_per_moe_layer`).
UNFUSED_MOE = {"transformers": "huggingface/transformers@00d4b3d2:src/transformers/models/mixtral/modeling_mixtral.py "
                               "(MixtralSparseMoeBlock.forward: `for expert_idx in expert_hit`, each expert's MLP "
                               "and an index_add_)"}
# Engines whose new prompt waits for the GPU prefill of the prompts ahead of it, with the source.
SERIAL_PREFILL = {"vllm": "ai-dynamo/aiconfigurator@095f58a51:aic-core/src/aiconfigurator_core/sdk/backends/"
                          "vllm_backend.py (_ttft_queuing_factor: 'vLLM v1 serialises prefill "
                          "(max_num_partial_prefills=1): requests queue behind the active prefill, so TTFT grows "
                          "with concurrency'); measured: https://mushfiqrahman.dev/?p=1668 (docs/accuracy.md)"}


def prefill_tflops(gpu: Gpu, precision: str, assumptions: Assumptions | None = None) -> float | None:
    """Dense TFLOPS of an FP8 prefill on a GPU with native FP8: FP16 × `fp8_prefill_speedup`, at most
    the FP8 peak (H100 SXM: 989.4 × 1.75 = 1 731.5 TFLOPS); None otherwise (the prefill computes at
    `speed.compute_tflops`)."""
    if precision != "fp8" or not gpu.fp8_tflops:
        return None
    return min(gpu.fp8_tflops, gpu.fp16_tflops * resolve(assumptions).fp8_prefill_speedup.value)


def step_overhead_s(model: LlmModel, engine: str | None, assumptions: Assumptions | None = None,
                    end: str = "value") -> float:
    """Host time one decode step of `engine` adds whatever its batch, s: layers × `eager_decode_ms_per_layer`
    for the engines of `EAGER_DECODE`; for vLLM, the host's work on a step the GPU waits for
    (`host_ms_per_step`: 0 since async scheduling, vLLM < 0.12 about 2 ms); else 0 (no engine named: the
    CUDA-graph engines' roofline). `end` picks the band's low/high (Llama-3.1-8B on TensorRT-LLM: 32 × 0.0275
    ms = 0.88 ms)."""
    a = resolve(assumptions)
    if engine == "vllm":
        return getattr(a.host_ms_per_step, end) / 1e3
    if engine not in EAGER_DECODE:
        return 0.0
    return model.layers * getattr(a.eager_decode_ms_per_layer, end) / 1e3


def host_per_sequence_s(engine: str | None, assumptions: Assumptions | None = None, end: str = "value") -> float:
    """Host time a decode step of vLLM adds per decoding sequence that the GPU waits for, s
    (`host_ms_per_sequence`: 0 since async scheduling; vLLM < 0.12: 0.02-0.09 ms); 0 for other engines."""
    return getattr(resolve(assumptions).host_ms_per_sequence, end) / 1e3 if engine == "vllm" else 0.0


# Engines without a server around the model (a `generate` call): no per-request overhead.
NO_SERVER = (None, "transformers")


def request_overhead_s(engine: str | None, assumptions: Assumptions | None = None, end: str = "value") -> float:
    """Time a serving `engine` adds to a request's first token, s: `request_overhead_ms` (point 6.5 ms,
    band 4.1-7.3) for every engine named except `NO_SERVER`, else 0. `end` picks the band's low/high."""
    if engine in NO_SERVER:
        return 0.0
    return getattr(resolve(assumptions).request_overhead_ms, end) / 1e3


def cohort_prompt_s(prompt: int, assumptions: Assumptions | None = None, end: str = "value") -> float:
    """The server's time on one prompt of `prompt` tokens that a closed-loop cohort's later requests wait
    for, s: `cohort_admit_us_per_token` × prompt (point 10 µs: 1 000 tokens → 10 ms; `load.cohort_wait_s`)."""
    return getattr(resolve(assumptions).cohort_admit_us_per_token, end) * prompt / 1e6


def cohort_prompts_max(prompt: int, chunk: int, assumptions: Assumptions | None = None, end: str = "value") -> float:
    """The most prompts of `prompt` tokens of a closed-loop cohort that return together (`load.cohort_size`):
    1 + `cohort_budget_steps` × the engine's token budget per step `chunk` / prompt (point 24 steps: 8 192-token
    budget, 5 000-token prompts → 1 + 24 × 8 192 / 5 000 = 40.3)."""
    return 1 + getattr(resolve(assumptions).cohort_budget_steps, end) * chunk / max(prompt, 1)


__all__ = ["EAGER_DECODE", "NO_SERVER", "SERIAL_PREFILL", "UNFUSED_MOE", "cohort_prompt_s", "cohort_prompts_max",
           "host_per_sequence_s", "prefill_tflops", "request_overhead_s", "step_overhead_s"]
