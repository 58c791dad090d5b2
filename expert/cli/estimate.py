"""`gpu-expert estimate`: memory and speed of one model on one GPU configuration."""

from __future__ import annotations

from expert.cli.options import (BATCH, COUNT, FORMATS_TEXT_JSON, PARAMS_B, PRECISIONS, TOKENS, bounded,
                                catalog_from, common_parent)
from expert.sizing.engine_names import ENGINES


RATE = bounded(float, 0, 1e6)  # requests/s, > 0
PROMPT_CV = bounded(float, 0, 10, low_inclusive=True)  # std / mean of the prompts' lengths
RECV_INTERVAL = bounded(int, 1, 1000, low_inclusive=True)  # SGLang --scheduler-recv-interval


def register(commands) -> None:
    """Add the `estimate` command."""
    parser = commands.add_parser("estimate", parents=[common_parent()],
                                 help="memory and speed of a model on a GPU configuration")
    model = parser.add_mutually_exclusive_group(required=True)
    model.add_argument("--model", metavar="ID", help="catalog model id or alias (see `catalog models`), a "
                       "Hugging Face config.json or the folder holding it, or a Hugging Face id in the local cache")
    model.add_argument("--params-b", type=PARAMS_B, metavar="N", help="billions of parameters (generic dense)")
    parser.add_argument("--gpu", required=True, metavar="ID")
    parser.add_argument("--count", type=COUNT, default=1, metavar="N")
    parser.add_argument("--precision", choices=PRECISIONS, default=None,
                        help="weight precision (default: the model's native format, e.g. mxfp4 for gpt-oss, "
                             "fp8 for DeepSeek; else fp16)")
    parser.add_argument("--mode", choices=("inference", "full", "lora", "qlora"), default="inference")
    parser.add_argument("--batch", type=BATCH, default=1, metavar="B")
    parser.add_argument("--prompt-tokens", type=TOKENS, default=None, metavar="I")
    parser.add_argument("--output-tokens", type=TOKENS, default=None, metavar="O")
    parser.add_argument("--context-tokens", type=TOKENS, default=None, metavar="C")
    parser.add_argument("--engine", choices=ENGINES, default="vllm",
                        help="serving engine whose memory budget applies (default vllm)")
    parser.add_argument("--tp", type=COUNT, default=None, metavar="N",
                        help="tensor-parallel degree of one replica (default: the smallest that fits); "
                             "--count GPUs form count/TP replicas")
    parser.add_argument("--attention", choices=("tp", "dp"), default=None,
                        help="MLA models (DeepSeek-V3/R1, Kimi K2): tp (default: the latent on every GPU) or dp "
                             "(data-parallel attention, SGLang/vLLM with --tp >= 2: each session's latent once)")
    parser.add_argument("--kv-cache-precision", choices=PRECISIONS[:4], default=None, metavar="P",
                        help="KV cache precision (default: the weights' for 16-bit and fp8, else fp16)")
    parser.add_argument("--rate", type=RATE, default=None, metavar="R",
                        help="arrival rate, requests/s for the whole configuration (split evenly over the "
                             "replicas): TPOT and TTFT in the continuous-batching steady state at that rate "
                             "(default: the steady state with --batch requests in flight per replica)")
    parser.add_argument("--prompt-cv", type=PROMPT_CV, default=0.0, metavar="CV",
                        help="how much the prompts' lengths vary, std / mean (default 0: every prompt "
                             "--prompt-tokens long; ShareGPT's chat prompts: 1.1): the prefill queue's wait grows "
                             "with it (M/G/1)")
    parser.add_argument("--recv-interval", type=RECV_INTERVAL, default=1, metavar="R",
                        help="SGLang's --scheduler-recv-interval as the server runs (default 1): it takes in new "
                             "requests every R decode steps, so each arrival of a --batch closed loop waits "
                             "(R - 1)/2 steps more for its first token")
    parser.add_argument("--format", choices=FORMATS_TEXT_JSON, default="text")
    parser.set_defaults(run=run)


def run(args) -> int:
    """Print the estimate."""
    from expert.api import run_estimate

    catalog = catalog_from(args)
    result = run_estimate(catalog, model=args.model, params_b=args.params_b, gpu=args.gpu, count=args.count,
                          precision=args.precision, mode=args.mode, batch=args.batch,
                          prompt_tokens=args.prompt_tokens, output_tokens=args.output_tokens,
                          context_tokens=args.context_tokens, engine=args.engine, tensor_parallel=args.tp,
                          kv_precision=args.kv_cache_precision, rate_rps=args.rate, attention=args.attention,
                          prompt_cv=args.prompt_cv, recv_interval=args.recv_interval)
    if args.format == "json":
        from expert._plumbing.fileio import dumps_json  # imports PyYAML: only for this format

        print(dumps_json(result.model_dump(mode="json")), end="")
    else:
        print(_text(result))
    return 0


def _steady(p) -> str:
    """The continuous-batching steady state line (expert/sizing/load.py) with its regime."""
    if p.tpot_steady_s < 0:
        return (f"serving: {p.regime}; the most one replica serves is {p.rate_max_rps:.3g} req/s "
                "(prefill or KV pool saturated)")
    return (f"serving (continuous batching, {p.regime}): {p.tpot_steady_s * 1000:.1f} ms per token, "
            f"TTFT {p.ttft_steady_s:.3f} s mean / {p.ttft_steady_p95_s:.3f} s p95{_admission(p)}, {p.steady_batch:.1f} "
            f"decoding, prefill {p.prefill_share:.0%} of each step; at most {p.rate_max_rps:.3g} req/s per replica")


