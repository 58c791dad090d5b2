"""Hand-built catalog objects for the sizing tests (the core takes objects, never loads the catalog).

Values are copied from docs/reference/gpu-specs.csv (`*_num` columns: dense FLOPS, vendor bandwidth,
TDP) and docs/reference/model-architectures.csv (the published config.json values).
"""

from __future__ import annotations

from expert.catalog.models import Gpu, Interconnect, LlmModel

GPU_SRC = {"default": "docs/reference/gpu-specs.csv"}
MODEL_SRC = {"default": "docs/reference/model-architectures.csv"}


def _gpu(id, name, memory_gb, memory_type, bw, fp16, fp8, int8, tdp, link, form="pcie",
         grade="datacenter", link_bw=None, link_max=None, arch="x", year=2022) -> Gpu:
    return Gpu(id=id, name=name, vendor="NVIDIA" if not id.startswith("mi") else "AMD", variant=form,
               architecture=arch, launch_year=year, form_factor=form, grade=grade, memory_gb=memory_gb,
               memory_type=memory_type, bandwidth_gbs=bw, fp16_tflops=fp16, fp8_tflops=fp8, int8_tops=int8,
               tdp_w=tdp, interconnect=Interconnect(kind=link, bandwidth_gbs=link_bw, max_gpus=link_max),
               sources=GPU_SRC)


GPUS = {
    "l40s": _gpu("l40s", "L40S", 48, "GDDR6", 864, 362.05, 733, 733, 350, "none", arch="Ada Lovelace", year=2023),
    "a100-80gb-sxm": _gpu("a100-80gb-sxm", "A100 80GB SXM4", 80, "HBM2e", 2039, 312, None, 624, 400, "nvlink",
                          form="sxm", link_bw=600, link_max=8, arch="Ampere", year=2020),
    "a100-80gb-pcie": _gpu("a100-80gb-pcie", "A100 80GB PCIe", 80, "HBM2e", 1935, 312, None, 624, 300,
                           "nvlink-bridge", link_bw=600, link_max=2, arch="Ampere", year=2021),
    "a100-40gb-sxm": _gpu("a100-40gb-sxm", "A100 40GB SXM4", 40, "HBM2", 1555, 312, None, 624, 400, "nvlink",
                          form="sxm", link_bw=600, link_max=8, arch="Ampere", year=2020),
    "h100-sxm": _gpu("h100-sxm", "H100 SXM5", 80, "HBM3", 3350, 989.4, 1978.9, 1978.9, 700, "nvlink",
                     form="sxm", link_bw=900, link_max=8, arch="Hopper"),
    "h100-pcie": _gpu("h100-pcie", "H100 PCIe", 80, "HBM2e", 2000, 756, 1513, 1513, 350, "nvlink-bridge",
                      link_bw=600, link_max=2, arch="Hopper"),
    "rtx-4090": _gpu("rtx-4090", "RTX 4090", 24, "GDDR6X", 1008, 165.2, 330.3, 660.6, 450, "none",
                     grade="consumer", arch="Ada Lovelace"),
    "rtx-pro-6000": _gpu("rtx-pro-6000", "RTX PRO 6000", 96, "GDDR7", 1792, 500, 1000, None, 600, "none",
                         grade="workstation", arch="Blackwell", year=2025),
    "mi300x": _gpu("mi300x", "MI300X", 192, "HBM3", 5300, 1307.4, 2614.9, 2614.9, 750, "infinity-fabric",
                   form="oam", link_bw=896, link_max=8, arch="CDNA 3", year=2023),
}


def _model(id, params_b, layers, hidden, heads, kv_heads, head_dim, vocab, max_ctx, **extra) -> LlmModel:
    return LlmModel(id=id, name=id, params_b=params_b, layers=layers, hidden=hidden, heads=heads,
                    kv_heads=kv_heads, head_dim=head_dim, vocab=vocab, max_context=max_ctx, sources=MODEL_SRC,
                    **extra)


MODELS = {
    "llama-2-7b": _model("llama-2-7b", 7, 32, 4096, 32, 32, 128, 32000, 4096, intermediate=11008),
    "llama-2-13b": _model("llama-2-13b", 13, 40, 5120, 40, 40, 128, 32000, 4096, intermediate=13824),
    "llama-2-70b": _model("llama-2-70b", 70, 80, 8192, 64, 8, 128, 32000, 4096, intermediate=28672),
    "llama-3.1-8b": _model("llama-3.1-8b", 8, 32, 4096, 32, 8, 128, 128256, 131072, intermediate=14336),
    "llama-3.1-70b": _model("llama-3.1-70b", 70, 80, 8192, 64, 8, 128, 128256, 131072, intermediate=28672),
    "mistral-7b": _model("mistral-7b", 7.3, 32, 4096, 32, 8, 128, 32000, 32768, intermediate=14336,
                         sliding_window=4096, sliding_window_share=1.0),
    "mixtral-8x7b": _model("mixtral-8x7b", 46.7, 32, 4096, 32, 8, 128, 32000, 32768, intermediate=14336,
                           experts=8, experts_active=2, active_params_b=12.9),
    "qwen2.5-7b": _model("qwen2.5-7b", 7.61, 28, 3584, 28, 4, 128, 152064, 131072, intermediate=18944),
    "gemma-2-9b": _model("gemma-2-9b", 9, 42, 3584, 16, 8, 256, 256000, 8192, intermediate=14336,
                         sliding_window=4096, sliding_window_share=0.5),
    "codellama-34b": _model("codellama-34b", 34, 48, 8192, 64, 8, 128, 32000, 16384, intermediate=22016),
}

MODELS.update({
    "qwen2.5-14b": _model("qwen2.5-14b", 14.7, 48, 5120, 40, 8, 128, 152064, 131072, intermediate=13824),
    "qwen2.5-32b": _model("qwen2.5-32b", 32.5, 64, 5120, 40, 8, 128, 152064, 131072, intermediate=27648),
    "gemma-2-27b": _model("gemma-2-27b", 27, 46, 4608, 32, 16, 128, 256000, 8192, intermediate=36864,
                          sliding_window=4096, sliding_window_share=0.5),
})

MODELS["deepseek-v3"] = _model("deepseek-v3", 671, 61, 7168, 128, 128, 192, 129280, 163840, intermediate=18432,
                               experts=256, experts_active=8, shared_experts=1, active_params_b=37,
                               kv_lora_rank=512, qk_rope_head_dim=64)
