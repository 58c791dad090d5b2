"""Judgements on the rows of tests/data/measurements.yaml: which engine (and version) each row ran,
the rows left out and why, and each kind's error ceiling with the rows allowed above it and why.

Data for `expert/sizing/accuracy.py`, kept apart so the comparison code stays short; every entry
names its reason (docs/accuracy.md explains the allow-list).
"""

from __future__ import annotations

import re

from expert.sizing.constants import LLMD, Assumptions, exact, ranged
from expert.sizing.engine_versions import parse_version, version_assumptions

# The engine a row measured, from its framework when the row does not name it.
FRAMEWORK_ENGINES = (("NVIDIA NIM", "tensorrt-llm"), ("vLLM", "vllm"), ("TensorRT-LLM", "tensorrt-llm"),
                     ("SGLang", "sglang"), ("llama.cpp", "llama.cpp"), ("HF transformers", "transformers"),
                     ("AutoAWQ", "transformers"), ("ExLlama", "exllama"), ("MLC", "mlc"), ("gpt-fast", "gpt-fast"),
                     ("Unsloth", "training"), ("LLaMA-Factory", "training"))
# Rows that cannot be mapped honestly, with why (judgements on single rows; generic rules are in `_skip`).
SKIP = {
    "llmd-vllm-llama31-8b-h100-activation":
        "circular: constant activation_dense_gib (4.8 GiB) was read from this very row",
    "optbench-llama31-8b-bf16-a100-decode-process-vram":
        "process VRAM of eager HF incl. CUDA context and the caching allocator's reserve; the core models "
        "vLLM's runtime reserve only, not HF's allocator",
    "llamafactory-llama2-7b-qlora-unsloth-a100-40g-16k":
        "Unsloth offloads checkpointed activations to CPU RAM; finetune_memory has no offload option",
    "tt340-qwen3-30b-a3b-a100-ttft-4096in":
        "below the physical limit: 2 x 3.3e9 active x 4 096 tokens = 2.70e13 FLOPs take 86.6 ms at the A100's "
        "full 312 TFLOPS, the mean of its 2 requests is 75.2 ms (one likely served from vLLM's prefix cache)",
    "tt340-qwen3-30b-a3b-a100-ttft-8192in":
        "below the physical limit: 2 x 3.3e9 x 8 192 = 5.41e13 FLOPs + causal attention 2 x 48 layers x 4 096 x "
        "8 192^2 = 2.64e13 take 258 ms at the A100's full 312 TFLOPS, the mean of its 2 requests is 227 ms",
    "tt143-qwen25-72b-2xh100-ttft-2048in-128out":
        "at the physical limit: 2 x 70.2e9 non-embedding weights x 2 048 + causal attention 2 x 80 x 8 192 x "
        "2 048^2 = 2.93e14 FLOPs take 148 ms at two H100s' full 2 x 989 TFLOPS with no all-reduce; the mean of "
        "its 8 requests is 149.5 ms, where the sweep's 1 024- and 4 096-token rows run at 57-60 % of that peak",
    "tt340-qwen3-14b-a100-ttft-4096in-128out":
        "below the physical limit: 2 x 13.2e9 non-embedding weights x 4 096 + causal attention 2 x 40 x 5 120 x "
        "4 096^2 = 1.15e14 FLOPs take 369 ms at the A100's full 312 TFLOPS, the mean of its 2 requests is 217.2 ms",
}
# Every compared row must stay within its kind's ceiling (|relative error|) or be listed in ALLOW
# with the reason it does not (tests/sizing/test_measurements.py checks both ways).
CEILINGS = {"memory": 0.20, "capacity": 0.20, "finetune_memory": 0.30, "decode": 0.35, "throughput": 0.35,
            "ttft": 0.35}
