"""Serving speed: prefill/TTFT, time per output token, latency, throughput, with bands.

Roofline per GPU of one tensor-parallel replica (docs/notes/sizing-references.md, "Speed"):

- prefill = max(FLOPs / (FLOPS × MFU), weight bytes / (bandwidth × MBU)) / η_TP, FLOPs =
  2 × active params × tokens + attention L·d_attn·s² (Kaplan et al. arXiv:2001.08361 §2.1).
- decode step = max(memory time, compute time) / η_TP; memory time = (weights read / TP + KV read
  this step per GPU) / (bandwidth × MBU); compute time = (2 × active params + 2·L·d_attn·ctx) ×
  batch / (TP × FLOPS × MFU). KV read at the mean context prompt + output/2.
- η_TP = speedup / TP from document 004's table (C7; `parallel.py`).
- MoE: all experts sit in memory but a step reads only the experts the batch touches: shared +
  E·e·(1 − (1 − k/E)^batch) (uniform routing); compute uses the active parameters.
- Quantised precisions run as engines run them (`kernels.py`): W8A8 (INT8 on NVIDIA Turing-Hopper, FP8
  where the GPU has native FP8) and FP4 on FP4 tensor cores compute faster by the gain document 000 G3
  observed in production (+20-50 %), not by the peak's 2×; an FP8 prefill's large GEMMs at cuBLAS 12.9's
  1.75× FP16 (`engine_speed.prefill_tflops`). Weight-only kernels (W4A16, W8A16: int4 everywhere, int8
  off Turing-Hopper, FP8 without native FP8, MXFP4 without FP4) read their weights at Marlin's near-ideal
  efficiency and compute at FP16 scaled by the dequantisation cost (QServe arXiv:2405.04532); the KV
  cache is read at the full MBU.
- Per-step floor (kernel launches and all-reduces): a decode step, and a prefill, takes at least
  layers × (kernel floor per layer + 2 all-reduces at TP ≥ 2) + MoE layers × (the grouped kernels that run
  every routed expert of a layer at once + shared experts × kernel floor per expert; an engine whose MoE
  block loops over its experts, Transformers, launches each active expert instead). Batch-1 decode of
  small models, of wide TP groups and of fine-grained MoE is launch-bound, not bandwidth-bound (constants
  `kernel_floor_ms_per_layer`, `kernel_floor_ms_per_moe_layer`, `kernel_floor_ms_per_expert`,
  `allreduce_us`); the floor only slows a step down, so the roofline below still holds. An engine that
  decodes without CUDA graphs (TensorRT-LLM) adds its launches to every decode step
  (`engine_speed.step_overhead_s`).
- Tensor-parallel traffic: each layer all-reduces its activations twice (Megatron, arXiv:1909.08053
  §3), tokens × hidden × 2 B each; a ring moves 2(TP − 1)/TP of that per GPU (NVIDIA/nccl-tests
  doc/PERFORMANCE.md, bus bandwidth) over the link: NVLink/fabric (half the catalog's bidirectional
  figure) inside its domain, else PCIe (4.0 x16, 5.0 on Hopper/Blackwell). It adds to the step; at
  batch 1 it is negligible, at large batches over PCIe it dominates.
- Continuous batching (`tpot_steady_s`, `ttft_steady_s`; `load.py`): each step of a serving engine
  also carries the chunked prefill of arriving requests, so TPOT = decode(b) / (1 − prefill share);
  `tpot_s` is the decode step alone (a static batch, TensorRT-LLM's offline benchmark). NIM's
  Llama-3.3-70B FP8 on 2 × H100 (TensorRT-LLM) at concurrency 50 with 5 000-token prompts: decode
  alone 30 ms, measured 59.7 ms, steady state 70 ms (docs/accuracy.md, "TPOT by regime").
- Physical limit, asserted: decode tokens/s per sequence ≤ bandwidth / weight bytes read per GPU.

Efficiencies (MBU, MFU, η) are bands; `Performance.bands` holds the results at the slow end (all
low) and the fast end (all high). TTFT = the prefill + the serving engine's time per request
(`engine_speed.request_overhead_s`); it excludes queueing, which dominates under load (`load.py`).
"""

