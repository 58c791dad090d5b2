"""Memory lines whose printed parts add up to the printed total (QA 44 D7).

A replica split over several GPUs holds activations and runtime on each of them, and may hold some
memory more than once: KV heads or an MLA latent copied on each GPU of the tensor-parallel group, or the
attention weights replicated under data-parallel attention (`expert.sizing.memory.inference_memory`).
Its `total_gb` counts all of it. The lines print each part as the total counts it: the per-GPU runtime
summed over the GPUs (the per-GPU figure beside it), and what is held more than once as its own part, so
weights + KV cache + overhead + copies = total as printed, up to rounding.
"""

from __future__ import annotations

from expert.messages import t as msg
from expert.report.numbers import dec

COPIES_MIN_GB = 0.05  # a part that rounds to 0.0 at one decimal is not printed


def addends(weights_gb: float, kv_cache_gb: float, per_gpu_gb: float, total_gb: float, gpus: int) -> dict:
    """The report memory's `overhead_gpus` (GPUs whose per-GPU `overhead_gb` the total counts; None when 1)
    and `copies_gb` (total − weights − KV cache − overhead × GPUs: memory held more than once; None below
    0.05 GB)."""
    copies = total_gb - weights_gb - kv_cache_gb - per_gpu_gb * gpus
    return {"overhead_gpus": gpus if gpus > 1 else None, "copies_gb": copies if copies >= COPIES_MIN_GB else None}


def per_gpu_part(label: str, per_gpu_gb: float, gpus: int | None, lang: str) -> str:
    """`overhead 24.4 GB (6.10 GB per GPU × 4)`, or `overhead 6.1 GB` on one GPU: the per-GPU figure with
    two decimals, so that it times the GPUs gives the sum as printed."""
    if not gpus or gpus <= 1:
        return f"{label} {dec(per_gpu_gb, lang)} GB"
    return msg("report.memory.per_gpu", lang, label=label, total=dec(per_gpu_gb * gpus, lang),
               each=dec(per_gpu_gb, lang, 2), gpus=gpus)


def copies_part(copies_gb: float | None, lang: str) -> list[str]:
    """`[copies on several GPUs 0.7 GB]`, or [] when nothing is held twice."""
    return [f"{msg('report.memory.copies', lang)} {dec(copies_gb, lang)} GB"] if copies_gb else []


def estimate_parts(m) -> list[str]:
    """The `estimate` memory parts (English) of an inference or fine-tuning memory record: weights, KV
    cache, activations and overhead per GPU × the GPUs the total counts (TP, or a fine-tuning run's
    count), the copies, and a fine-tuning run's optimizer and gradients."""
    gpus = getattr(m, "tensor_parallel", None) or getattr(m, "count", 1)
    copies = addends(m.weights_gb + m.optimizer_gb + m.gradients_gb, m.kv_cache_gb, m.activation_gb + m.overhead_gb,
                     m.total_gb, gpus)
    parts = [f"weights {m.weights_gb:.1f} GB", f"KV cache {m.kv_cache_gb:.1f} GB",
             per_gpu_part("activations", m.activation_gb, gpus, "en"),
             per_gpu_part("overhead", m.overhead_gb, gpus, "en")]
    if m.optimizer_gb:
        parts += [f"optimizer {m.optimizer_gb:.1f} GB", f"gradients {m.gradients_gb:.1f} GB"]
    return parts + copies_part(copies["copies_gb"], "en")
