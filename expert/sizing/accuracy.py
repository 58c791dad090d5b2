"""Accuracy of the sizing core against published measurements (tests/data/measurements.yaml).

For each row, `compare` computes the core's estimate of exactly the quantity the row measured and
returns a `Comparison` (row id, kind, measured, estimated, relative error = estimated/measured − 1),
or a `Skipped` with the reason when the row's `what` cannot be mapped honestly to one estimate.
Nothing here changes a constant: the estimates are the core's, at `DEFAULT` assumptions unless
the caller passes others.

Mappings (quantity → estimate), all memory in decimal GB:

- weights (vLLM "Model loading took", torch-allocated after load): `weights_gb / TP` per GPU, or the
  total when the row is a total over GPUs.
- llama.cpp's KV buffer ("KV buffer size"): the KV of one sequence of n_ctx tokens; its compute
  buffer: the `llamacpp_compute_gib` constant the llama.cpp budget subtracts.
- KV memory an engine allocates ("Available KV cache memory", `kv_cache_memory_gib`): the engine's
  pool per GPU, `inference_memory(..., sequences=0, engine=...).kv_pool_per_gpu_gb`, under the row's
  stated utilisation and the engine version's rule (`engine_assumptions`: vLLM < 0.17 had the larger
  activation and smaller non-torch figures of llm-d's first write-up, vLLM < 0.21 kept CUDA graphs
  outside the budget).
- capacity (vLLM's "max concurrency"): KV pool / KV of one sequence of the row's context, unrounded
  like vLLM's own figure. fit verdicts: `max_sequences(...) >= 1` against whether the engine started.
- peak VRAM of a transformers (AutoAWQ) generation: weights + KV(batch × context) + the prefill's
  live tensors (`engines.transformers_activation_gb`, batch × prompt tokens).
- torch-allocated footprint of a batch-1 generation (Qwen HF speed benchmark, ExLlama): the tensors
  the core sizes, `weights_gb + kv_cache_gb(context)`. vLLM's activation reserve and non-torch memory
  are not in `torch.cuda.max_memory_allocated`, so they are not added.
- fine-tuning VRAM: `finetune_memory(...).per_gpu_gb` at the stated seq length / rank / targets, else
  the core's defaults (Unsloth's "minimum VRAM" table states none).
- inter-token latency at a fixed concurrency under continuous batching (NIM/AIPerf rows): the
  steady state of `load.closed_loop` at that concurrency, the engine's chunk budget and KV pool.
  TPOT rows carry a regime by their batch / concurrency (`regime_of`: batch 1, mid, saturated).
- single-stream decode: `tpot_s` (ms rows), `decode_tokens_per_s_per_sequence` (tok/s rows), or
  output / (TTFT + output × TPOT) where the row's speed includes the prefill.
- one batch's end-to-end latency: `prefill_s + output × tpot_s` (the batch prefill, then decode).
- TTFT at concurrency 1: `ttft_s` (the prefill + the serving engine's time per request). At a fixed
  concurrency N > 1 (NIM/AIPerf, a closed loop): `load.closed_loop_ttft_s` as `steady.loaded_performance`
  computes it (the larger of the lane's wait and the wait behind its cohort, `load.cohort_wait_s`, bounded
  by the engine's token budget, plus the wait for admission beyond capacity, and where the row states
  SGLang's `--scheduler-recv-interval` (`scheduler_recv_interval`) the wait for the next receive,
  `load.receive_wait_s`); at a stated Poisson rate
  (`request_rate`, regime `POISSON`): the mean TTFT of `load.steady` at that rate.
- System output throughput at the stated static batch: `throughput_tokens_per_s`.

Units: GiB → GB × 1.073741824; MB rows follow their note (ExLlama: "probably MiB" → × 1.048576;
optimum-benchmark MB = 1e6 bytes, already /1000). The Qwen HF speed benchmark's "GPU Memory(GB)" is
`sum(torch.cuda.max_memory_allocated) / 1024**3`, i.e. GiB (QwenLM/Qwen2.5:examples/speed-benchmark/
speed_benchmark_transformers.py@054825eff821f4734482b61796bec04b90e7f55d), so those rows are read as
GiB although the data file says GB ("GB vs GiB not defined in the source").
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from expert.sizing.accuracy_rules import ALLOW, CEILINGS, OPEN_REGIMES, OUT_OF_SCOPE, SKIP, engine_assumptions, \
    row_engine
from expert.sizing.constants import GIB, Assumptions, resolve
from expert.sizing.engines import budget, transformers_activation_gb
from expert.sizing.finetune import finetune_memory
from expert.sizing.memory import default_kv_precision, inference_memory, kv_cache_gb, kv_heads_per_gpu, \
    max_sequences, weights_gb
from expert.sizing.speed import performance

MEASUREMENTS = Path(__file__).resolve().parents[2] / "tests" / "data" / "measurements.yaml"
MEMORY_KINDS = ("memory", "finetune_memory")
SPEED_KINDS = ("decode", "throughput", "ttft")
ALL_LINEAR = ("q", "k", "v", "o", "gate", "up", "down")
QWEN_HF_SCRIPT = ("QwenLM/Qwen2.5:examples/speed-benchmark/speed_benchmark_transformers.py"
                  "@054825eff821f4734482b61796bec04b90e7f55d (max_memory_allocated / 1024**3)")
# Conditions a row leaves open, filled with a stated assumption (decode speed barely depends on them).
ASSUMED_PROMPT = 16  # "a few tokens" (MLC prompt 'What is the meaning of life?')
ASSUMED_OUTPUT = 128  # output length not stated (gpt-fast generate.py default, TensorRT-LLM '-')
FINETUNE_GPU = "a100-80gb-sxm"  # gpu null: per-GPU fine-tuning memory does not depend on the GPU

@dataclass(frozen=True)
class Comparison:
    """One usable row: measured and estimated in the same unit, error = estimated / measured − 1."""

    id: str
    kind: str
    measured: float
    estimated: float
    error: float
    unit: str
    quantity: str
    source: str
    engine: str = "other"
    batch: int = 1
    rate: float | None = None
    held_out: bool = False   # the row's note starts "Held out": added after the model it checks, never fitted on

    @property
    def regime(self) -> str:
        """The row's regime: `POISSON` where it states an arrival rate, else by its batch / concurrency
        (`REGIMES`): batch 1, mid (2-49), saturated (≥ 50)."""
        return POISSON if self.rate is not None else regime_of(self.batch)

    @property
    def abs_error(self) -> float:
        return abs(self.error)

    @property
    def time_error(self) -> float:
        """The relative error of the time the row measures: a rate's (tokens/s per sequence) error e is its
        time per token's 1/(1 + e) − 1, so that a negative error always means an estimate too fast."""
        return 1 / (1 + self.error) - 1 if self.unit in RATE_UNITS else self.error

    @property
    def quantity_kind(self) -> str:
        """What was compared, for per-engine statistics: KV pool, weights, peak, capacity, fit, TPOT..."""
        if self.kind == "memory":
            return "kv_pool" if self.quantity.startswith("KV pool") else \
                "kv_buffer" if self.quantity.startswith("KV buffer") else \
                "compute_buffer" if self.quantity.startswith("compute buffer") else \
                "weights" if self.quantity.startswith("weights") else \
                "held_share" if "memory held" in self.quantity else "peak"
        if self.kind == "decode":
            return "tpot" if self.unit in ("ms", "tokens_per_s_per_user") else "batch_latency"
        return self.kind