from __future__ import annotations

import math

from expert.catalog.models import Band, Gpu, LlmModel
from expert.sizing.constants import Assumptions, resolve
from expert.sizing.engine_speed import UNFUSED_MOE, host_per_sequence_s, prefill_tflops, request_overhead_s, \
    step_overhead_s
from expert.sizing.kernels import kernel, peak_tflops, quantised_kernel, weight_only_factor
from expert.sizing.memory import bytes_per_param, embedding_params_b, kv_cache_gb, kv_heads_per_gpu, weights_gb
from expert.sizing.moe_prefill import routed_params, split_s
from expert.sizing.parallel import column_for, tp_efficiency, tp_source
from expert.sizing.results import Performance, Provenance

KAPLAN = "Kaplan et al. arXiv:2001.08361 §2.1 (forward 2N FLOPs per token + attention)"


def compute_tflops(gpu: Gpu, precision: str, assumptions: Assumptions | None = None,
                   engine: str | None = None) -> float:
    """Dense TFLOPS used for a precision: TF32 for fp32, else FP16; a W8A8 or FP4 kernel (`kernels.py`)
    gains what document 000 G3 observed for FP8 in production (+20-50 %, point +35 %), never more than the
    format's peak: its GEMMs run at twice the FP16 rate but the rest of a step (attention, norms,
    quantisation of activations, sampling) does not. FP4 gets the same gain: no production figure for
    it is published in the sources read, so this is a lower bound."""
    peak = peak_tflops(gpu, kernel(gpu, precision, engine))
    if peak:
        gain = resolve(assumptions).fp8_gain_observed.value
        return min(peak, gpu.fp16_tflops * (1 + gain))
    if precision == "fp32":
        return gpu.fp16_tflops * resolve(assumptions).fp32_tensor_ratio.value
    return gpu.fp16_tflops


def prefill_compute_tflops(gpu: Gpu, precision: str, assumptions: Assumptions | None = None,
                           engine: str | None = None) -> float:
    """Dense TFLOPS of a prefill's large GEMMs: FP8 at `engine_speed.prefill_tflops` where the GPU has
    native FP8, otherwise `compute_tflops`."""
    return prefill_tflops(gpu, precision, assumptions) or compute_tflops(gpu, precision, assumptions, engine)


def decode_weight_gb(model: LlmModel, precision: str = "fp16", batch: int = 1,
                     assumptions: Assumptions | None = None) -> float:
    """Weight bytes (GB, whole model) one decode step reads: all for dense, touched experts for MoE,
    less the input embedding table (a step looks up one row per token; the LM head is read whole)."""
    return read_gb(read_terms(model, precision, assumptions), batch)


def read_terms(model: LlmModel, precision: str = "fp16", assumptions: Assumptions | None = None) -> tuple:
    """What `decode_weight_gb` reads of the model, the precision and the assumptions, whatever the batch:
    (bytes per parameter, GB not read per step, all weights GB or None for MoE, total, shared, scale, q),
    the last four in GB. Not read: the input embedding table (one row per token) and a vision tower.
    The MoE read is shared + E·e·(1 − (1 − k/E)^batch) (scale = E·e, q = 1 − k/E), or without expert
    counts total·(1 − (1 − active/total)^batch) (shared None, scale = total); the shared part stays
    16-bit where the native format covers the experts only (gpt-oss). `read_gb` evaluates the same
    expressions in the same order, so a roofline that keeps these terms (`Roofline`) gets the same floats
    per batch without looking the constants up again."""
    bpp = bytes_per_param(precision, assumptions).value
    half = bytes_per_param("bf16", assumptions).value
    skipped = embedding_params_b(model) / 2 * max(bpp, half) + (model.vision_params_b or 0.0) * min(bpp, half)
    if not model.is_moe or not model.active_params_b:
        return bpp, skipped, weights_gb(model, precision, assumptions), None, None, None, None
    total, active = model.params_b, model.active_params_b
    experts_only = precision == model.native_precision and model.native_scope == "experts" and bpp < half
    if model.experts_active and model.experts > model.experts_active:
        e, k = model.experts, model.experts_active
        expert = (total - active) / (e - k)
        shared = (active - k * expert) * (half if experts_only else bpp)
        return bpp, skipped, None, total * bpp if not experts_only else weights_gb(model, precision, assumptions), \
            shared, e * expert * bpp, 1 - k / e
    return bpp, skipped, None, total * bpp, None, total * bpp, 1 - active / total


