"""Document 000's gain figures (expert.sizing.claims) against the sizing core.

The core computes speed from bandwidth and compute (roofline), with no gain factors, so each claim is
compared with the core's own answer to the same question. Where they agree the test says so; where the
core departs, the test pins the departure and its physical reason, so a change of either shows up.
"""

from __future__ import annotations

import pytest

import expert
from expert.sizing.claims import (CLAIMS, H100_INT8_VS_A100, SOFTWARE_OPTIMISATION,
                                  TRANSFORMER_ENGINE_OBSERVED, TRANSFORMER_ENGINE_VENDOR)


def throughput(model: str, gpu: str, precision: str, batch: int, kv: str | None = None) -> float:
    value = expert.estimate(model=model, gpu=gpu, count=1, precision=precision, batch=batch, kv_precision=kv) \
        .performance.throughput_tokens_per_s
    return getattr(value, "value", value)


def test_claims_are_the_documents_ranges():
    assert (TRANSFORMER_ENGINE_VENDOR.low, TRANSFORMER_ENGINE_VENDOR.high) == (0.30, 0.60)
    assert (TRANSFORMER_ENGINE_OBSERVED.low, TRANSFORMER_ENGINE_OBSERVED.high) == (0.20, 0.50)
    assert (H100_INT8_VS_A100.low, H100_INT8_VS_A100.high) == (0.40, 0.60)
    assert (SOFTWARE_OPTIMISATION.low, SOFTWARE_OPTIMISATION.high) == (2.0, 3.0)
    assert all("000" in claim.source for claim in CLAIMS.values())


@pytest.mark.parametrize("batch", [16, 32])
def test_g3_transformer_engine_fp8_gain_agrees_at_serving_batches(batch):
    """H100 FP8 weights over FP16 for a 13B model with the KV cache kept in 16 bit (the Transformer Engine
    claim is about weights and compute): at batch 16-64 the core's gain lies in the union of the vendor's
    +30-60 % and the observed +20-50 %. With an FP8 KV cache as well (the engines' default for FP8
    weights, docs/engines.md) the KV reads halve too and the gain rises above the claim. Measured here:
    +43 % at 16, +32 % at 32 (FP8 KV: +94 %, +93 %); at 64 the 16-bit KV reads dominate (+25 %). The
    batch prefill computes at cuBLAS 12.9's FP8 rate (1.75 × FP16, engine_speed.prefill_tflops), the decode
    steps at the observed +35 %."""
    fp16 = throughput("llama-2-13b", "h100-sxm", "fp16", batch)
    gain = throughput("llama-2-13b", "h100-sxm", "fp8", batch, kv="fp16") / fp16 - 1
    assert TRANSFORMER_ENGINE_OBSERVED.low <= gain <= TRANSFORMER_ENGINE_VENDOR.high
    assert throughput("llama-2-13b", "h100-sxm", "fp8", batch) / fp16 - 1 > gain


def test_g3_at_batch_one_the_core_sees_the_halved_bytes():
    """At batch 1 decoding reads every weight once per token, so FP8 (1 byte) nearly doubles FP16 (2 bytes):
    the core's +88 % exceeds the claim, which describes loaded production servers."""
    gain = throughput("llama-2-13b", "h100-sxm", "fp8", 1) / throughput("llama-2-13b", "h100-sxm", "fp16", 1) - 1
    assert TRANSFORMER_ENGINE_VENDOR.high < gain < 1.0


@pytest.mark.parametrize("model,batch", [("llama-2-13b", 1), ("llama-2-13b", 16), ("llama-3.1-8b", 64)])
def test_g4_int8_on_h100_the_core_departs_upwards(model, batch):
    """G4 states +40-60 % for INT8 inference on the H100 over the A100. The core computes +71 % at batch 1,
    about the memory-bandwidth ratio 3350 / 2039 GB/s = 1.64 (SXM), and more at larger batches where the
    H100's INT8 compute (about 3.2× the A100's dense TOPS) starts to count: the document's figure sits
    below the roofline, as measured gains including software overheads do. Pinned: above the claim,
    below the compute ratio."""
    gain = throughput(model, "h100-sxm", "int8", batch) / throughput(model, "a100-80gb-sxm", "int8", batch) - 1
    assert H100_INT8_VS_A100.high < gain < 2.3


def test_q1_software_gain_is_a_claim_the_core_assumes_met():
    """Q1's 2-3× is what an optimised engine gains over a naive one. The core models an optimised engine
    only (vLLM's memory and batching), so it cannot reproduce the gain; the claim is quoted by the rules
    that advise optimising before buying (q1-unoptimised-premium-gpu, r2-optimise-before-adding-gpus)."""
    from expert.engine import load_packs
    from expert._plumbing.paths import rules_dir

    texts = {r.id: r.explanation.en + r.advice.en for p in load_packs([rules_dir()]) for r in p.rules}
    assert "2–3×" in texts["q1-unoptimised-premium-gpu"]
