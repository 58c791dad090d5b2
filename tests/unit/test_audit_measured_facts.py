"""Audits: measured facts win over the memory estimate, and fit texts compare like with like (issue 11)."""

from __future__ import annotations

import expert
from expert.inputs.setup_file import Setup

A10_RUNNING = {"gpu": "a10", "count": 1, "utilization": {"mean": 0.72}, "latency_p95_s": 1.6,
               "workload": {"model": "llama-3.1-8b", "precision": "fp16", "requests_per_day": 20000,
                            "context_tokens": 8192, "concurrency": 16}}


def _ids(report, severity=None):
    return {f.rule_id for f in report.findings if severity is None or f.severity == severity}


def test_running_a10_is_never_does_not_fit():
    # Llama-3.1-8B fp16 on one A10 (24 GiB × 15/16 with ECC = 24.16 GB; vLLM 0.92 of it = 22.23 GB):
    # 16 GB weights + 3.4 GB runtime leave 2.85 GB = 2 sequences of 8 192 tokens (1.07 GB each); the
    # peak needs 16. The setup runs (72 % utilisation, p95 1.6 s): no "does not fit", an info instead.
    report = expert.audit(A10_RUNNING)
    assert "c4-total-vram-too-small" not in _ids(report)
    assert "q2-quantise-to-fit" not in _ids(report) and not _ids(report, "critical")
    room = next(f for f in report.findings if f.rule_id == "c4-kv-room-below-peak")
    assert room.severity == "info"
    assert "room for 2 concurrent sequences of 8 192 tokens on all its GPUs" in room.explanation
    assert "your peak needs 16" in room.explanation


def test_same_setup_unmeasured_keeps_the_estimate_but_fits_one_sequence():
    # without measurements the estimate stands: it holds one sequence, so it fits; the peak still does not
    report = expert.audit({k: v for k, v in A10_RUNNING.items() if k not in ("utilization", "latency_p95_s")})
    assert "c4-total-vram-too-small" not in _ids(report) and "c4-kv-room-below-peak" in _ids(report)


def test_misfit_text_compares_per_gpu_with_per_gpu():
    # 70B FP16 on 2 × H100 without a stated TP: the smallest TP holding one sequence is 2; with 4 × L4 and a
    # stated TP 1 it does not fit: the text names the need and the engine's budget of one GPU, never a
    # per-replica need against the VRAM of all GPUs
    setup = {"gpu": "l4", "count": 4, "tensor_parallel": 1,
             "workload": {"model": "llama-3.1-70b", "precision": "fp16", "requests_per_day": 1000}}
    report = expert.audit(setup)
    finding = next(f for f in report.findings if f.rule_id == "c4-total-vram-too-small")
    assert "per GPU at tensor parallelism 1" in finding.explanation
    assert "on each 24 GB GPU of 4 × l4" in finding.explanation
    two = expert.audit({"gpu": "h100-sxm", "count": 2,
                        "workload": {"model": "llama-3.1-70b", "precision": "fp8", "requests_per_day": 1000}})
    assert "c4-total-vram-too-small" not in _ids(two)


def test_setup_accepts_precision_and_engine():
    s = Setup.model_validate({**A10_RUNNING, "precision": "int8", "engine": "tensorrt-llm"})
    assert (s.precision, s.serving_engine, s.running) == ("int8", "tensorrt-llm", True)
    assert Setup.model_validate({"gpu": "l40s", "inference_engine": "sglang"}).serving_engine == "sglang"
    assert Setup.model_validate({"gpu": "l40s", "inference_engine": "tgi"}).serving_engine == "vllm"