def read_gb(terms: tuple, batch: int) -> float:
    """`decode_weight_gb` from its `read_terms` at `batch`."""
    _, skipped, dense, total, shared, scale, q = terms
    if dense is not None:
        return dense - skipped
    touched = scale * (1 - q ** batch)
    read = touched if shared is None else shared + touched
    return min(total, read) - skipped


def bandwidth_limit_tokens_per_s(model: LlmModel, gpu: Gpu, tensor_parallel: int = 1, precision: str = "fp16",
                                 batch: int = 1, assumptions: Assumptions | None = None) -> float:
    """The physical ceiling per sequence: bandwidth / weight bytes read per GPU per step."""
    return gpu.bandwidth_gbs / (decode_weight_gb(model, precision, batch, assumptions) / tensor_parallel)


def allreduce_s(tensor_parallel: int, assumptions: Assumptions | None = None) -> float:
    """Latency of one small all-reduce in s: 0 at TP 1, the band's low end at TP 2, its high end at TP 8."""
    if tensor_parallel < 2:
        return 0.0
    c = resolve(assumptions).allreduce_us
    return (c.low + (c.high - c.low) * min(1.0, math.log2(tensor_parallel / 2) / 2)) / 1e6


def link_gbs(gpu: Gpu, tensor_parallel: int, interconnect: str | None = None,
             assumptions: Assumptions | None = None) -> float:
    """Bandwidth per direction one GPU all-reduces over, GB/s: its NVLink/fabric within the link
    domain (an explicit PCIe interconnect turns it off), else PCIe 4.0 x16 (5.0 on Hopper/Blackwell)."""
    link = gpu.interconnect
    linked = link.kind != "none" and link.bandwidth_gbs and tensor_parallel <= (link.max_gpus or 1)
    if linked and interconnect not in ("pcie", "none"):
        return link.bandwidth_gbs / 2
    pcie = resolve(assumptions).pcie_gen4_gbs.value
    return pcie * 2 if gpu.architecture.lower().startswith(("hopper", "blackwell")) else pcie


def allreduce_traffic_s(model: LlmModel, gpu: Gpu, tensor_parallel: int, tokens: int,
                        interconnect: str | None = None, assumptions: Assumptions | None = None) -> float:
    """Time one step's all-reduces move data, s: 2 per layer × tokens × hidden × 2 B × 2(TP−1)/TP / link."""
    if tensor_parallel < 2:
        return 0.0
    return _ring_s(model, tensor_parallel, tokens, link_gbs(gpu, tensor_parallel, interconnect, assumptions))


def _ring_s(model: LlmModel, tensor_parallel: int, tokens: int, link: float) -> float:
    """`allreduce_traffic_s` at TP ≥ 2 over a link of `link` GB/s."""
    size = tokens * model.hidden * 2
    ring = 2 * (tensor_parallel - 1) / tensor_parallel
    return 2 * model.layers * size * ring / (link * 1e9)