ALLOW = {
    "amd-vllm-llama31-70b-fp8-8xmi300x-bs1-latency": "vLLM 0.10.0 (ROCm) at batch 1 on 8 x MI300X: the step floor "
                            "(80 layers x (kernel floor + 2 all-reduces at TP 8), 9.3 ms, from NVLink H100 "
                            "latencies) already exceeds the roofline, and the synchronous host time of vLLM < 0.12 "
                            "(2.1 ms) adds to it; measured 8.4 ms a token: the floor's all-reduce latency is not "
                            "MI300X's (+10.3 % before the host time; its 405B and batch-64 rows moved closer)",
    "vllm083-azure-llama33-70b-a100sxm40-tp8-sharegpt-qps4-ttft": "the same 200 prompts' mean TTFT falls from "
                            "65.3 ms at 1 req/s to 50.3 ms at 4 req/s (one run each): lower at 4 x the load, "
                            "which no queue gives; its qps-1 row is -6.3 %",
    "gpustack-vllm-qwen3-8b-h100-sharegpt-c1-ttft": "vLLM 0.11.0's chat endpoint: 59.0 ms for a 233-token prompt "
                            "of an 8B model on an H100 alone, about 46-52 ms of it beside the GPU's prefill, against "
                            "the 4.1-7.3 ms per request measured on TensorRT-LLM (request_overhead_ms); other vLLM "
                            "rows at concurrency 1 leave 0-15 ms, so no vLLM time per request is assumed "
                            "(docs/accuracy.md, 'A server's time per request')",
    "gpustack-sglang-qwen3-8b-fp8-h100-sharegpt-c4-tpot": "SGLang 0.5.3's FP8 Qwen3-8B (block-wise W8A8) decodes in "
                            "0.79 x its bf16 time (5.65 vs 7.19 ms at 4 in flight); the core's FP8 reads half the "
                            "weight bytes, 0.55 x",
    "trt061-llama2-7b-h100-fp8-bs768-128-128": "static batch 768 of 128/128 tokens: 768 sequences a step, where "
                            "the per-sequence host cost seen at 150-250 in flight on NIM (docs/accuracy.md, 'TPOT at "
                            ">= 50 in flight') is not modelled; +27 % with the KV read at MBU, +40.5 % at "
                            "kv_read_efficiency 0.89 (KV reads of 128-256 tokens run at 65-76 % in onnxruntime PR "
                            "#21414, not 89 %)",
    "nim-llama31-8b-fp8-1xh100-itl-200in-200out-c250": "250 concurrent 200-token requests (65 req/s at NIM's "
                            "13 000 tok/s) on an 8B model: per-request host work (scheduling, detokenising, "
                            "HTTP streaming) grows with the requests and is not in the model, which holds only "
                            "the per-step launch overhead (engine_speed: 1.5 ms of the 9.3 ms estimated; 16.1 ms "
                            "measured)",
    "llamacpp-logdetective-mistral7b-kvbuffer-32k": "the catalog's mistral-7b is v0.1 with a 4 096-token sliding "
                            "window in every layer, so the core caps its KV at 4 096 tokens; llama.cpp allocates "
                            "all n_ctx = 32 768 (and the model run, v0.2, has no window): 0.54 GB against 4.29 GB",
    "llamacpp-logdetective-mistral7b-compute-2k": "the core's llama.cpp compute buffer is one constant (0.4 GiB, "
                            "band 0.1-0.7); at n_ctx 2 048 the buffer was 0.16 GiB, inside the band, below the point",
    "llamacpp-logdetective-mistral7b-compute-32k": "without flash attention llama.cpp's compute buffer holds one "
                            "ubatch's attention scores (n_ctx × 512 × heads) and grows with n_ctx: 2.09 GiB at "
                            "32 768 against the core's context-free 0.4 GiB (outside its 0.1-0.7 band)",
    "unsloth-min-8b-qlora": "Unsloth's minimum-VRAM table states no sequence length, rank or batch and relies on "
                            "its offloaded gradient checkpointing; the core's defaults (2 048 tokens, rank 16) "
                            "hold more activations",
    "unsloth-min-14b-qlora": "as unsloth-min-8b-qlora: conditions not stated, Unsloth offloads activations",
    "gptfast-llama2-7b-int4-a100": "gpt-fast's int4 (tinygemm) kernel sits at the fast end of the weight-only "
                                   "band (0.5-1.0 × MBU) only at larger batches; at batch 1 it reaches 197 of the "
                                   "275 tok/s the point efficiency 0.75 gives",
    "trt-blog-gptj-h100-fp8-bs1": "TensorRT-LLM 0.5 launch blog: 185 tok/s is 37 % of the H100's bandwidth "
                                  "roofline for 6 GB of FP8 weights (3 350 / 6.05 = 554 tok/s); the first FP8 "
                                  "kernels (the same release's FP16 GPT-J on an A100 is within 3 % with the "
                                  "eager-launch overhead of engine_speed)",
    "trt-h200-llama2-13b-fp8-bs1024-128-128": "TensorRT-LLM 0.5 on an H200, a static batch of 1 024 128-token "
                                  "prompts: the batch prefill is 42 % of the estimated time and computes at cuBLAS "
                                  "12.9's FP8 rate (1.75 × FP16, engine_speed); at document 000 G3's +35 %, as "
                                  "2023's FP8 kernels prefilled (TensorRT-LLM 0.5's TTFT rows: 1.3 × FP16 at MFU "
                                  "0.6), the row is +30 %",
    "llmd019-gemma2-9b-tp1-capacity": "vLLM 0.19 counts Gemma 2's sliding-window layers at the full context when "
                                      "it reports max concurrency (20.6 = pool / full-attention KV); the core "
                                      "holds min(context, window) in those layers, as they cache",
    "llmd019-gemma2-27b-tp1-capacity": "as llmd019-gemma2-9b-tp1-capacity (sliding-window layers counted in full)",
    "autoawq-mistral-7b-gemm-bs8-2048": "AutoAWQ's fused layers pre-allocate their KV cache and HF transformers "
                                        "4.35 materialises the prompt's logits in fp32 (8 × 2 048 × 32 000 × 4 B = "
                                        "2.1 GB); neither is modelled",
    "sglang0412-deepseek-v3-8xh200-bs1": "SGLang 0.4.1.post2, the first DeepSeek-V3 release (new MLA and "
                                         "block-FP8 MoE kernels), GPU assumed H200: the per-step floor brings the "
                                         "estimate from 525 to 92 tok/s (10.8 ms), 3.0 × the reported 30 (33 ms); "
                                         "SGLang 0.5.12 decodes the same model on 8 × B200/B300 in 7.0-7.2 ms at "
                                         "concurrency 1 (inferencex-sglang0512-*): the early kernels, not the GPUs",
    "sglang0412-deepseek-v3-8xh200-bs8": "as sglang0412-deepseek-v3-8xh200-bs1 (early kernels, GPU assumed)",
    "sglang0412-deepseek-v3-8xh200-bs32": "as sglang0412-deepseek-v3-8xh200-bs1 (early kernels, GPU assumed)",
    "tt340-qwen3-30b-a3b-a100-ttft-3072in": "+38.3 %: the mean of 4 requests implies 85 % of the A100's 312 TFLOPS "
                                  "(2 x 3.3e9 x 3 072 + 48 x 4 096 x 3 072^2 = 2.21e13 FLOPs in 90.2 - 6.5 = 83.7 ms) "
                                  "where the same sweep's 2 048-token row implies 62 % (1.43e13 in 74.5 ms, +2.6 %) "
                                  "and the core takes MFU 0.6; its 4 096-token row is below the physical limit "
                                  "(skipped): one source's small samples, no MFU fitted on them",
    "tt143-qwen25-72b-2xh100-ttft-3072in-128out": "+65 %: the mean of 8 requests implies 83 % of two H100s' "
                                  "2 x 989 TFLOPS at TP 2 (2 x 70.2e9 x 3 072 + 2 x 80 x 8 192 x 3 072^2 = 4.44e14 "
                                  "FLOPs in 270.9 ms) where the same sweep's 1 024-, 4 096- and 8 192-token rows "
                                  "imply 57-60 % (+18 %, +18 %, +14 %) and its 2 048-token row is at the physical "
                                  "limit (skipped): one source's small samples, no MFU fitted on them",
    "tt356-deepseek-r1-awq-8xh100-ttft-1024in": "vLLM's AWQ (W4A16) MoE prefill of DeepSeek-R1 at TP 8: after the "
                                  "dense part (13 ms at TP efficiency 0.75), the all-reduces (7 ms) and the request "
                                  "(6.5 ms), 79 ms remain for the touched experts' 42 GB per GPU of 4-bit weights, "
                                  "16 % of the H100's 3 350 GB/s, where the core reads them in 31 ms (MBU 0.725 x "
                                  "the weight-only factor 0.75 x TP efficiency 0.75); Qwen3-30B-A3B in bf16 (tt340 "
                                  "rows) reads its experts at the full MBU, so this is the kernel, not MoE prefill: "
                                  "one source's means of 4 requests, too few to fit a W4A16-MoE efficiency "
                                  "(docs/accuracy.md, 'MoE prefill')",
    "tt356-deepseek-r1-awq-8xh100-ttft-2048in": "as tt356-deepseek-r1-awq-8xh100-ttft-1024in: 79 ms left for the "
                                  "experts' 42 GB per GPU after the dense part (28 ms), the all-reduces (14 ms) and "
                                  "the request",
    "tt356-deepseek-r1-awq-8xh100-ttft-8192in": "+35.0 %, at the ceiling: a long prefill, compute-bound in both "
                                  "parts of the MoE split (no change from it); the core computes W4A16 at FP16 x "
                                  "MFU x the weight-only factor 0.75 and adds 56 ms of all-reduce traffic; the mean "
                                  "of 2 requests (242 ms) fits the compute without the 0.75",
    "tt340-qwen3-14b-a100-ttft-128in-128out": "-49 %: the sweep's two cells with 128-token prompts read 52.5 ms "
                                  "(mean of 8, 128 out) and 32.8 ms (mean of 4, 1 024 out) for the same prefill of "
                                  "3.39e12 FLOPs (10.9 ms at the A100's 312 TFLOPS): 20 ms apart within one table; "
                                  "the core adds 6.5 ms per request (request_overhead_ms) and its 32.8 ms cell is "
                                  "-18 %: one source's small samples",
    "tt340-qwen3-14b-a100-ttft-1024in-128out": "-40 %: the mean of 4 requests (284.0 ms) equals the sweep's "
                                  "2 048-token row (282.8 ms, +18 %) for half its FLOPs: 2.75e13 FLOPs in 284 ms is "
                                  "31 % of the A100's 312 TFLOPS where the 2 048-, 3 072- and 8 192-token rows imply "
                                  "63-78 %: one source's small samples, no MFU fitted on them",
    "tt340-qwen3-14b-a100-ttft-3072in-128out": "+40 %: the mean of 4 requests implies 76 % of the A100's 312 TFLOPS "
                                  "(2 x 13.2e9 x 3 072 + 2 x 40 x 5 120 x 3 072^2 = 8.50e13 FLOPs in 359.1 ms) where "
                                  "the core takes MFU 0.6; the same sweep's 4 096-token row is below the physical "
                                  "limit (skipped): one source's small samples, no MFU fitted on them",
    "tt340-qwen3-14b-a100-ttft-8192in-128out": "+37.5 %: the mean of 2 requests implies 78 % of the A100's 312 "
                                  "TFLOPS (2 x 13.2e9 x 8 192 + 2 x 40 x 5 120 x 8 192^2 = 2.44e14 FLOPs in "
                                  "1 000.2 ms) where the core takes MFU 0.6, as tt340-qwen3-14b-a100-ttft-3072in-128out",
    "baseten-trtllm-mixtral-int8-a100-ttft-512in": "TensorRT-LLM's Mixtral int8 of early 2024 is weight-only "
                                  "(W8A16) where the core runs int8 on Ampere as W8A8 at 1.35 x FP16 (kernels.py): "
                                  "as W8A16 (FP16 compute x the weight-only factor 0.75) the estimate is about "
                                  "101 ms (-21 %); the blog states neither the kernel nor the version",
}
# DeepSeek-R1 FP8 served by InferenceX's single-node recipes (tests/data/measurements.yaml, inferencex-*, held out):
# at 1-2 in flight on B200/B300 the measured TPOT (ms, the row's value) is below the core's step floor; reason in
# _MOE_FLOOR.
_MOE_FLOOR = ("below the core's step floor: 61 layers x (64 us kernel floor + 2 all-reduces of 26 us at TP 8) = 7.1 "
              "ms plus 58 MoE layers x (44.8 us of grouped-expert kernels + 19.2 us for the shared expert) = 3.7 ms, "
              "10.8 ms at TP 8; the 7.0-7.2 ms measured at concurrency 1 at TP 8 on B200/B300 fit the layers' term "
              "alone: the floor's 6.4 us a kernel (an eagerly launched kernel, ahrefs/ocannl #488) is above what a "
              "CUDA-graph replay takes on Blackwell (the layers' term matched until the MoE term counted fused "
              "kernels; nothing fitted on these rows). TensorRT-LLM 1.3 at 4 in flight adds the eager launches the "
              "core assumes for TensorRT-LLM (EAGER_DECODE, 61 x 48 us): 13.8 ms")