RATE_UNITS = ("tokens_per_s_per_user",)  # TPOT rows stated as a rate (`Comparison.time_error`)
REGIMES = ("batch 1", "mid", "saturated")
POISSON = "poisson"  # open loop: requests arrive at a stated mean rate (`request_rate`, req/s per replica)
SATURATED_FROM = 50  # concurrency from which NIM's published ITL has grown ≥ 1.25× its batch-1 value (70B, 5000/500: 3.2×)


def regime_of(batch: int) -> str:
    """'batch 1', 'mid' (2-49 sequences) or 'saturated' (≥ 50 in flight)."""
    return REGIMES[0] if batch <= 1 else REGIMES[1] if batch < SATURATED_FROM else REGIMES[2]


@dataclass(frozen=True)
class Skipped:
    """A row left out, with the reason; `error` is informative only (out-of-scope rows)."""

    id: str
    kind: str
    reason: str
    error: float | None = None


@dataclass
class AccuracyReport:
    used: list[Comparison] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)

    def rows(self, kinds: tuple[str, ...]) -> list[Comparison]:
        return [c for c in self.used if c.kind in kinds]

    def median(self, kinds: tuple[str, ...]) -> float:
        """Median |relative error| over the used rows of these kinds."""
        return statistics.median(c.abs_error for c in self.rows(kinds))

    @staticmethod
    def p90(rows: list[Comparison]) -> float:
        """90th percentile of |relative error| (nearest rank)."""
        errors = sorted(c.abs_error for c in rows)
        return errors[min(len(errors) - 1, max(0, -(-9 * len(errors) // 10) - 1))]

    @property
    def memory_median(self) -> float:
        return self.median(MEMORY_KINDS)

    @property
    def speed_median(self) -> float:
        return self.median(SPEED_KINDS)

    def worst(self, kinds: tuple[str, ...], n: int = 5) -> list[Comparison]:
        return sorted(self.rows(kinds), key=lambda c: -c.abs_error)[:n]

    @property
    def verdicts(self) -> list[Comparison]:
        """Fit rows: estimated 1.0 = the engine starts, 0.0 = it does not; error 0 = the verdict is right."""
        return [c for c in self.used if c.kind == "fit"]

    def tpot_by_regime(self) -> dict[tuple[str, str], list[Comparison]]:
        """(engine or 'all', regime) → the TPOT rows (`Comparison.regime`)."""
        return self.by_regime("tpot")

    def by_regime(self, quantity: str) -> dict[tuple[str, str], list[Comparison]]:
        """(engine or 'all', regime) → the rows of one quantity kind ('tpot', 'ttft')."""
        groups: dict[tuple[str, str], list[Comparison]] = {}
        for c in self.used:
            if c.kind != "fit" and c.quantity_kind == quantity:
                for key in ((c.engine, c.regime), ("all", c.regime)):
                    groups.setdefault(key, []).append(c)
        return groups

    @staticmethod
    def bias(rows: list[Comparison]) -> float:
        """Signed bias of latency rows: the median `time_error` (negative: the estimated time is too low)."""
        return statistics.median(c.time_error for c in rows)

    @staticmethod
    def latency_stats(rows: list[Comparison]) -> tuple[float, float, float]:
        """(median, p90 (nearest rank), signed bias) of the rows' |`time_error`|: TPOT rows stated as tokens/s
        judged as the time per token they imply."""
        errors = sorted(abs(c.time_error) for c in rows)
        p90 = errors[min(len(errors) - 1, max(0, -(-9 * len(errors) // 10) - 1))]
        return statistics.median(errors), p90, AccuracyReport.bias(rows)

    def by_engine(self) -> dict[tuple[str, str], list[Comparison]]:
        """(engine, quantity kind) → the compared rows (fit verdicts excluded)."""
        groups: dict[tuple[str, str], list[Comparison]] = {}
        for c in self.used:
            if c.kind != "fit":
                groups.setdefault((c.engine, c.quantity_kind), []).append(c)
        return groups


def load_rows(path: Path | str = MEASUREMENTS) -> list[dict]:
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    with open(path, encoding="utf-8") as fh:
        return yaml.load(fh, Loader=loader)["measurements"]


def _gb(row: dict) -> float:
    """A memory row's value in decimal GB."""
    v, unit, note = float(row["value"]), row["unit"], row.get("note") or ""
    if unit == "GiB" or row["id"].startswith("qwen-hf-"):
        return v * GIB
    if unit != "GB":
        raise ValueError(f"{row['id']}: unexpected memory unit {unit}")
    if "probably MiB" in note:  # MB read as MiB, converted /1000 in the data file
        return v * 2**20 / 1e6
    return v


def _kv_precision(row: dict) -> str:
    """The row's KV precision: stated, else named in the note, else the product's default for the
    weights' precision (`default_kv_precision`: FP8 weights with an FP8 KV cache, as TensorRT-LLM's FP8
    tables run; a 2 048 + 2 048-token batch of 48 on one H100 at 2 740 tok/s reads more than the
    H100's 3.35 TB/s could deliver with a 16-bit cache)."""
    note = row.get("note") or ""
    if row.get("kv_precision"):
        return row["kv_precision"]
    if "fp8_kv_cache" in note or "FP8 KV" in note:
        return "fp8"
    return default_kv_precision(row["precision"]) if row.get("precision") else "fp16"


def _skip(row: dict) -> str | None:
    """Generic reasons a row has no single matching estimate."""
    what, note = row["what"], row.get("note") or ""
    if row["id"] in SKIP:
        return SKIP[row["id"]]
    if row["kind"] == "throughput":
        if row.get("batch") is None:
            return "batch chosen by the engine, not stated; the core's throughput is at a given batch"
        if row.get("input_tokens") is None or row.get("output_tokens") is None:
            return "input/output lengths not stated"
        if "Output-only vs total tokens not stated" in note or "output tokens only or input+output" in note:
            return "output-only vs input+output tokens not stated"
        if "output tok" not in what and "output token" not in what:
            return f"not an output-token throughput: {what}"
    return None


def _estimate(row: dict, catalog, a: Assumptions) -> tuple[float, float, str, str]:
    """(measured, estimated, unit, quantity) for a row with a mapping; ValueError when there is none."""
    model = catalog.model(row["model"])
    gpu = catalog.gpu(row["gpu"] or FINETUNE_GPU)
    kind, what, note = row["kind"], row["what"], row.get("note") or ""
    count, tp = int(row.get("count") or 1), int(row.get("tensor_parallel") or 1)
    prec, kvp = row["precision"], _kv_precision(row)
    value = float(row["value"])

    engine = row_engine(row)
    if kind in ("capacity", "fit"):
        ctx = int(row["context_tokens"])
        m = inference_memory(model, gpu, count, tp, prec, ctx, 0, kvp, a, engine)
        per_seq = kv_cache_gb(model, ctx, 1, kvp, a) * kv_heads_per_gpu(model, tp) / model.kv_heads
        if kind == "fit":
            n = max_sequences(model, gpu, tp, tp, prec, ctx, kvp, a, engine)
            return float(bool(row["value"])), float(n >= 1), "starts", f"{engine}: holds one sequence of {ctx}"
        return value, max(0.0, m.kv_pool_per_gpu_gb) / per_seq, "sequences", \
            f"{engine}: KV pool / one sequence of {ctx} tokens"
    if kind == "memory" and row["unit"] == "share":  # memory an engine holds after start-up / the GPU's
        m = inference_memory(model, gpu, count, tp, prec, row["context_tokens"], 0, kvp, a, engine)
        return value, m.usable_per_gpu_gb / m.device_memory_gb, "share", f"{engine}: memory held / device memory"
    if kind == "memory":
        measured = _gb(row)
        if "weights" in what:
            w = weights_gb(model, prec, a)
            per_gpu = "per GPU" in what or tp > 1
            return measured, (w / tp if per_gpu else w), "GB", "weights" + (" per GPU" if per_gpu else "")
        if "KV buffer" in what:  # llama.cpp allocates the KV of exactly n_ctx tokens (one context)
            ctx = int(row["context_tokens"])
            kv = kv_cache_gb(model, ctx, 1, kvp, a) * kv_heads_per_gpu(model, tp) / model.kv_heads
            return measured, kv, "GB", f"KV buffer {engine} allocates for n_ctx {ctx}"
        if "compute buffer" in what:
            return measured, a.llamacpp_compute_gib.value * GIB, "GB", "compute buffer (llama.cpp constant)"
        if "KV cache memory" in what:
            m = inference_memory(model, gpu, count, tp, prec, row["context_tokens"], 0, kvp, a, engine)
            return measured, m.kv_pool_per_gpu_gb, "GB", f"KV pool {engine} allocates per GPU"
        if "footprint" in what or "allocated by PyTorch" in what or "peak VRAM" in what:
            ctx, batch = int(row["context_tokens"]), int(row.get("batch") or 1)
            est = weights_gb(model, prec, a) + kv_cache_gb(model, ctx, batch, kvp, a)
            prompt = int(row.get("input_tokens") or 0)
            act = transformers_activation_gb(model, batch * prompt) if prompt > 1 else 0.0
            return measured, est + act, "GB", f"torch peak: weights + KV({batch}×{ctx}) + prefill tensors"
        if "activation" in what:  # vLLM's profiled peak: its budget's activation, whatever the GPU and weights
            return measured, budget("vllm", model, gpu, tp, 0.0, 0, a).activation_gb, "GB", "activation"
        raise ValueError(f"no memory mapping for: {what}")

    if kind == "finetune_memory":
        method = row["method"]
        kw = {}
        if row.get("context_tokens"):
            kw["seq_len"] = int(row["context_tokens"])
        if row.get("batch"):
            kw["micro_batch"] = int(row["batch"])
        if "LoRA rank 8" in note:
            kw["lora_rank"] = 8
        if "LoRA modules all" in note:
            kw["lora_targets"] = ALL_LINEAR
        frozen = "bf16" if method == "qlora" else prec
        ft = finetune_memory(model, gpu, count, method, frozen, assumptions=a, **kw)
        label = ", ".join(f"{k}={v if not isinstance(v, tuple) else 'all'}" for k, v in kw.items()) or "core defaults"
        return value, ft.per_gpu_gb, "GB", f"{method} VRAM per GPU ({label})"

    prompt = int(row.get("input_tokens") or ASSUMED_PROMPT)
    output = int(row.get("output_tokens") or ASSUMED_OUTPUT)
    batch = int(row.get("batch") or 1)
    cv = float(row.get("input_cv") or 0.0)  # the prompts' lengths' coefficient of variation, where the row states it
    p = performance(model, gpu, count, tp, prec, batch, prompt, output, kvp, assumptions=a, engine=engine)
    unit = row["unit"]
    if kind == "ttft":
        scale = 1000 if unit == "ms" else 1
        if row.get("request_rate") or batch > 1:  # served beside other requests: the steady state
            cap = max_sequences(model, gpu, tp, tp, prec, prompt + output, kvp, a, engine)
            rate = row.get("request_rate")
            if rate:
                st = loaded(model, gpu, tp, prec, prompt, output, kvp, engine, cap or None, a, batch, rate, cv)
                return value, st.ttft_mean_s * scale, unit, f"steady-state mean TTFT at {rate:g} req/s (load.steady)"
            recv = int(row.get("scheduler_recv_interval") or 1)  # the server's stated receive interval, if any
            ttft = closed_loop_ttft(model, gpu, tp, prec, prompt, output, kvp, engine, cap or None, a, batch, cv, recv)
            return value, ttft * scale, unit, f"closed-loop mean TTFT at concurrency {batch} (load.closed_loop)"
        return value, p.ttft_s * scale, unit, "TTFT (prefill of one prompt + the server's time per request)"
    if kind == "throughput":
        return value, p.throughput_tokens_per_s, unit, f"output tok/s at static batch {batch}"
    if kind == "decode":
        if unit == "ms" and "continuous batching" in what:
            cap = max_sequences(model, gpu, tp, tp, prec, prompt + output, kvp, a, engine)
            rate = row.get("request_rate")
            st = loaded(model, gpu, tp, prec, prompt, output, kvp, engine, cap or None, a, batch, rate, cv)
            where = f"{rate:g} req/s (load.steady)" if rate else f"concurrency {batch} (load.closed_loop)"
            return value, st.step_s * 1000, unit, f"steady-state TPOT at {where}"
        if unit == "ms":
            return value, p.tpot_s * 1000, unit, "time per output token"
        if unit == "s":
            return value, p.prefill_s + output * p.tpot_s, unit, f"batch-{batch} latency: prefill + {output} × TPOT"
        if unit == "tokens_per_s_per_user":
            if "includes the (short) prefill" in note:
                return value, output / (p.ttft_s + output * p.tpot_s), unit, "output / (TTFT + output × TPOT)"
            return value, p.decode_tokens_per_s_per_sequence, unit, "single-stream decode tok/s"
    raise ValueError(f"no mapping for kind {kind} unit {unit}")


def compare(row: dict, catalog, assumptions: Assumptions | None = None) -> Comparison | Skipped:
    """The core's estimate of the quantity `row` measured, or why there is none."""
    a = engine_assumptions(row, resolve(assumptions))
    reason = _skip(row)
    if reason:
        return Skipped(row["id"], row["kind"], reason)
    if not row.get("source") or not row.get("quote"):
        return Skipped(row["id"], row["kind"], "no citation (source and quote)")
    try:
        measured, estimated, unit, quantity = _estimate(row, catalog, a)
    except (KeyError, ValueError) as exc:
        return Skipped(row["id"], row["kind"], f"no estimate: {exc}")
    error = estimated / measured - 1 if row["kind"] != "fit" else estimated - measured
    framework = row.get("framework") or ""
    if row["kind"] in SPEED_KINDS and framework.startswith(OUT_OF_SCOPE):
        return Skipped(row["id"], row["kind"], "out of scope: eager HF transformers generation is kernel-launch "
                       "bound; the core's MBU/MFU describe serving engines (vLLM, TensorRT-LLM)", error)
    return Comparison(row["id"], row["kind"], measured, estimated, error, unit, quantity, row["source"],
                      row_engine(row), int(row.get("batch") or 1), row.get("request_rate"),
                      (row.get("note") or "").lower().startswith("held out"))


def loaded(model, gpu, tp, precision, prompt, output, kv_precision, engine, cap, a, concurrency, rate=None, cv=0.0):
    """The continuous-batching steady state at a fixed concurrency (a closed-loop benchmark), or at an
    arrival rate `rate` (req/s, Poisson: an open loop), of prompts whose lengths vary by `cv`."""
    from expert.sizing import load
    from expert.sizing.steady import core_replica
    replica = core_replica(model, gpu, tp, precision, prompt, output, kv_precision, engine, cap, None, a, prompt_cv=cv)
    return load.steady(replica, rate) if rate else load.closed_loop(replica, concurrency)


def closed_loop_ttft(model, gpu, tp, precision, prompt, output, kv_precision, engine, cap, a, concurrency,
                     cv=0.0, recv_interval=1) -> float:
    """Mean TTFT of a closed loop of `concurrency` requests, s: `steady.loaded_performance`'s, the figure
    `estimate --batch N` prints, for a server that receives every `recv_interval` decode steps (imported late,
    as `loaded` imports `load`)."""
    from expert.sizing.steady import loaded_performance
    return loaded_performance(model, gpu, tp, tp, precision, concurrency, prompt, output, kv_precision,
                              assumptions=a, engine=engine, max_sequences=cap, prompt_cv=cv,
                              recv_interval=recv_interval).ttft_steady_s


def evaluate(rows: list[dict] | None = None, catalog=None, assumptions: Assumptions | None = None) -> AccuracyReport:
    """Compare every row; `catalog` defaults to `load_catalog()`."""
    if catalog is None:
        from expert.catalog import load_catalog
        catalog = load_catalog()
    report = AccuracyReport()
    for row in (load_rows() if rows is None else rows):
        result = compare(row, catalog, assumptions)
        (report.used if isinstance(result, Comparison) else report.skipped).append(result)
    return report


__all__ = ["REGIMES", "POISSON", "regime_of", "Comparison", "Skipped", "AccuracyReport", "compare", "evaluate",
           "load_rows", "MEASUREMENTS", "MEMORY_KINDS", "SPEED_KINDS", "SKIP", "CEILINGS", "ALLOW", "OPEN_REGIMES",
           "row_engine", "engine_assumptions"]