def step_floor_s(model: LlmModel, tensor_parallel: int = 1, assumptions: Assumptions | None = None,
                 end: str = "value", engine: str | None = None) -> float:
    """The least time one forward step takes, s: layers × (kernel floor + 2 all-reduces) + MoE layers
    (`moe_layers`, default all) × (the grouped kernels of the routed experts + shared experts × kernel floor
    per expert). An engine of `UNFUSED_MOE` launches each routed expert instead: active experts × kernel floor
    per expert. `end` picks the band's low/high (DeepSeek-R1 at TP 8: 61 × (0.064 + 2 × 0.026) + 58 ×
    (0.0448 + 0.0192) = 10.8 ms; on Transformers 61 × 0.116 + 58 × 9 × 0.0192 = 17.1 ms)."""
    a = resolve(assumptions)
    layer = getattr(a.kernel_floor_ms_per_layer, end) / 1e3 + 2 * allreduce_s(tensor_parallel, a)
    if not model.is_moe:
        return model.layers * layer
    per_expert = getattr(a.kernel_floor_ms_per_expert, end)
    routed = ((model.experts_active or 0) * per_expert if engine in UNFUSED_MOE
              else getattr(a.kernel_floor_ms_per_moe_layer, end))
    moe_layers = model.moe_layers or model.layers  # dense first/interleaved layers have none
    return model.layers * layer + moe_layers * (routed + (model.shared_experts or 0) * per_expert) / 1e3


def _attention_dim(model: LlmModel) -> int:
    return model.heads * model.head_dim


def weight_only(gpu: Gpu, precision: str, engine: str | None = None) -> bool:
    """True when weights are dequantised on the fly (`kernels.kernel`): int4; int8 off NVIDIA
    Turing-Hopper; FP8 without native FP8; MXFP4 without FP4 tensor cores (vLLM dequantises gpt-oss's
    MXFP4 experts there: 'GPT-OSS works on Ampere devices by default, using ... Marlin MXFP4 MoE',
    vllm-project/recipes OpenAI/GPT-OSS.md, read 2026-12-04)."""
    return kernel(gpu, precision, engine).weight_only