_MOE_FLOOR_ROWS = {
    "inferencex-sglang0512-deepseek-r1-fp8-8xb200-tpot-1024in-c1": 7.18,
    "inferencex-sglang0512-deepseek-r1-fp8-8xb200-tpot-1024in-c2": 7.93,
    "inferencex-sglang0512-deepseek-r1-fp8-8xb300-tpot-1024in-c1": 7.04,
    "inferencex-sglang0512-deepseek-r1-fp8-8xb300-tpot-1024in-c2": 7.64,
    "inferencex-sglang0512-deepseek-r1-fp8-8xb300-tpot-8192in-c1": 7.23,
    "inferencex-sglang0512-deepseek-r1-fp8-8xb300-tpot-8192in-c2": 8.08,
    "inferencex-trtllm130rc14-deepseek-r1-fp8-8xb200-tpot-1024in-c4": 8.69,
}
ALLOW.update({row: f"{ms} ms a token measured, " + _MOE_FLOOR for row, ms in _MOE_FLOOR_ROWS.items()})
ALLOW["inferencex-sglang-deepseek-r1-fp8-8xh200-tpot-1024in-1024out-c4"] = (
    "-52 %: 22.73 ms a token at 4 in flight, where the same engine, model and GPUs decode in 12.8 ms at 8 in flight "
    "and 17.2 ms at 16 (#870's sweep) and 10.9-12.1 ms at 4 in flight with other lengths (#870's own concurrency-4 "
    "comment): the core gives 10.9 ms; one run on another runner, not explained by the rows")
