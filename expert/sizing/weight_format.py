"""Weight formats: the one precision model of the sizing core (memory, speed, configurator, estimate).

A precision names a weight format (`catalog.models.WeightFormat`); its bytes per parameter are in
`constants.bytes_per_param`, which parameters it covers in `memory.kept_16bit_params_b`, and whether a
GPU computes it natively or dequantises it on the fly (weight-only) in `speed.weight_only`. A model may
ship in a format of its own (`LlmModel.native_precision`: gpt-oss MXFP4 experts, DeepSeek/Kimi block
FP8): that format is the precision when a workload states none, and the search never goes *above* it
(a 16-bit copy of gpt-oss is the same model at twice the bytes). A stated precision stays a constraint:
it is never replaced by the native one.

Speed: a native format is read at its bytes; it computes at the GPU's 16-bit rate (FP8 at the observed
FP8 gain), and a GPU without the format's tensor cores dequantises it on the fly (weight-only
efficiency). FP4 kernel speed and W8A8/W4A16 kernels are issue 32's, on this same precision list.
"""

from __future__ import annotations

from expert.catalog.models import LlmModel

QUALITY_ORDER = {"fp32": 0, "bf16": 1, "fp16": 1, "fp8": 2, "int8": 3, "int4": 4, "mxfp4": 4}
"""Quality rank, best first (000 Q2: FP8/INT8 lose little, INT4 more); mxfp4 ranks with the 4-bit formats."""


def default_precision(model: LlmModel) -> str:
    """The precision a model runs at when none is stated: its native format, else 16-bit (fp16)."""
    return model.native_precision or "fp16"


def from_native(model: LlmModel, ladder: tuple[str, ...]) -> tuple[str, ...]:
    """`ladder` (best quality first) for a model with a native format: the native format first, then
    only the precisions of lower quality than it (never a 16-bit copy, never another 4-bit format beside
    MXFP4); unchanged for a model without one."""
    native = model.native_precision
    if not native:
        return ladder
    rank = QUALITY_ORDER[native]
    return (native, *(p for p in ladder if QUALITY_ORDER[p] > rank))