class Roofline:
    """The point roofline of one replica at fixed prompt and output tokens (module docstring): what does
    not depend on the batch is computed once, the decode step and the prefill per call. `_scenario` is
    built on it; the configurator's replica profiles call it directly for the few figures they need."""

    def __init__(self, model, gpu, tp, precision, prompt, output, kv_precision, mbu, mfu, eta, a, wo=1.0,
                 floor=0.0, link=None, overhead=0.0, read=None, request=0.0, engine=None, kv_eff=None):
        """`kv_eff`: × peak bandwidth on the KV cache's reads (`kv_read_efficiency`, its point when None; the
        weights are read at `mbu`); `engine`: whose kernels (`kernels.kernel`); `wo`: the kernel's × MBU on weight reads and × MFU
        (`kernels.weight_only_factor`); `read`: the model's `read_terms` at `precision` when the caller has
        them (the same tuple); `overhead`: the engine's host time per decode step, `request`: its time per
        request (s, `engine_speed`); the engine's host time per decoding sequence is `engine_speed`'s
        `host_per_sequence_s`."""
        mfu = mfu * wo
        self.model, self.gpu, self.tp, self.precision, self.a = model, gpu, tp, precision, a
        self.eta, self.floor, self.overhead, self.request = eta, floor, overhead, request
        self.per_sequence = host_per_sequence_s(engine, a)
        self.flops = compute_tflops(gpu, precision, a, engine) * 1e12 * mfu
        self.prefill_flops = prefill_compute_tflops(gpu, precision, a, engine) * 1e12 * mfu
        self.bw = gpu.bandwidth_gbs * 1e9 * (a.kv_read_efficiency.value if kv_eff is None else kv_eff)
        self.bw_weights = gpu.bandwidth_gbs * 1e9 * mbu * wo
        self.active = model.decode_params_b * 1e9
        self.read = read = read_terms(model, precision, a) if read is None else read
        # decode_weight_gb at batch 1 where a step reads all weights at any batch (dense), else per batch
        self.w_step = read_gb(read, 1) * 1e9 / tp if read[2] is not None else None
        self.w_prefill = self.w_step if not model.is_moe \
            else (read[2] if read[2] is not None else weights_gb(model, precision, a)) * 1e9 / tp
        # an MoE with expert counts prefills as dense part + routed experts (`moe_prefill`), else one roofline
        self.routed = routed_params(model) if read[4] is not None else 0.0
        self.link_bw = link_gbs(gpu, tp, link, a) if tp >= 2 else 0.0
        self.layers_attn = model.layers * _attention_dim(model)
        self.mean_ctx = prompt + output / 2
        self.kv_seq = kv_cache_gb(model, int(round(self.mean_ctx)), 1, kv_precision, a)
        self.kv_gpu = kv_heads_per_gpu(model, tp)
        self.work_token = 2 * self.active + 2 * self.layers_attn * self.mean_ctx

    def comm(self, tokens: int) -> float:
        """The all-reduce traffic of one step carrying `tokens` tokens, s (`allreduce_traffic_s`)."""
        return _ring_s(self.model, self.tp, tokens, self.link_bw) if self.tp >= 2 else 0.0

    def prefill(self, tokens_each: int, sequences: int, compute_only: bool = False) -> float:
        """Prefill of `sequences` prompts of `tokens_each`, s; `compute_only`: a chunk fused into a decode
        step (the step reads the weights anyway)."""
        work = sequences * (2 * self.active * tokens_each + self.layers_attn * tokens_each**2)
        comm = self.comm(sequences * tokens_each)
        if compute_only:
            return work / self.tp / self.prefill_flops / self.eta + comm
        if self.routed:
            return max(self._moe_prefill(work, sequences * tokens_each) / self.eta + comm, self.floor)
        return max(max(work / self.tp / self.prefill_flops, self.w_prefill / self.bw_weights) / self.eta + comm,
                   self.floor)

    def _moe_prefill(self, work: float, tokens: int) -> float:
        """`moe_prefill.split_s` of a prefill of `work` FLOPs over `tokens` tokens, per GPU, s: the routed
        experts' 2 × routed × tokens FLOPs on the touched experts' bytes, the rest on the other weights
        that are read whole (the input embedding is not: `read_terms`)."""
        _, skipped, _, _, shared, scale, q = self.read
        routed_work = 2 * self.routed * tokens
        touched = scale * (1 - q ** tokens)
        return split_s((work - routed_work) / self.tp, routed_work / self.tp, (shared - skipped) * 1e9 / self.tp,
                       touched * 1e9 / self.tp, self.prefill_flops, self.bw_weights)

    def ttft(self, tokens: int) -> float:
        """Time to first token of one prompt of `tokens` alone, s: its prefill + the server's request time."""
        return self.prefill(tokens, 1) + self.request

    def roofline_step(self, mem: float, comp: float, batch: int) -> float:
        """A decode step of `batch` sequences by the roofline alone, s: the longer of its memory and compute
        times over the TP efficiency, plus its all-reduces; `decode` takes at least the step floor."""
        return max(mem, comp) / self.eta + self.comm(batch)

    def decode(self, batch: int) -> tuple[float, float, float]:
        """(memory time, compute time, TPOT) of one step decoding `batch` sequences, s; asserts the
        physical limit (module docstring)."""
        m, tp = self.model, self.tp
        kv_step = batch * self.kv_seq * 1e9 * self.kv_gpu / m.kv_heads
        w_step = self.w_step if self.w_step is not None \
            else read_gb(self.read, batch) * 1e9 / tp
        mem = w_step / self.bw_weights + kv_step / self.bw
        comp = batch * self.work_token / tp / self.flops
        tpot = max(self.roofline_step(mem, comp, batch), self.floor) + self.overhead + self.per_sequence * batch
        limit = self.gpu.bandwidth_gbs * 1e9 / w_step
        if 1 / tpot > limit * (1 + 1e-9):
            raise AssertionError(f"decode {1 / tpot:.1f} tok/s exceeds the bandwidth limit {limit:.1f}")
        return mem, comp, tpot