_R1_TTFT_C1 = ("DeepSeek-R1 FP8 alone on SGLang 0.5.12: the core's prefill + SGLang's 6.5 ms a request is 31.3 ms for "
               "1 024 tokens at TP 8 on B200 and B300 alike (4 500 dense FP8 TFLOPS each in the catalog); measured "
               "160.4 ms on B200 and 70.9 ms on B300 with the same image and server flags, 2.3 x apart at equal rates, "
               "and at 8 192 tokens 288.1 ms (TP 8) and 380.9 ms (TP 4) against 84.2 and 117.1 ms: one run of 10 "
               "prompts per point; what the remaining 40-264 ms is, the rows do not say (docs/accuracy.md, "
               "'MoE prefill')")
ALLOW.update({row: _R1_TTFT_C1 for row in (
    "inferencex-sglang0512-deepseek-r1-fp8-8xb200-ttft-1024in-c1",
    "inferencex-sglang0512-deepseek-r1-fp8-8xb300-ttft-1024in-c1",
    "inferencex-sglang0512-deepseek-r1-fp8-8xb300-ttft-8192in-c1",
    "inferencex-sglang0512-deepseek-r1-fp8-4xb300-ttft-8192in-c1")})
# Regimes compared and reported (benchmarks.accuracy: median, p90, bias) but not yet held to their kind's
# ceiling, with why: judgements on a whole (kind, regime), as ALLOW is on single rows.
OPEN_REGIMES = {
    ("ttft", "mid"): "TTFT at a fixed concurrency of 2-49 (NIM 1.8.0 / AIPerf, a closed loop) measures 1.2-14 x "
                     "the single-request TTFT (Llama-3.1-8B FP8, 1 000-token prompts: 19 ms alone, 268 ms at 25 "
                     "in flight, where the ITL rises only 4.5 -> 5.8 ms); the steady state's M/D/1 queue of "
                     "prefills gives 29 ms: what holds a new prompt back (the scheduler's admission, the "
                     "frontend's queue, prefills in lock-step) is not modelled (docs/accuracy.md, 'TTFT by regime')",
    ("ttft", "saturated"): "as ('ttft', 'mid'); beyond the engine's capacity the wait for admission is modelled "
                           "(load.admission_wait_s: 20 000-token prompts at 100-250 in flight within +19 to +26 %), "
                           "below it the same gap",
}
# Frameworks outside the core's declared scope (MBU/MFU are vLLM/TensorRT-LLM figures): eager HF
# transformers generation is kernel-launch bound. The error is still computed and shown.
OUT_OF_SCOPE = ("HF transformers",)


