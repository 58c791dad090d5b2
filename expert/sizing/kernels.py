"""Quantised kernels as engines run them: which GEMM kernel a precision gets on a GPU, and what it costs.

A precision names how the weights are stored (`weight_format.py`); the kernel says how a step computes
with them. Two families, from vLLM's quantisation hardware table (docs.vllm.ai v0.14.0,
features/quantization, "Supported Hardware") and its FP8 page (v0.32.0, quantization/llm_compressor/fp8):

- **W8A8 / FP4 on tensor cores** (`weight_only=False`): weights *and* activations in the low format, the
  GEMMs on the GPU's INT8, FP8 or FP4 tensor cores. Weights are read at their bytes at the full MBU;
  compute gains what document 000 G3 observed for FP8 in production (+20-50 %), never more than the
  format's peak (`speed.compute_tflops`): the GEMMs run at twice the 16-bit rate, the rest of a step does
  not. INT8 W8A8 (SmoothQuant, arXiv:2211.10438: up to 1.56× faster than FP16 end to end) runs on
  NVIDIA Turing, Ampere, Ada and Hopper; vLLM lists no AMD GPU and no Blackwell column for it, so those
  run int8 weight-only (W8A16). FP8 W8A8 needs native FP8 (Ada, Hopper, Blackwell, MI300); FP4 needs
  FP4 tensor cores (`Gpu.fp4_tflops`: Blackwell, MI355X).
- **Weight-only** (`weight_only=True`, W4A16 / W8A16): 16-bit activations, the weights dequantised in the
  kernel (Marlin/Machete: GPTQ/AWQ int4 on Ampere-Hopper, FP8 on Turing/Ampere, MXFP4 for gpt-oss off
  Blackwell; gpt-fast, llama.cpp and transformers run int8 this way too). Both the weight reads and the
  compute run at `weight_only_efficiency` (0.75): Marlin's kernel alone reaches "essentially ideal"
  speedups up to batch 16-32 on a large matrix (IST-DASLab/marlin README), but the project's measured rows
  end to end do not (gpt-fast's int8 Llama-2-7B on an A100 reads its weights at 0.74 of its FP16 rate,
  tests/data/measurements.yaml), and the dequantisation costs compute at large batches (QServe
  arXiv:2405.04532). The KV cache is read at the full MBU: it is not dequantised by these kernels.
"""

from __future__ import annotations

from dataclasses import dataclass

from expert.catalog.models import Gpu
from expert.sizing.constants import Assumptions, resolve

VLLM_TABLE = "docs.vllm.ai v0.14.0 features/quantization, Supported Hardware (INT8 W8A8: Turing-Hopper, no AMD)"
VLLM_FP8 = "docs.vllm.ai v0.32.0 quantization/llm_compressor/fp8 (W8A8 on Ada/Hopper/Blackwell, Marlin W8A16 below)"
FP8_MARLIN_ARCHITECTURES = ("Turing", "Ampere")
"""NVIDIA architectures without FP8 tensor cores on which vLLM serves FP8 checkpoints weight-only with FP8
Marlin (`VLLM_FP8`: "FP8 models will run on compute capability >= 7.5 (Turing) as weight-only W8A16";
vllm-project/vllm#5975, merged 2024-07-03: FP8 Marlin for Ampere, up to 2× FP16 when memory-bound). MoE
experts too since Marlin's fused MoE took FP8 (vllm-project/vllm#54318, 2026-09-01: an FP8 MoE on SM80 with
`--moe-backend marlin`; #17579 and sglang#989 record that in 2024-2025 only dense models ran so)."""
INT8_W8A8_ARCHITECTURES = ("Turing", "Ampere", "Ada", "Hopper")
"""NVIDIA architectures on which engines run INT8 W8A8 GEMMs (`VLLM_TABLE`)."""
INT8_W8A8_ENGINES = (None, "vllm", "sglang", "tensorrt-llm")
"""Engines serving INT8 checkpoints as W8A8 (vLLM compressed-tensors, SGLang, TensorRT-LLM SmoothQuant);
None is the plain roofline of the configurator's default engine (vLLM). The others (llama.cpp, transformers,
gpt-fast) run int8 weight-only."""