def _scenario(model, gpu, tp, precision, batch, prompt, output, kv_precision, mbu, mfu, eta, a, wo=1.0,
              floor=0.0, link=None, overhead=0.0, request=0.0, engine=None, kv_eff=None) -> dict:
    roof = Roofline(model, gpu, tp, precision, prompt, output, kv_precision, mbu, mfu, eta, a, wo, floor, link,
                    overhead, request=request, engine=engine, kv_eff=kv_eff)
    mem, comp, tpot = roof.decode(batch)
    floor_binds = roof.floor > roof.roofline_step(mem, comp, batch)  # `Roofline.decode`'s outer max
    ttft = roof.ttft(prompt)
    prefill_batch = roof.prefill(prompt, batch)
    return {"ttft_s": ttft, "tpot_s": tpot, "e2e_latency_s": ttft + output * tpot, "prefill_s": prefill_batch,
            "decode_tokens_per_s_per_sequence": 1 / tpot, "mem": mem, "comp": comp,
            "binds": "step_floor" if floor_binds else ("memory" if mem >= comp else "compute"),
            "prefill_compute_s": roof.prefill(prompt, 1, compute_only=True),
            "replica_throughput": batch * output / (prefill_batch + output * tpot)}


def _check(name: str, value: float, upper: float = 1.0) -> float:
    if not 0 < value <= upper:
        raise ValueError(f"{name} must be in (0, {upper}], got {value}")
    return value


