"""Model stack of a system: which catalog models run on it, at which precision, context and concurrency.

For each catalog model (generic ones left out) the best-quality precision whose weights and runtime
fit is taken (16-bit, then FP8 where the GPU has it natively, then INT8; 000 Q2; a model's native
format first, `weight_format.from_native`), the tensor-parallel
degree is the smallest that fits (`memory.choose_tensor_parallel`), and the concurrency is the most
sequences of `context` tokens all replicas hold together (`memory.max_sequences` × replicas). Memory
uses the sizing core's public functions with vLLM's budget (90 % of GPU memory); serving engines
with another budget are the serving-memory branch's concern. Memory only: speed and latency are
the configurator's.
"""

from __future__ import annotations

from dataclasses import dataclass

from expert.catalog.models import Gpu, LlmModel
from expert.sizing.constants import Assumptions
from expert.sizing.memory import choose_tensor_parallel, inference_memory, max_sequences
from expert.sizing.weight_format import from_native

CONTEXTS = (8192, 32768)
"""Contexts the stack is shown at (capped at each model's maximum)."""


@dataclass(frozen=True)
class StackEntry:
    """One model on the system: precision, TP degree, replicas, and concurrent sequences per context."""

    model: str
    precision: str
    tensor_parallel: int
    replicas: int
    sequences: dict[int, int]


def _precisions(gpu: Gpu, model: LlmModel) -> tuple[str, ...]:
    ladder = ("fp16", "fp8", "int8") if gpu.fp8_tflops else ("fp16", "int8")
    return from_native(model, ladder)  # a native format (gpt-oss MXFP4, DeepSeek FP8) first


def model_stack(models: list[LlmModel], gpu: Gpu, count: int, contexts: tuple[int, ...] = CONTEXTS,
                assumptions: Assumptions | None = None) -> list[StackEntry]:
    """The models that run on `count` × `gpu` (module docstring), largest first."""
    out = []
    for model in models:
        if model.generic:
            continue
        ctxs = sorted({min(c, model.max_context) for c in contexts})
        for precision in _precisions(gpu, model):
            tp = choose_tensor_parallel(model, gpu, count, precision, ctxs[0], 1, assumptions=assumptions)
            if not inference_memory(model, gpu, count, tp, precision, ctxs[0], 1, assumptions=assumptions).fits:
                continue
            seqs = {c: max_sequences(model, gpu, count, tp, precision, c, assumptions=assumptions) * (count // tp)
                    for c in ctxs}
            out.append(StackEntry(model.id, precision, tp, count // tp, seqs))
            break
    return sorted(out, key=lambda e: (-next(m.params_b for m in models if m.id == e.model), e.model))