def row_engine(row: dict) -> str:
    """The serving engine a row measured: its `engine`, else from its framework, else 'other'."""
    if row.get("engine"):
        return row["engine"]
    framework = row.get("framework") or ""
    return next((engine for prefix, engine in FRAMEWORK_ENGINES if prefix in framework), "other")


def stated_version(row: dict) -> tuple[int, int] | None:
    """The engine version a row states, (major, minor): its `engine_version`, else a 'vLLM X.Y' in its
    framework; None where it states none."""
    found = re.search(r"vLLM ~?(\d+\.\d+)", row.get("framework") or "")
    return parse_version(row.get("engine_version")) or (parse_version(found.group(1)) if found else None)


def engine_assumptions(row: dict, a: Assumptions) -> Assumptions:
    """The constants of the engine version a row ran: its stated utilisation; vLLM < 0.17 with llm-d's
    first figures (activation 4.8-5.6 GiB dense, 7.4-8 MoE, non-torch 0.13 / 0.55 GiB); vLLM < 0.21
    without CUDA graphs in the budget; a stated vLLM < 0.12 with its synchronous host
    (`engine_versions.version_assumptions`). Rows of other engines keep the defaults."""
    if row_engine(row) != "vllm":
        return a
    version = parse_version(row.get("engine_version")) or (0,)
    framework = row.get("framework") or ""
    if version == (0,) and "version not stated" in framework:
        version = (0, 11)  # llm-d's sibling write-up of the same runs: vllm/vllm-openai:v0.11.0
    changes = {}
    if version < (0, 21):
        changes["cuda_graph_gib"] = exact(0.0, "GiB per GPU", "vLLM < 0.21: CUDA graphs outside the budget")
        changes["vllm_memory_utilization"] = exact(float(row.get("gpu_memory_utilization") or 0.9),
                                                   "share of device memory", "the row's stated utilisation")
    elif row.get("gpu_memory_utilization"):
        changes["vllm_memory_utilization"] = float(row["gpu_memory_utilization"])
    if version < (0, 17):
        changes["activation_dense_gib"] = ranged(4.8, 5.6, "GiB per GPU", LLMD, "vLLM <= 0.16", value=4.8)
        changes["activation_moe_gib"] = ranged(7.4, 8.0, "GiB per GPU", LLMD, "vLLM <= 0.16")
        changes["non_torch_tp1_gib"] = exact(0.13, "GiB per GPU", LLMD)
        changes["non_torch_tpn_gib"] = exact(0.55, "GiB per GPU", LLMD)
    a = a.override(**changes) if changes else a
    stated = stated_version(row)
    return version_assumptions("vllm", "%d.%d" % stated, a) if stated is not None else a


__all__ = ["FRAMEWORK_ENGINES", "SKIP", "CEILINGS", "ALLOW", "OUT_OF_SCOPE", "row_engine", "engine_assumptions",
           "stated_version"]