def _admission(p) -> str:
    """' (mean 0.123 s of it waiting for a free KV slot)' where arrivals wait for the KV pool (expert/sizing/admission.py)."""
    wait = getattr(p, "admission_wait_s", 0.0)
    return f" (mean {wait:.3f} s of it waiting for a free KV slot)" if wait > 0.0005 else ""


def _bound(p) -> str:
    """`memory-bound` or `compute-bound`, or `launch-bound (step floor)` where the step floor sets the decode
    step (`Performance.binds`): then neither bandwidth nor compute would make it faster."""
    return "launch-bound (step floor)" if p.binds == "step_floor" else f"{p.bound}-bound"


def _device(m) -> str:
    """The basis of a serving engine's usable memory: the device memory the driver reports, in GB and
    GiB (QA 46: "85.0 GB usable" of an H100 "80 GB" is 79.2 GiB, the catalog's GB being GiB)."""
    from expert.sizing.constants import GIB

    dev = getattr(m, "device_memory_gb", 0.0)
    return f" of the {dev:.1f} GB ({dev / GIB:.1f} GiB) the driver reports" if dev else ""


def _fit_line(m, basis: str = "") -> str:
    """'        total 130.5 GB; per GPU 130.5 of 80.8 GB usable → DOES NOT FIT': the memory's total, its share per
    GPU against the usable memory (`basis`: what that is of, `_device`) and whether it fits."""
    return (f"        total {m.total_gb:.1f} GB; per GPU {m.per_gpu_gb:.1f} of {m.usable_per_gpu_gb:.1f} GB "
            f"usable{basis} → {'fits' if m.fits else 'DOES NOT FIT'}")


SHARDING = {"single-gpu": "one GPU", "fsdp-node": "sharded over the node's GPUs (FSDP)",
            "fsdp-offload": "sharded (FSDP) with CPU offload", "fsdp-multinode": "sharded over the nodes' GPUs (FSDP)"}


def _training_text(result) -> str:
    """`--mode full|lora|qlora`: the run's memory, the layout it is timed on (sharding, CPU offload and its
    host RAM, the fit that gives) and its hours; no serving lines (engine, TTFT/TPOT, TP replicas)."""
    from expert.report.memory_line import estimate_parts
    from expert.sizing.ft_job import OFFLOAD_SPEED

    m, f = result.memory, result.fine_tuning
    lines = [f"{result.model} on {result.count}× {result.gpu}, {result.precision}, {result.mode} fine-tuning, "
             f"{SHARDING.get(f.sharding, f.sharding)}",
             "memory: " + ", ".join(estimate_parts(m)),
             _fit_line(m) + (" without CPU offload" if f.cpu_offload else "")]
    if f.cpu_offload:
        lines.append(f"        with CPU offload: per GPU {f.memory_per_gpu_gb:.1f} of {f.usable_per_gpu_gb:.1f} GB → "
                     f"{'fits' if f.fits else 'DOES NOT FIT'}; needs {f.host_ram_gb:.0f} GB of host RAM per node "
                     "for the fp32 master weights and Adam moments")
    timed = (f" with CPU offload (× {OFFLOAD_SPEED.value} MFU)" if f.cpu_offload else "") + ("" if f.fits else
             "; the run does not fit here, so this time is for comparison only")
    lines.append(f"fine-tuning run: {f.hours:.1f} h ({f.days:.1f} days) for {f.dataset_tokens:,.0f} tokens" + timed)
    return "\n".join(lines)


def _text(result) -> str:
    from expert.report.memory_line import estimate_parts
    from expert.sizing.parallel import TP_DEGREES

    if result.fine_tuning is not None:
        return _training_text(result)
    m, p = result.memory, result.performance
    lines = [f"{result.model} on {result.count}× {result.gpu}, {result.precision}, {result.mode}, "
             f"batch {result.batch}, context {result.context_tokens}, TP {result.tensor_parallel} × "
             f"{result.replicas} replica{'s' if result.replicas != 1 else ''}, engine {result.engine}, "
             f"KV {result.kv_precision}" + (f", {p.kernel} kernels" if p.kernel else "")
             + (f"; layout: {result.layout_reason}" if result.layout_reason else "")
             + {"tp": "; attention: tensor parallel (the MLA latent on every GPU; --attention dp: data-parallel)",
                "dp": "; attention: data parallel (each session's MLA latent once)"}.get(getattr(m, "attention", None), ""),
             "memory: " + ", ".join(estimate_parts(m)),
             _fit_line(m, _device(m))
             + (f"; room for {result.max_concurrent_sequences} sequence"
                f"{'' if result.max_concurrent_sequences == 1 else 's'} of {result.context_tokens} tokens per replica"
                if result.mode == "inference" else ""),
             f"speed:  TTFT {p.ttft_s:.3f} s, {p.tpot_s * 1000:.1f} ms per token "
             f"({p.decode_tokens_per_s_per_sequence:.1f} tok/s per sequence), throughput "
             f"{p.throughput_tokens_per_s:.0f} tok/s, {_bound(p)}, TP efficiency "
             f"{p.tensor_parallel_efficiency:.2f} (a static batch of {result.batch}: decode alone)"]
    if result.mode == "inference" and not m.fits and result.tensor_parallel == TP_DEGREES[-1]:  # under memory
        lines.insert(3, f"        one 8-GPU node of {result.gpu} cannot hold a replica, and serving across nodes (tensor "
                        "or pipeline parallelism over more than one node) is not modelled")
    if result.mode == "inference" and not p.operating_point:  # no speed or capacity of a point that is not there
        lines[-1] = (f"speed and serving: {p.regime}" + ("" if result.max_concurrent_sequences < 1 else
                     f"; at most {p.rate_max_rps:.3g} req/s per replica with the room it has"))
    elif result.mode == "inference":
        lines.append(_steady(p))
    return "\n".join(lines)

