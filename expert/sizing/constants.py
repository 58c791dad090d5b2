"""Every constant a sizing formula uses: value (or low/high band), unit and source.

Each constant is a `Constant` record; `Assumptions` bundles them and every public sizing function
takes an optional `assumptions` argument (default: `DEFAULT`). Override with
`DEFAULT.override(mbu=0.8, train_mfu=(0.3, 0.45))`; overridden values carry the source
"override by caller". Where a source gives a range the record keeps it (`low`/`high`) and `value` is
the point used for single-number answers: the midpoint unless the record says otherwise.

Documents: `000` = "KI-Agenten in Produktion: die richtige GPU wählen", `004` = "Hardware-Empfehlung:
Lokale KI-Infrastruktur" (German originals in docs/sources). Public references are given as a URL,
an arXiv id with section, or `owner/repo:path`. Memory is in decimal GB (1e9 bytes) like document 000;
vLLM's measurements are in GiB and converted with `GIB`.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
from dataclasses import dataclass, field

from expert.catalog.models import Band

GB = 1e9
GIB = 2**30 / 1e9  # GB per GiB

D000_DIM = '000 "Die vier Dimensionen der GPU-Dimensionierung"'
D000_A100 = '000 "NVIDIA A100, die vielseitige Referenz-GPU"'
D000_H100 = '000 "NVIDIA H100: rohe Leistung für intensive Lasten"'
D000_L40S = '000 "NVIDIA L40S: die auf Inferenz optimierte Alternative"'
D000_U2 = '000 "Analytischer Agent (Modell 13-34B)"'
D000_U3 = '000 "Komplexer multimodaler Agent (Modell ab 70B)"'
D000_M2 = '000 "Fehler 2: den Fine-Tuning-Bedarf unterschätzen"'
D000_M5 = '000 "Fehler 5, die Entwicklung der Modelle vergessen"'
D000_TCO = '000 "TCO-Analyse und wirtschaftliche Überlegungen", "Gesamtbetriebskosten über 36 Monate"'
D000_BUY = '000 "TCO-Analyse und wirtschaftliche Überlegungen", "Break-even: mieten oder kaufen"'
D000_TRENDS = '000 "Beobachtete Trends und erwartete Entwicklungen"'
D004_TP = '004 "Hintergrund: Durchsatz nach Server-Art"'
LLMD = "llm-d/llm-d-benchmark:config_explorer/empirical-vllm-memory-results.md (H100, vLLM)"
REFS = "docs/notes/sizing-references.md"
LLMD_019 = ("jgchn/llm-d-planner@30ec05f7cab43782bdfa4f529aef70e06ff9f149:accuracy/results/v0.19.0/results_raw.csv "
            "(vLLM 0.19.0, H100 80 GB)")
VLLM_CACHE = "vllm-project/vllm@002f10e0cfa1373a19a0d2756598a34b700d20e5:vllm/config/cache.py"
OVERRIDE = "override by caller"
CUBLAS_129 = ("https://developer.nvidia.com/blog/boosting-matrix-multiplication-speed-and-flexibility-with-nvidia-"
              "cublas-12-9/ (NVIDIA, cuBLAS 12.9)")
FA3 = ("Shah et al. arXiv:2407.08608; pytorch/pytorch.github.io@125600c3f846e902ce6d306fa41a0120107b5657:"
       "_posts/2024-07-11-flashattention-3.md")
DEEPGEMM = "deepseek-ai/DeepGEMM@0274ad7b911b99b4eb6f8d796403811cf1e18f3d:README.md, News 2025.04.18"
XLA_SM90 = ("tensorflow/tensorflow@372d578bb861cc5804e56d37d93aec931a59762c:third_party/xla/xla/service/gpu/model/"
            "matmul_interpolator_data.h (b 1, m = n = k = 4096: 783 328 793 548 203 FLOP/s)")
TRTLLM_GRAPHS = ("NVIDIA/TensorRT-LLM@879039f6d58336c8208f082550757686ece29ae7:cpp/include/tensorrt_llm/executor/"
                 "executor.h (ExtendedRuntimePerfKnobConfig: cudaGraphMode = false); NVIDIA/TensorRT-LLM #402 "
                 "(2023: 'We don't support CUDA graph with in-flight batching')")


@dataclass(frozen=True)
class Constant:
    """One sourced number: `value` is the point used; `low`/`high` the band (equal when exact)."""

    value: float
    unit: str
    source: str
    low: float | None = None
    high: float | None = None
    note: str = ""

    def __post_init__(self) -> None:
        if self.low is None:
            object.__setattr__(self, "low", self.value)
        if self.high is None:
            object.__setattr__(self, "high", self.value)
        if not self.low <= self.value <= self.high:
            raise ValueError(f"constant {self.value} outside its band {self.low}..{self.high}")

    @property
    def band(self) -> Band:
        """The low/high band as a catalog `Band`."""
        return Band(low=self.low, high=self.high)

    def cite(self) -> str:
        """`value unit (source)`, for provenance lists."""
        span = f"{self.value:g}" if self.low == self.high else f"{self.value:g} [{self.low:g}–{self.high:g}]"
        return f"{span} {self.unit} ({self.source})"


def exact(value: float, unit: str, source: str, note: str = "") -> Constant:
    """A constant without a range."""
    return Constant(value, unit, source, note=note)


def ranged(low: float, high: float, unit: str, source: str, note: str = "",
           value: float | None = None) -> Constant:
    """A constant given as a range; the point is the midpoint unless `value` is given."""
    return Constant((low + high) / 2 if value is None else value, unit, source, low, high, note)


def _bytes_per_param() -> dict[str, Constant]:
    b = "bytes/parameter"
    return {
        "fp32": exact(4, b, "IEEE 754 single precision"),
        "bf16": exact(2, b, "bfloat16"),
        "fp16": exact(2, b, "IEEE 754 half precision; 000 D1: 7B needs 14-16 GB in FP16"),
        "fp8": exact(1, b, "FP8 E4M3 (one scale per tensor, negligible)"),
        "int8": Constant(1.0, b, "000 D1: 7B needs 7-8 GB in INT8", 1.0, 1.06,
                         "point: per-channel fp16 scales (SmoothQuant/TensorRT-LLM W8A8) add ~2/4096 "
                         "= 0.05 %; high: bitsandbytes LLM.int8() +6 % (" + REFS + ")"),
        "int4": Constant(0.5 + 2 / 128, b, "GPTQ arXiv:2210.17323 / AWQ arXiv:2306.00978, group size "
                         "128 (AutoGPTQ/AutoAWQ packing)", 0.5 + 2 / 128, 0.5 + 2.5 / 128,
                         "4 bits + one fp16 scale per group of 128 = +3.1 %; high adds a packed 4-bit "
                         "zero point per group (asymmetric) = +3.9 %"),
        "mxfp4": exact(4.25 / 8, b, "OCP Microscaling Formats (MX) v1.0 §5: blocks of 32 FP4 (E2M1) elements "
                       "sharing one 8-bit (E8M0) scale = 4.25 bits; gpt-oss model card arXiv:2508.10925 §2 "
                       "('MXFP4 format ... 4.25 bits per parameter'), read 2026-12-04"),
        "nf4": exact(4.127 / 8, b, "QLoRA arXiv:2305.14314 §3 'Double Quantization': NF4 4 bits + "
                     "0.127 bits of constants per parameter = 0.516 B"),
    }


def _tp_scaling() -> dict[tuple[str, int], Constant]:
    x = "× one GPU"
    row = {2: ("TP 2 (160 GB)", 1.8, 1.8, 1.75, 1.8), 4: ("TP 4 (320 GB)", 3.3, 3.6, 2.8, 3.0),
           8: ("TP 8 (640 GB)", 5.5, 6.5, 4.0, 4.5)}
    table = {("sxm", 1): exact(1.0, x, D004_TP + ", TP 1"), ("pcie", 1): exact(1.0, x, D004_TP + ", TP 1")}
    for tp, (label, s_lo, s_hi, p_lo, p_hi) in row.items():
        table[("sxm", tp)] = ranged(s_lo, s_hi, x, f"{D004_TP}, {label}, SXM4/HGX (full mesh)")
        table[("pcie", tp)] = ranged(p_lo, p_hi, x, f"{D004_TP}, {label}, PCIe pairwise (bridge)",
                                     "004: 'often not worth it'" if tp == 8 else "")
    return table


@dataclass(frozen=True)
class Assumptions:
    """All constants of the sizing core, each a `Constant`; immutable, override with `override`."""

    bytes_per_param: dict[str, Constant] = field(default_factory=_bytes_per_param)
    # --- inference memory: serving engines (expert/sizing/engines.py; modelling-anchors.md §2) ---
    gpu_memory_utilization: Constant = exact(
        0.9, "share of GPU memory", "vLLM <= 0.20 default --gpu-memory-utilization 0.9 (" + LLMD + ")",
        "kept for fine-tuning plans (a training run's usable share); serving uses the per-engine budget "
        "rules of expert/sizing/engines.py (vLLM now 0.92: vllm_memory_utilization)")
    vllm_memory_utilization: Constant = exact(
        0.92, "share of device memory", VLLM_CACHE + " (gpu_memory_utilization default 0.92 since v0.21.0, "
        "PR #38284; CUDA graphs counted inside it)")
    activation_dense_gib: Constant = ranged(
        0.75, 4.0, "GiB per GPU", LLMD_019, "peak activation of vLLM's profiling pass (v0.17+ is ~60 % "
        "below v0.16), independent of max context: CodeLlama-7B 0.77, Phi-4 1.52, Llama-3.1-8B 1.89, "
        "Llama-3.3-70B 1.96, Qwen2.5-7B 2.21, Qwen2.5-72B 2.29, Gemma (256k vocabulary) 3.6-4.0", value=2.0)
    activation_moe_gib: Constant = ranged(
        1.2, 7.4, "GiB per GPU", LLMD_019, "MoE, vLLM 0.19: Mixtral TP2 1.21, DeepSeek-V2-Lite 1.93, "
        "Qwen3-30B-A3B 2.68, Kimi-VL-A3B 2.9; high: gpt-oss 7.38 on vLLM 0.11 (" + LLMD + ")", value=2.7)
    non_torch_tp1_gib: Constant = ranged(0.24, 0.27, "GiB per GPU", LLMD_019 + ": non-torch memory at TP 1",
                                         value=0.25)
    non_torch_tpn_gib: Constant = ranged(2.06, 2.21, "GiB per GPU", LLMD_019 + ": non-torch memory at "
                                         "TP >= 2 (NCCL buffers)", value=2.1)
    cuda_graph_gib: Constant = ranged(
        0.5, 1.9, "GiB per GPU", LLMD_019 + " (cuda_graph_estimated 0.52-1.82 GiB on H100)",
        "subtracted inside the vLLM budget since v0.21 (PR #38284); v0.21 log on 6x RTX 3090: 0.17 GiB "
        "(noonghunna/club-3090 #127)", value=0.9)
    device_visible_share: Constant = exact(
        0.99, "× nominal GiB", LLMD_019 + ": torch reports 79.19 GiB total on an H100 80 GB",
        "the catalog's 'GB' of a GPU are binary GiB (RTX 4090 24564 MiB, A100 80 GB 81920 MiB); the "
        "driver keeps ~1 %")
    gddr6_ecc_share: Constant = exact(
        15 / 16, "× nominal GiB", "SGLang table in docs/notes/modelling-anchors.md §2.1: L40S reports "
        "46 068 MiB of 48 GiB", "GDDR6 data-centre cards (L4, A10, L40S) run with ECC, which keeps 1/16")
    trt_free_fraction: Constant = exact(
        0.9, "share of free memory", "https://nvidia.github.io/TensorRT-LLM/examples/kvcacheconfig.html "
        "(KvCacheConfig.free_gpu_memory_fraction default 0.9, of the memory free after weights and "
        "activations)")
    llamacpp_margin_gib: Constant = exact(
        1.0, "GiB per GPU", "ggml-org/llama.cpp #18390 ('-fitt, --fit-target MiB ... default: 1024')")
    llamacpp_compute_gib: Constant = ranged(
        0.1, 0.7, "GiB per GPU", "llama.cpp compute buffer: 105 MiB at n_ctx 512 (mozilla-ai/llamafile "
        "PR #552), 672 MiB at n_ctx 4096 with pipeline copies (ggml-org/llama.cpp PR #6122)", value=0.4)
    default_prompt_tokens: Constant = exact(1500, "tokens", "workload default (CONTRACT.md example)")
    default_output_tokens: Constant = exact(250, "tokens", "workload default (CONTRACT.md example)")
    vram_reserve: Constant = ranged(0.30, 0.50, "share of VRAM", D000_M5 + " (M5)")
    growth_context_below_b: Constant = exact(
        20, "billion parameters", D000_M5 + " (M5): its reserve is for a 7B agent that may need 13B or 20B "
        "within 12-18 months; rules/mistakes.yaml m5-* uses the same bound")
    # --- fine-tuning memory ---
    ft_weight_bytes: Constant = exact(2, "bytes/parameter", "ZeRO arXiv:1910.02054 §3.1: fp16 weights 2Ψ")
    ft_gradient_bytes: Constant = ranged(2, 4, "bytes/parameter", "ZeRO arXiv:1910.02054 §3.1: fp16 "
                                         "gradients 2Ψ", "high: fp32 gradient buffers, 18-20 B/param in "
                                         "common implementations (" + REFS + ")", value=2)
    ft_optimizer_bytes: Constant = ranged(12, 14, "bytes/parameter", "ZeRO arXiv:1910.02054 §3.1: Adam "
                                          "K=12 (fp32 master, momentum, variance)",
                                          "total 16 B/param (band 16-20)", value=12)
    lora_rank: Constant = exact(16, "rank", "assumption: common LoRA default (PEFT/Unsloth examples use "
                                "r=8-64); adapted matrices q,k,v,o")
    ft_seq_len: Constant = exact(2048, "tokens", "assumption: common fine-tuning max_seq_length")
    ft_micro_batch: Constant = exact(1, "sequences per GPU", "assumption: micro-batch 1 with gradient "
                                     "accumulation")
    act_linear_coeff: Constant = exact(34, "bytes per s·b·h per layer", "Korthikanti et al. "
                                       "arXiv:2205.05198 §4.1 eq. 1 (16-bit, no recompute)")
    act_quadratic_coeff: Constant = exact(5, "bytes per a·s²·b per layer", "Korthikanti et al. "
                                          "arXiv:2205.05198 §4.1; dropped with FlashAttention")
    act_recompute_coeff: Constant = exact(2, "bytes per s·b·h per layer", "Korthikanti et al. "
                                          "arXiv:2205.05198 §5: full recompute stores the layer input")
    logits_bytes: Constant = exact(4, "bytes per s·b·vocab", "fp32 logits for the cross-entropy loss "
                                   "(Hugging Face causal-LM heads upcast logits with .float())")
    qlora_unquantised_bytes: Constant = exact(2, "bytes/parameter", "bitsandbytes 4-bit replaces the blocks' "
                                              "nn.Linear layers only; embeddings and lm_head stay 16-bit "
                                              "(counted untied: 2 × vocab × hidden)")
    cuda_context_gb: Constant = exact(0.65, "GB per GPU", "gpu_poor (RahulSChand/gpu_poor): +650 MB "
                                      "CUDA context (" + REFS + ")")
    doc_finetune_multiplier: Constant = ranged(3, 4, "× inference memory", D000_DIM + " (D2)")
    # --- fine-tuning time ---
    flops_full: Constant = exact(6, "FLOP per parameter per token", "Kaplan et al. arXiv:2001.08361 "
                                 "§2.1: forward 2N + backward 4N")
    flops_lora: Constant = ranged(4, 4.8, "FLOP per parameter per token", "no weight gradients: "
                                  "forward 2N + input gradients 2N (Narayanan et al. arXiv:2104.04473 "
                                  "§5.1: backward = 2 × forward)", "high 4.8 = 6/1.25: LoRA "
                                  "arXiv:2106.09685 §4.2 measured only a 25 % speed-up on GPT-3",
                                  value=4)
    train_mfu: Constant = ranged(0.35, 0.50, "model FLOPS utilisation", "training MFU 0.35-0.5 (" + REFS
                                 + ")", "point 0.40 (lower half: fine-tuning runs small batches); "
                                 "reference GPU A100 80 GB SXM", value=0.40)
    h100_finetune_speedup: Constant = ranged(
        2.8, 3.0, "× A100 80 GB", D000_H100 + " (G4: 2.8×, vendor) and " + D000_U3 + " (U3: 15 → 5 "
        "days = 3×)", "CALIBRATION TARGET: fixes the bandwidth-per-FLOP exponent of the training "
        "efficiency (expert/sizing/training.py)")
    gddr_finetune_slowdown: Constant = ranged(
        3.0, 4.0, "× A100 80 GB run time (L40S)", D000_M2 + " (M2: 3-4× slower; 48 h → 6 days = 3×)",
        "CALIBRATION TARGET: fixes the GDDR memory-class factor of the training efficiency. Contradicted for "
        "LoRA by torchtune's RTX 4090 row (8B LoRA 3 083 tok/s ≈ 60 % MFU, 5-7× above what this factor "
        "predicts, docs/notes/modelling-anchors.md §3.2): M2's slowdown fits a 13B run that does not fit "
        "48 GB better than a bandwidth limit (docs/fine-tuning.md §6). Also contradicted by CUDO Compute's "
        "single-GPU BERT-base fine-tune (https://www.cudocompute.com/blog/real-world-gpu-benchmarks, read "
        "2026-12-05: L40S ≈ 5× the A100 PCIe's training tokens/s; a vendor blog, a 110 M-parameter model, "
        "implausibly high - it says only that the L40S is not slower). Issue 33 item 6 cites LoRA throughput "
        "0.6-1.0× the A100; no LLM LoRA measurement of both GPUs in one setup was found, so the target stays "
        "the document's 3-4× and the gap is stated here")
    default_dataset_tokens: Constant = ranged(
        10e6, 415e6, "tokens per run", "assumption (issue 12): 100 M tokens = about 50 000 examples of "
        "2 048 tokens; the data is the company's, so it does not grow with the model",
        "band: low 10 M (a few thousand instructions), high 415 M = what " + D000_M2 + " implies: 13B LoRA "
        "48 h on one A100 80 GB SXM at MFU 0.40 and 4 FLOP/param/token = 48 × 3600 × 312e12 × 0.40 / "
        "(4 × 13e9) = 414.7e6 tokens (311e6 at the job planner's LoRA MFU point 0.30, expert/sizing/ft_job.py)",
        value=100e6)
    team_hourly_rate_chf: Constant = exact(150, "CHF/hour", D000_U2 + " (U2)")
    idle_min_saving_chf_per_night: Constant = ranged(
        37.5, 150, "CHF per night of degraded service", "own estimate (issue 33): each night the serving GPUs "
        "train, someone stops the serving engine, resumes the run from its checkpoint, restores serving in the "
        "morning and checks it: 0.25-1 h of an engineer at " + D000_U2 + "'s 150 CHF/h, point 0.5 h = 75 CHF",
        "the serving GPUs' idle nights go to a run only when they save more than this per night against the best "
        "other source, after the degraded service's cost (expert/configurator/idle_nights.py); the issue's cases "
        "fall below it: 11 nights to save 135 CHF a run (12 CHF a night), 2 nights to save 4 CHF", value=75)
    checkpoint_bytes: Constant = exact(
        14, "bytes per trainable parameter", "16-bit weights 2 + fp32 master weights and Adam moments 12 (ZeRO "
        "arXiv:1910.02054 §3.1); gradients are not saved. BigScience's 176B BLOOM: 'only the bf16 weights are "
        "329GB, the full checkpoint with optimizer states is 2.3TB' (https://bigscience.notion.site/BigScience-"
        "176B-Model-ad073ca07cdf479398d5f95d88e218c4): 176.2e9 × 2 B = 329 GiB, × 14 B = 2.24 TiB",
        "LoRA/QLoRA save the adapters and their optimizer state only; the frozen base model is not saved")
    checkpoints_kept: Constant = exact(
        2, "checkpoints", "Hugging Face TrainingArguments.save_total_limit: 'When save_total_limit=1 and "
        "load_best_model_at_end, it is possible that two checkpoints are saved: the last one and the best one' "
        "(transformers docs, training_args.py)", "own default: the latest (to resume a run that spans nights "
        "or is interrupted) and one earlier or best one (a write cut off by the morning restore, or a diverged "
        "run); the library's own default (None) keeps every checkpoint. The storage is stated in GB and not "
        "priced: the catalog holds no storage price read from a dated, cited source (knowledge/offers.yaml "
        "prices GPUs; Scaleway's entry notes block storage billed apart without a price), and an undated "
        "figure would be invented precision; the plan's checkpoint line says so")
    # --- reference GPUs of the calibration (000 figures, gpu-specs.csv) ---
    ref_a100_tflops: Constant = exact(312, "TFLOPS dense FP16", "A100 80 GB SXM datasheet "
                                      "(docs/reference/gpu-specs.csv)")
    ref_a100_bandwidth: Constant = exact(2039, "GB/s", D000_A100 + " (G1)")
    ref_h100_tflops: Constant = exact(989.4, "TFLOPS dense FP16", "H100 SXM5 datasheet (gpu-specs.csv)")
    ref_h100_bandwidth: Constant = exact(3350, "GB/s", D000_H100 + " (G3)")
    ref_l40s_tflops: Constant = exact(362.05, "TFLOPS dense FP16", "L40S datasheet (gpu-specs.csv)")
    ref_l40s_bandwidth: Constant = exact(864, "GB/s", D000_L40S + " (G6)")
    # --- speed ---
    mbu: Constant = ranged(0.60, 0.85, "memory bandwidth utilisation", "vLLM/TensorRT-LLM decode 0.6-0.85 ("
                           + REFS + "); llmfit 0.55, aiconfigurator 0.8")
    kv_read_efficiency: Constant = ranged(
        0.79, 0.89, "× peak bandwidth on the KV cache's decode reads", "microsoft/onnxruntime PR #21414 "
        "'[CUDA] Page Attention' (nvbench tables, read 2026-12-05): paged decode attention, 64 sequences, 32 "
        "heads, page 16, on a 3.35 TB/s card (H100 SXM, from the table's own BWUtil column): head 128 at 512 "
        "tokens 2.796 TB/s = 83.4 %; at 1 024 tokens 1.000 GiB read in 361.5 µs = 2.97 TB/s = 88.7 %; head 96 "
        "at 512 tokens 79.4 %", "point: the 1 024-token row (a serving step reads GBs of KV; the PR's utilisation "
        "still rises with length there); band: its rows at >= 512 tokens. Short contexts read less well (128 "
        "tokens: 58-65 %), where the KV term is small. The weights' GEMVs stay at `mbu`", value=0.89)
    mfu: Constant = ranged(0.50, 0.70, "model FLOPS utilisation", "prefill GEMMs 0.5-0.7 (" + REFS + ")")
    weight_only_efficiency: Constant = ranged(
        0.5, 1.0, "× MBU on weight reads and × MFU", "QServe arXiv:2405.04532 (INT4 weight-only kernels: "
        "20-90 % runtime overhead from dequantisation); whichllm MBU 0.4-0.56 for quantised weights (" + REFS + "); "
        "gpt-fast int8 Llama-2-7B on A100 reads at 0.74 of its FP16 rate (tests/data/measurements.yaml)",
        "weight-only kernels only (W4A16, W8A16: `kernels.py`); W8A8 and FP4 kernels read and compute at full "
        "rate; the KV cache is read at `kv_read_efficiency`. Marlin's kernel alone is near-ideal up to batch 16-32 "
        "(IST-DASLab/marlin README): end to end the measured rows are not", value=0.75)
    kernel_floor_ms_per_layer: Constant = ranged(
        0.04, 0.1, "ms per decoder layer and step", "(derived) ~10 kernels per decoder layer (RMSNorm, QKV, "
        "RoPE, attention, o_proj, RMSNorm, gate-up, activation, down, residual; paiml/trueno #238 counts ~15 "
        "ops per layer) × 6.4 µs, the launch-to-completion time of one small kernel (ahrefs/ocannl #488: "
        "6.29-6.49 µs per launched kernel)", "a floor per step: batch-1 decode of small models and MoE is "
        "launch-bound (turboderp-org/exllamav3 PR #380: 914 launches, 14.8 ms wall vs 11.7 ms kernel time)",
        value=0.064)
    kernel_floor_ms_per_expert: Constant = ranged(
        0.0128, 0.03, "ms per shared expert and MoE layer; per routed expert where the MoE block loops over "
        "its experts", "(derived) ~3 kernels per expert (gate-up GEMM, activation, down GEMM) × 6.4 µs "
        "(ahrefs/ocannl #488)", "a shared expert is a dense MLP of its own on every engine; routed experts run "
        "as kernels of their own only where the MoE block loops over the experts hit (`engine_speed.UNFUSED_MOE`: "
        "Transformers), elsewhere `kernel_floor_ms_per_moe_layer`", value=0.0192)
    kernel_floor_ms_per_moe_layer: Constant = ranged(
        0.032, 0.0576, "ms per MoE layer and step", "(derived) the serving engines run all routed experts of a "
        "layer in grouped kernels, as many whatever the experts routed to: vLLM's fused MoE "
        "(vllm-project/vllm@000d1458:vllm/model_executor/layers/fused_moe/fused_moe.py, fused_experts_impl) "
        "launches the router GEMM, top-k, moe_align_block_size, one fused_moe_kernel for every expert's gate-up "
        "projection, the activation, one for every expert's down projection and moe_sum: 7 kernels × 6.4 µs "
        "(ahrefs/ocannl #488)", "point 7 kernels; low 5 (routing fused into the GEMMs), high 9 (FP8 adds the "
        "quantisation of each GEMM's input). Cross-check, not fitted: DeepSeek-R1 FP8 at TP 8, SGLang 0.5.12 on "
        "8 × B200/B300 at concurrency 1 decodes in 7.0-7.2 ms (InferenceX, rows inferencex-sglang0512-*), where a "
        "floor of 3 kernels per routed expert gave 17.1 ms and this one gives 10.8 ms", value=0.0448)
    allreduce_us: Constant = ranged(
        6, 26, "µs per all-reduce of one decode step's activations", "NVIDIA/nccl #1259 (~6 µs at 2 H100, "
        "NVLS, CUDA graphs); NVIDIA/nccl #1453 (NCCL's model: 25.9 µs for 4-8 KB on H100 nodes)",
        "point by TP: 6 µs at TP 2, 16 at TP 4, 26 at TP 8 (log-linear); two per layer under Megatron tensor "
        "parallelism (Shoeybi et al. arXiv:1909.08053 §3)", value=16)
    pcie_gen4_gbs: Constant = exact(31.5, "GB/s per direction", "PCI-SIG: PCIe 4.0 x16, 16 GT/s × 16 lanes, "
                                    "128b/130b", "Ampere and Ada cards; Hopper and Blackwell PCIe cards use 5.0 (×2)")
    fp32_tensor_ratio: Constant = exact(0.5, "× FP16 dense", "NVIDIA A100 datasheet: TF32 156 vs FP16 312 TF")
    tp_scaling: dict[tuple[str, int], Constant] = field(default_factory=_tp_scaling)
    c8_sxm_per_card: Constant = exact(0.92, "per card", D004_TP + " (C8: NVLink ≈ 0.92×, 2 SXM ≈ 1.84×)")
    c8_pcie_per_card: Constant = ranged(0.70, 0.78, "per card", D004_TP + " (C8: PCIe 0.70-0.78×)")
    c8_pcie_benchmark: Constant = ranged(0.61, 0.74, "per card", D004_TP + " (C8: real 4-GPU PCIe benchmark)")
    fp8_gain_vendor: Constant = ranged(0.30, 0.60, "throughput gain", D000_H100 + " (G3, NVIDIA)")
    fp8_gain_observed: Constant = ranged(0.20, 0.50, "throughput gain", D000_H100 + " (G3, production)")
    fp8_prefill_speedup: Constant = ranged(
        1.6, 2.0, "× FP16 dense TFLOPS", CUBLAS_129 + ": on Hopper FP8 matmuls (channel- and block-scaled) run "
        "1.75 × the BF16 baseline for large matmuls, at least 1.25 × for most other shapes (point: a prompt's "
        "GEMMs have thousands of rows)", "native FP8 only, prefill (and prefill chunks) only: decode steps keep "
        "G3's production gain (fp8_gain_observed). Low: FlashAttention-3 on H100 SXM5, FP16 up to 740 TFLOPS, "
        "FP8 close to 1.2 PFLOPS = 1.62 × (" + FA3 + "); high: the datasheet's dense FP8 1 978.9 / FP16 989.4 = "
        "2.0 (docs/reference/gpu-specs.csv), DeepGEMM's up to 1 550 TFLOPS FP8 on H800 (" + DEEPGEMM + ") = 1.98 "
        "× the 783 TFLOPS of BF16 at 4096³ in XLA's measured sm_90 table (" + XLA_SM90 + "). Cross-check, not "
        "fitted: NIM's Llama-3.3-70B FP8 TP 2 prefills 5 000 tokens in 406.8 ms = 888 TFLOPS per H100, which at "
        "MFU 0.6 and 004's TP-2 efficiency 0.9 is 1.66 × FP16", value=1.75)
    eager_decode_ms_per_layer: Constant = ranged(
        0.0275, 0.069, "ms per decoder layer and decode step", "sgl-project/sglang PR #1401 (Llama-3-8B, 32 "
        "layers, batch 1, sglang.bench_latency on an H100-class GPU: 16 GB in 7.06 ms is above an A100's "
        "2.04 TB/s): decode 8.23 ms without CUDA graphs vs 7.35 ms with them (FlashInfer) = +27.5 µs per "
        "layer, 9.28 vs 7.06 ms (Triton attention) = +69 µs", "added to every decode step of an engine that "
        "launches each step's kernels from the host instead of replaying a CUDA graph (engine_speed."
        "EAGER_DECODE: TensorRT-LLM's C++ executor, CUDA graphs off by default, " + TRTLLM_GRAPHS + "). Point: "
        "the midpoint. Cross-checks, not fitted: NIM 1.8.0's batch-1 ITL lies 33-38 µs per layer above the "
        "roofline (Llama-3.1-8B FP8 4.53 ms vs 3.33, Llama-3.3-70B FP8 TP 2 18.67 vs 16.07), TensorRT-LLM "
        "0.5's GPT-J FP16 on an A100 39 µs (111 tok/s = 9.0 ms against a 7.9 ms roofline)")
    host_ms_per_step: Constant = exact(
        0.0, "ms per decode step", "current vLLM overlaps the host's work on a step (scheduling, input preparation, "
        "output processing) with the GPU's: async scheduling is on by default (vllm-project/vllm PR #27614 '[Core] "
        "Enable async scheduling by default', 2025-10-27; vllm-project/vllm-ascend PR #9567 at vLLM 0.20.2: 'now "
        "enabled by default')", "an engine whose loop is synchronous leaves the GPU idle meanwhile: rows of vLLM "
        "< 0.12 take `SYNC_HOST_MS_PER_STEP` (engine_versions.version_assumptions)")
    host_ms_per_sequence: Constant = exact(
        0.0, "ms per decoding sequence and step", "as host_ms_per_step: overlapped in current vLLM",
        "rows of vLLM < 0.12 take `SYNC_HOST_MS_PER_SEQUENCE` (V0 or V1, engine_versions.version_assumptions)")
    request_overhead_ms: Constant = ranged(
        4.1, 7.3, "ms per request, added to TTFT", "(derived) measured TTFT at concurrency 1 minus the "
        "roofline prefill of the same short prompt, where the prefill is too small for the roofline's own band "
        "to hide it: NIM 1.8.0 (TensorRT-LLM, AIPerf, streaming HTTP) Llama-3.1-8B FP8 on one H100 10.26 ms "
        "at 200 tokens vs 3.29 ms = 6.97 ms, 13.84 at 500 vs 7.73 = 6.11 ms, Llama-3.3-70B FP8 TP 2 47.77 at "
        "500 vs 40.43 = 7.34 ms (https://docs.nvidia.com/nim/benchmarking/llm/1.0.0/performance.md, Version "
        "1.8.0 tables); TensorRT-LLM 0.5's offline first-token latency (no HTTP) Llama-2-7B FP8 H100 7 ms at "
        "128 tokens vs 2.88 = 4.12 ms (NVIDIA/TensorRT-LLM@138f96d:docs/source/performance.md, Low Latency)",
        "what a server adds to a request's first token beside the GPU's prefill: tokenisation, scheduling, the "
        "first step's launch, detokenisation and the streamed response. Point: the median of the four (6.11, "
        "6.97 -> 6.5); low: the offline runtime without a server; high: NIM's 70B. Measured on TensorRT-LLM "
        "only: for vLLM and SGLang no concurrency-1 TTFT with model, GPU, prompt length and version stated "
        "was found (not found), so they take the same band (an assumption; NVIDIA's aiconfigurator "
        "ai-dynamo/aiconfigurator@00ae653:src/aiconfigurator/sdk/backends/vllm_backend.py instead multiplies "
        "its aggregated TTFT by min(2 + (steps - 3)/20, 4), about 1.9 at concurrency 1). Derived from the "
        "roofline as it stands: a faster FP8 prefill would raise it", value=6.5)
    cohort_admit_us_per_token: Constant = ranged(
        8.0, 12.0, "µs per prompt token and request ahead", "(fitted) NIM 1.8.0 (TensorRT-LLM, AIPerf closed "
        "loop) Llama-3.1-8B FP8 on one H100, TTFT at concurrency 5-250 and prompts of 200-20 000 tokens "
        "(https://docs.nvidia.com/nim/benchmarking/llm/1.0.0/performance.md, Version 1.8.0 tables; rows "
        "nim-llama31-8b-fp8-1xh100-ttft-* of tests/data/measurements.yaml): the value whose median signed "
        "TTFT error over those 35 rows is about 0 (8: -19 %, 12: +17 %)", "a closed-loop benchmark starts its "
        "N requests together and, with fixed output lengths, they finish and return together: each new prompt "
        "waits for the server's per-token work (tokenisation, scheduling, the prefill chunks) of the ones "
        "admitted before it, (n - 1)/2 prompts on average (load.cohort_wait_s). The cost does not scale with "
        "the model: NIM's Llama-3.3-70B FP8 TP 2 grows by 4-22 µs per token and request ahead at concurrency "
        "25-100 where the 8B grows by 6-10 (held out from the fit: median signed error +19 %). TensorRT-LLM "
        "only; other engines take the same band (an assumption)", value=10.0)
    cohort_budget_steps: Constant = ranged(
        20.0, 28.0, "steps' token budgets", "(fitted) the same 35 NIM 1.8.0 Llama-3.1-8B FP8 rows as "
        "cohort_admit_us_per_token (https://docs.nvidia.com/nim/benchmarking/llm/1.0.0/performance.md, Version "
        "1.8.0 tables; TensorRT-LLM's token budget per step max_num_tokens 8192, load.TRTLLM_CHUNK): at 5 000-"
        "token prompts the measured wait levels off at 0.6-0.9 s from concurrency 25 to 150 (TTFT 724, 818, "
        "915, 1 080 ms against 77 ms alone) where the whole cohort's (n - 1)/2 prompts would be 1.2-3.7 s; "
        "scanned 16-32 over the 35 rows (median |error|, signed): 16 18.2 %, -14.5 %; 20 14.5 %, -11.3 %; 24 "
        "17.5 %, -5.3 %; 28 17.5 %, -5.3 %; 32 18.2 %, -5.2 % (point 24: the smallest whose signed error is "
        "within 10 %)", "a closed-loop cohort that "
        "returns together is at most the prompts of this many steps' token budgets (load.chunk_tokens): n <= 1 + "
        "steps x budget / prompt (engine_speed.cohort_prompts_max), so a prompt waits for at most steps/2 "
        "budgets' tokens ahead on average (24 x 8 192 / 2 = 98 304 tokens, 0.98 s at 10 µs). The engine admits "
        "at most one budget of prompt tokens per step, so a larger cohort is spread over steps and does not "
        "return as one. Held out: NIM's Llama-3.3-70B TP 2 and the vLLM rows (benchmarks.accuracy). "
        "TensorRT-LLM only; other engines take the same number of their own budgets (an assumption)",
        value=24.0)
    int8_gain_h100: Constant = ranged(0.40, 0.60, "gain H100 over A100", D000_H100 + " (G4, INT8 inference)")
    software_gain: Constant = ranged(2.0, 3.0, "× throughput", D000_TRENDS + " (Q1: vLLM, TensorRT-LLM, SGLang)")
    int8_quality_loss: Constant = ranged(0.0, 0.03, "share", D000_TRENDS + " (Q2: usually < 3 %)")
    int4_quality_loss: Constant = ranged(0.05, 0.08, "share", D000_TRENDS + " (Q2: 5-8 %, validate)")
    # --- capacity ---
    target_utilization: Constant = exact(0.7, "share", D000_DIM + " (D3 example: 70 %)")
    peak_to_average: Constant = exact(3.0, "× average", "workload default (expert/inputs/workload.py)")
    seconds_per_day: Constant = exact(86_400, "s", "definition")
    # --- cost (000 T1, T4, T5) ---
    electricity_chf_per_kwh: Constant = exact(0.18, "CHF/kWh", D000_TCO + " (T1)")
    cooling_factor: Constant = exact(1.5, "× GPU power (PUE)", D000_TCO + " (T1)")
    infrastructure_share: Constant = exact(0.15, "× monthly GPU cost", D000_TCO + " (T1)")
    hours_per_month: Constant = exact(730, "h", D000_TCO + " (T1: 24/7; 36 months = 26 280 h)")
    horizon_months: Constant = exact(36, "months", D000_TCO + " (T1)")
    resale_share: Constant = ranged(0.30, 0.40, "share of purchase after 36 months", D000_BUY + " (T5)")

    @functools.cached_property
    def key(self) -> str:
        """A cache key for these values (equal assumptions, equal key): caches key on it, never on
        `id()`, which a later object may reuse once this one is freed."""
        return hashlib.sha1(repr(self).encode("utf-8")).hexdigest()

    def override(self, **changes) -> "Assumptions":
        """A copy with some constants replaced; a number or a (low, high) pair becomes a Constant."""
        fixed = {}
        for name, new in changes.items():
            old = getattr(self, name)
            if isinstance(new, Constant) or isinstance(new, dict):
                fixed[name] = new
            elif isinstance(new, tuple):
                fixed[name] = ranged(new[0], new[1], old.unit, OVERRIDE)
            else:
                fixed[name] = exact(float(new), old.unit, OVERRIDE)
        return dataclasses.replace(self, **fixed)

    @classmethod
    def from_tariffs(cls, tariffs, base: "Assumptions | None" = None) -> "Assumptions":
        """Take the cost constants from a catalog `Tariffs` record (values and sources)."""
        base = base or cls()
        pick = {"electricity_chf_per_kwh": tariffs.electricity_chf_per_kwh,
                "cooling_factor": tariffs.cooling_factor, "infrastructure_share": tariffs.infrastructure_share,
                "hours_per_month": tariffs.hours_per_month, "horizon_months": tariffs.horizon_months,
                "resale_share": tariffs.resale_share, "team_hourly_rate_chf": tariffs.team_hourly_rate_chf}
        return dataclasses.replace(base, **{
            name: Constant(v.value.mid, v.unit, v.source, v.value.low, v.value.high, v.note or "")
            for name, v in pick.items()})

    @classmethod
    def of_catalog(cls, catalog) -> "Assumptions":
        """The defaults with the cost constants of `catalog`'s tariffs, built once per catalog (kept in
        its `memo`, and so in the compiled catalog cache: `catalog.loader.with_derived`)."""
        return catalog.memo("sizing.assumptions", lambda: cls.from_tariffs(catalog.tariffs))


DEFAULT = Assumptions()


def resolve(assumptions: Assumptions | None) -> Assumptions:
    """The given assumptions, or the defaults."""
    return DEFAULT if assumptions is None else assumptions
