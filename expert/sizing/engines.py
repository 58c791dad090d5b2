"""Serving engines' memory budgets: how much of a GPU each engine gives to the KV cache.

"Fits" means the engine starts and its KV pool holds the configured sequences (at least one at the
configured context); capacity is the pool divided by one sequence's KV. Each engine has its own
rule (docs/notes/modelling-anchors.md §2.1, constants in `constants.py`):

- vllm (>= 0.21, the default): pool = device × 0.92 − weights − activation − non-torch − CUDA
  graphs; activation by class (dense / MoE, vLLM 0.19 measurements), non-torch 0.25 GiB at TP 1 and
  2.1 GiB at TP >= 2 (NCCL).
- tensorrt-llm: pool = 0.9 × (device − weights − activation − non-torch), the share of the memory
  free after loading (KvCacheConfig.free_gpu_memory_fraction). Activation and non-torch are taken
  as vLLM's (no TensorRT-LLM measurement found; labelled in the provenance).
- sglang: pool = device × mem_fraction_static − weights, mem_fraction_static = (device − reserved)
  / device with SGLang's reserve rule by GPU size (server_args.py `_handle_gpu_memory_settings`).
- llama.cpp: pool = device − weights − compute buffer − CUDA context − the 1 GiB `--fit` margin.
- transformers: no pool; the KV grows per request next to the weights, the prefill's live tensors
  (own estimate: prompt × (2·intermediate + 4·hidden) × 2 B) and the CUDA context.

The device memory is what the driver reports: the catalog's nominal "GB" of a GPU are binary GiB
(an RTX 4090 reports 24 564 MiB), less ~1 % (H100: 79.19 GiB), or 1/16 on GDDR6 data-centre cards
that run with ECC (L40S: 46 068 MiB).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from expert.catalog.models import Band, Gpu, LlmModel
from expert.sizing.constants import GIB, Assumptions, Constant, resolve
from expert.sizing.engine_names import DEFAULT_ENGINE, ENGINES
SGLANG_SOURCE = ("sgl-project/sglang:python/sglang/srt/server_args.py `_handle_gpu_memory_settings` "
                 "(docs/notes/modelling-anchors.md §2.1): reserved MiB = 512 + 1.5·max(chunked prefill, "
                 "2048) + 2·cuda_graph_max_bs + TP/8·1024, at least 10 GiB above 60 GB")
# SGLang's chunked-prefill size and CUDA-graph batch by GPU memory (GiB): (below, chunk, bs, bs at TP >= 4)
SGLANG_TIERS = ((20, 2048, 8, 8), (35, 2048, 24, 80), (60, 4096, 32, 160), (160, 8192, 256, 512),
                (float("inf"), 16384, 512, 512))
CUDA_CONTEXT = "CUDA context (constants.cuda_context_gb)"


@dataclass(frozen=True)
class Budget:
    """One GPU of a replica under an engine: what it holds besides the KV cache, and the KV pool (GB)."""

    engine: str
    device_gb: float
    weights_gb: float
    activation_gb: float
    overhead_gb: float
    kv_pool_gb: float
    formula: str
    sources: list[str] = field(default_factory=list)
    activation_band: Band | None = None

    @property
    def usable_gb(self) -> float:
        """Memory the engine holds on this GPU: weights + activation + overhead + the KV pool."""
        return self.weights_gb + self.activation_gb + self.overhead_gb + self.kv_pool_gb


def check_engine(engine: str | None) -> str:
    """The engine name, `vllm` for None; ValueError naming the allowed ones otherwise."""
    engine = engine or DEFAULT_ENGINE
    if engine not in ENGINES:
        raise ValueError(f"unknown engine '{engine}' (allowed: {', '.join(ENGINES)})")
    return engine


def device_memory_gb(gpu: Gpu, assumptions: Assumptions | None = None) -> float:
    """Memory the driver reports for one GPU, decimal GB (nominal GiB × visible share)."""
    a = resolve(assumptions)
    ecc_gddr6 = gpu.memory_type == "GDDR6" and gpu.grade == "datacenter"
    share = a.gddr6_ecc_share if ecc_gddr6 else a.device_visible_share
    return gpu.memory_gb * GIB * share.value


def _vllm_constants(model: LlmModel, tp: int, a: Assumptions) -> tuple[Constant, Constant]:
    """vLLM's activation (dense or MoE) and non-torch (TP 1 or more) constants, GiB per GPU."""
    return (a.activation_moe_gib if model.is_moe else a.activation_dense_gib,
            a.non_torch_tp1_gib if tp == 1 else a.non_torch_tpn_gib)


def sglang_reserved_gb(device_gb: float, tp: int) -> float:
    """SGLang's reserve for activations, CUDA graphs and runtime (mem_fraction_static = 1 − this / device)."""
    gib = device_gb / GIB
    _, chunk, bs, bs_tp4 = next(t for t in SGLANG_TIERS if gib < t[0])
    mib = 512 + 1.5 * max(chunk, 2048) + 2 * (bs_tp4 if tp >= 4 else bs) + tp / 8 * 1024
    if gib > 60 * 1e9 / 2**30:  # "if gpu_mem > 60 GB" (decimal in the source's GB of MiB / 1024)
        mib = max(mib, 10 * 1024)
    return mib * 2**20 / 1e9