@dataclass(frozen=True)
class Kernel:
    """The GEMM kernel family one precision runs on one GPU (module docstring)."""

    name: str  # W<weight bits>A<activation bits> and the format, as engines' docs name the kernels
    weight_only: bool
    compute: str  # the tensor-core format of the GEMMs: fp16, tf32, fp8, int8, fp4
    source: str


def kernel(gpu: Gpu, precision: str, engine: str | None = None) -> Kernel:
    """The kernel `precision` runs as on `gpu` under `engine` (module docstring)."""
    if precision in ("fp16", "bf16"):
        return Kernel("16-bit", False, "fp16", "no quantisation")
    if precision == "fp32":
        return Kernel("TF32", False, "tf32", "no quantisation")
    if precision == "fp8":
        if gpu.fp8_tflops:
            return Kernel("W8A8 FP8", False, "fp8", VLLM_FP8)
        return Kernel("W8A16 FP8 Marlin", True, "fp16", VLLM_FP8)
    if precision == "int8":
        if (gpu.int8_tops and gpu.vendor == "NVIDIA" and gpu.architecture.startswith(INT8_W8A8_ARCHITECTURES)
                and engine in INT8_W8A8_ENGINES):
            return Kernel("W8A8 INT8", False, "int8", VLLM_TABLE)
        return Kernel("W8A16 INT8", True, "fp16", VLLM_TABLE)
    if precision == "mxfp4":
        if gpu.fp4_tflops:
            return Kernel("MXFP4 FP4 tensor-core", False, "fp4", "Gpu.fp4_tflops (Blackwell, MI355X)")
        return Kernel("W4A16 MXFP4 Marlin", True, "fp16",
                      "vllm-project/recipes OpenAI/GPT-OSS.md: Marlin MXFP4 MoE off Blackwell")
    if precision == "int4":
        return Kernel("W4A16 INT4 Marlin", True, "fp16", "IST-DASLab/marlin README; " + VLLM_TABLE)
    raise ValueError(f"unknown precision {precision!r}")


def fp8_served(gpu: Gpu) -> bool:
    """Whether engines serve FP8 weights on `gpu`: natively (`fp8_tflops`, W8A8) or, on NVIDIA Turing and
    Ampere, weight-only with FP8 Marlin (`FP8_MARLIN_ARCHITECTURES`). An FP8 KV cache likewise: stored in FP8
    and converted to 16 bits for the attention (vllm-project/vllm#3965, 2024-04-10: FP8 KV on an A100
    "upconverted to fp16 for computation"; #24577, merged 2025-09-10: FP8 KV for FlashInfer and Triton on
    GPUs below Blackwell, an A100 holding twice the tokens)."""
    return bool(gpu.fp8_tflops) or (gpu.vendor == "NVIDIA" and gpu.architecture.startswith(FP8_MARLIN_ARCHITECTURES))


def peak_tflops(gpu: Gpu, k: Kernel) -> float | None:
    """The dense tensor peak of a kernel's low-precision format on `gpu` (None for 16-bit and TF32)."""
    return {"fp8": gpu.fp8_tflops, "int8": gpu.int8_tops, "fp4": gpu.fp4_tflops}.get(k.compute)


def weight_only_factor(gpu: Gpu, precision: str, assumptions: Assumptions | None = None, end: str = "value",
                       engine: str | None = None) -> float:
    """× MBU on weight reads and × MFU of the kernel: 1 unless it is weight-only, then
    `weight_only_efficiency` (module docstring); `end` picks the band's low/high."""
    if not kernel(gpu, precision, engine).weight_only:
        return 1.0
    return getattr(resolve(assumptions).weight_only_efficiency, end)


def quantised_kernel(gpu: Gpu, precision: str, engine: str | None = None) -> str | None:
    """The kernel's name for a quantised precision, as reports print it; None for 16-bit and FP32."""
    k = kernel(gpu, precision, engine)
    return None if k.compute in ("fp16", "tf32") and not k.weight_only else k.name