def performance(model: LlmModel, gpu: Gpu, count: int = 1, tensor_parallel: int = 1, precision: str = "fp16",
                batch: int = 1, prompt_tokens: int | None = None, output_tokens: int | None = None,
                kv_precision: str = "fp16", interconnect: str | None = None,
                assumptions: Assumptions | None = None, engine: str | None = None) -> Performance:
    """Speed of `count` GPUs as count/TP replicas, each decoding `batch` sequences (module docstring);
    `engine` adds its per-step host overhead (`engine_speed.step_overhead_s`) and its time per request to
    TTFT (`engine_speed.request_overhead_s`); the continuous-batching
    fields (`*_steady_*`) are filled by `steady.loaded_performance`."""
    a = resolve(assumptions)
    prompt = int(a.default_prompt_tokens.value) if prompt_tokens is None else prompt_tokens
    output = int(a.default_output_tokens.value) if output_tokens is None else output_tokens
    if batch < 1 or prompt < 1 or output < 1 or tensor_parallel < 1 or count % tensor_parallel:
        raise ValueError("batch, prompt and output tokens must be ≥ 1 and count a multiple of tensor_parallel")
    column = column_for(gpu, interconnect)
    eta, eta_band = tp_efficiency(tensor_parallel, column, a)
    args = (model, gpu, tensor_parallel, precision, batch, prompt, output, kv_precision)
    for c in (a.mbu, a.kv_read_efficiency, a.mfu, a.weight_only_efficiency):
        _check(c.unit, c.low), _check(c.unit, c.high)
    _check("TP efficiency", eta_band.low), _check("TP efficiency", eta_band.high)
    dequant = weight_only(gpu, precision, engine)
    wo = {end: weight_only_factor(gpu, precision, a, end, engine) for end in ("value", "low", "high")}
    floors = {end: step_floor_s(model, tensor_parallel, a, end, engine) for end in ("value", "low", "high")}
    host = {end: step_overhead_s(model, engine, a, end) for end in ("value", "low", "high")}
    req = {end: request_overhead_s(engine, a, end) for end in ("value", "low", "high")}
    point = _scenario(*args, a.mbu.value, a.mfu.value, eta, a, wo["value"], floors["value"], interconnect, host["value"],
                      req["value"], engine, a.kv_read_efficiency.value)
    slow = _scenario(*args, a.mbu.low, a.mfu.low, eta_band.low, a, wo["low"], floors["high"], interconnect, host["high"],
                     req["high"], engine, a.kv_read_efficiency.low)
    fast = _scenario(*args, a.mbu.high, a.mfu.high, eta_band.high, a, wo["high"], floors["low"], interconnect, host["low"],
                     req["low"], engine, a.kv_read_efficiency.high)
    replicas = count // tensor_parallel
    bands = {k: Band(low=fast[k], high=slow[k]) for k in ("ttft_s", "tpot_s", "e2e_latency_s")}
    bands["decode_tokens_per_s_per_sequence"] = Band(low=slow["decode_tokens_per_s_per_sequence"],
                                                     high=fast["decode_tokens_per_s_per_sequence"])
    bands["throughput_tokens_per_s"] = Band(low=slow["replica_throughput"] * replicas,
                                            high=fast["replica_throughput"] * replicas)
    bands["tensor_parallel_efficiency"] = eta_band
    eff = [a.mbu.cite(), a.mfu.cite(), tp_source(tensor_parallel, column, a)] + (
        [a.weight_only_efficiency.cite()] if dequant else [])
    floor_src = [a.kernel_floor_ms_per_layer.cite(), a.kernel_floor_ms_per_expert.cite(),
                 a.kernel_floor_ms_per_moe_layer.cite(), a.allreduce_us.cite()]
    fp8_src = [a.fp8_prefill_speedup.cite()] if prefill_tflops(gpu, precision, a) else []  # engine_speed
    host_src = [(a.host_ms_per_step if engine == "vllm" else a.eager_decode_ms_per_layer).cite()] if host["value"] else []
    req_src = [a.request_overhead_ms.cite()] if req["value"] else []
    prov = {
        "ttft_s": Provenance(formula="max(2·active·prompt + L·d_attn·prompt², per GPU / (FLOPS·MFU), "
                             "weights/TP / (BW·MBU)) / η_TP + the server's time per request; no queueing",
                             sources=[KAPLAN, *eff, *fp8_src, *req_src]),
        "tpot_s": Provenance(formula="max(max(weights read/TP/(BW·MBU) + KV read per GPU/(BW·KV efficiency), "
                             "batch·(2·active + 2·L·d_attn·ctx)/(TP·FLOPS·MFU)) / η_TP + all-reduce "
                             "traffic, step floor) + the engine's eager-launch overhead",
                             sources=[KAPLAN, *eff, a.kv_read_efficiency.cite(), *floor_src, *host_src]),
        "step_floor_s": Provenance(formula="layers × (kernel floor + 2 all-reduces at TP ≥ 2) + MoE layers × "
                                   "(grouped-expert kernels + shared experts × kernel floor per expert; Transformers: "
                                   "active experts × kernel floor per expert)", sources=floor_src),
        "throughput_tokens_per_s": Provenance(formula="replicas × batch × output / (batch prefill + output × tpot)"),
        "tensor_parallel_efficiency": Provenance(formula="004 speedup(TP) / TP", sources=eff[2:3]),
        "bandwidth_limit_tokens_per_s": Provenance(formula="bandwidth / (weight bytes read per step / TP)"),
    }
    return Performance(
        ttft_s=point["ttft_s"], tpot_s=point["tpot_s"],
        decode_tokens_per_s_per_sequence=point["decode_tokens_per_s_per_sequence"],
        throughput_tokens_per_s=point["replica_throughput"] * replicas,
        bound="memory" if point["mem"] >= point["comp"] else "compute",
        binds=point["binds"],
        tensor_parallel_efficiency=eta, e2e_latency_s=point["e2e_latency_s"], prefill_s=point["prefill_s"],
        memory_time_s=point["mem"], compute_time_s=point["comp"],
        bandwidth_limit_tokens_per_s=bandwidth_limit_tokens_per_s(model, gpu, tensor_parallel, precision, batch, a),
        batch=batch, tensor_parallel=tensor_parallel, replicas=replicas, interconnect=column,
        compute_tflops=compute_tflops(gpu, precision, a, engine), step_floor_s=floors["value"],
        kernel=quantised_kernel(gpu, precision, engine),
        provenance=prov, bands=bands,
    )