def transformers_activation_gb(model: LlmModel, prompt_tokens: int) -> float:
    """Own estimate: the prefill's largest live tensors, prompt × (2·intermediate + 4·hidden) × 2 bytes."""
    inter = model.intermediate or 4 * model.hidden
    return prompt_tokens * (2 * inter + 4 * model.hidden) * 2 / 1e9


def budget_sizes(engine: str | None, model: LlmModel, gpu: Gpu, tensor_parallel: int, weights_per_gpu_gb: float,
                 context_tokens: int = 0, assumptions: Assumptions | None = None) -> tuple[float, float, float, float]:
    """(device, activation, overhead, KV pool) GB of `budget` without its provenance: the configurator
    sizes thousands of replicas and reads only these numbers (`profile.build_profile`)."""
    a = resolve(assumptions)
    engine = check_engine(engine)
    dev = device_memory_gb(gpu, a)
    w, tp = weights_per_gpu_gb, tensor_parallel
    if engine in ("vllm", "tensorrt-llm"):
        act_c, over_c = _vllm_constants(model, tp, a)
        act, over = act_c.value * GIB, over_c.value * GIB
        if engine == "tensorrt-llm":
            return dev, act, over, a.trt_free_fraction.value * (dev - w - act - over)
        graphs = a.cuda_graph_gib.value * GIB
        return dev, act, over + graphs, dev * a.vllm_memory_utilization.value - w - act - over - graphs
    if engine == "sglang":
        reserved = sglang_reserved_gb(dev, tp)
        return dev, reserved, 0.0, dev - reserved - w
    if engine == "llama.cpp":
        over, act = a.non_torch_tp1_gib.value * GIB, a.llamacpp_compute_gib.value * GIB
        margin = a.llamacpp_margin_gib.value * GIB
        return dev, act, over + margin, dev - w - act - over - margin
    act = transformers_activation_gb(model, context_tokens)
    over = a.cuda_context_gb.value
    return dev, act, over, dev - w - act - over


def budget(engine: str | None, model: LlmModel, gpu: Gpu, tensor_parallel: int, weights_per_gpu_gb: float,
           context_tokens: int = 0, assumptions: Assumptions | None = None) -> Budget:
    """The engine's budget on one GPU of a replica holding `weights_per_gpu_gb` of weights (module docstring)."""
    a = resolve(assumptions)
    engine = check_engine(engine)
    w = weights_per_gpu_gb
    dev, act, over, pool = budget_sizes(engine, model, gpu, tensor_parallel, w, context_tokens, a)
    dev_src = (a.gddr6_ecc_share if gpu.memory_type == "GDDR6" and gpu.grade == "datacenter"
               else a.device_visible_share).cite()
    if engine in ("vllm", "tensorrt-llm"):
        act_c, over_c = _vllm_constants(model, tensor_parallel, a)
        band, srcs = Band(low=act_c.low * GIB, high=act_c.high * GIB), [act_c.cite(), over_c.cite()]
        if engine == "vllm":
            return Budget(engine, dev, w, act, over, pool,
                          "device × 0.92 − weights − activation − non-torch − CUDA graphs (vLLM >= 0.21)",
                          [a.vllm_memory_utilization.cite(), *srcs, a.cuda_graph_gib.cite(), dev_src], band)
        return Budget(engine, dev, w, act, over, pool,
                      "0.9 × (device − weights − activation − non-torch); activation and non-torch assumed "
                      "as vLLM's (no TensorRT-LLM measurement found)", [a.trt_free_fraction.cite(), *srcs, dev_src],
                      band)
    if engine == "sglang":
        return Budget(engine, dev, w, act, over, pool,
                      "device × mem_fraction_static − weights; the reserve holds activations, CUDA graphs "
                      "and runtime", [SGLANG_SOURCE, dev_src])
    if engine == "llama.cpp":
        comp = a.llamacpp_compute_gib
        return Budget(engine, dev, w, act, over, pool,
                      "device − weights − compute buffer − CUDA context − 1 GiB --fit margin",
                      [comp.cite(), a.llamacpp_margin_gib.cite(), a.non_torch_tp1_gib.cite(), dev_src],
                      Band(low=comp.low * GIB, high=comp.high * GIB))
    return Budget(engine, dev, w, act, over, pool,
                  "no pool: device − weights − prefill tensors (own estimate, prompt × (2·intermediate + "
                  "4·hidden) × 2 B) − CUDA context; the KV grows per request",
                  [a.cuda_context_gb.cite(), dev_src], Band(low=0.0, high=act))


__all__ = ["ENGINES", "DEFAULT_ENGINE", "Budget", "budget", "budget_sizes", "check_engine", "device_memory_gb",
           "sglang_reserved_gb", "transformers_activation_gb"]
