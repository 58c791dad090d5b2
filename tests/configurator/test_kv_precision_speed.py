"""The KV precision is read where it is stored (issue 32, item 3): a decode step of the configurator's
replica reads the KV cache at the workload's `kv_precision`, as `estimate` does, so `advise` and
`estimate` agree on the same point. Before, the configurator's roofline read the cache at 16 bits
whatever it was held in: Llama 2 13B (MHA, 819 200 B of KV per token at 16 bits) with 6 000-token
prompts at 1 req/s in FP8 with an FP8 cache was put on 2× H100 NVL at 8.40 ms per token, where
`estimate` on one gives 6.32 ms; reading the cache at 8 bits, one H100 NVL serves it. Those 6 400 tokens
exceed Llama 2's 4 096-token window and are refused since QA 44 D3 (they were cut to it): the tests
below use 3 600-token prompts and 400-token answers at 1.5 req/s."""

from __future__ import annotations

import pytest

from expert.api import Expert
from expert.catalog import load_catalog
from expert.sizing.combined import estimate

CAT = load_catalog()


def _advise_and_estimate(kv: str):
    w = {"model": "llama-2-13b", "requests_per_second": 1.5, "prompt_tokens": 3600, "output_tokens": 400,
         "precision": "fp8", "kv_cache_precision": kv, "latency_target_s": 30}
    rec = Expert().advise(w, sensitivity=False).recommendation
    est = estimate(CAT.model("llama-2-13b"), CAT.gpu(rec.gpu), rec.count, rec.precision,
                   tensor_parallel=rec.tensor_parallel, prompt_tokens=3600, output_tokens=400, kv_precision=kv,
                   rate_rps=rec.tpot_rate_rps * rec.replicas, engine="vllm")
    return rec, est.performance


@pytest.mark.parametrize("kv", ["fp8", "fp16"])
def test_advise_and_estimate_agree_on_the_same_point(kv):
    rec, perf = _advise_and_estimate(kv)
    assert rec.tpot_ms == pytest.approx(perf.tpot_steady_s * 1000, rel=1e-3)
    assert rec.tpot_batch == pytest.approx(perf.steady_batch, abs=0.005)  # the choice rounds to 2 decimals


def test_an_fp8_cache_decodes_faster_and_needs_fewer_gpus():
    """An FP8 cache moves half the KV bytes of a 16-bit one: at ~3 800 tokens of mean context the KV read
    per sequence (819 200 B × 3 800 = 3.1 GB at 16 bits) adds up over the batch against the 13 GB of FP8
    weights it shares, so one H100 NVL holds 1.5 req/s with an FP8 cache; a 16-bit one needs a larger GPU
    (1× H200) at a higher cost."""
    fp8, _ = _advise_and_estimate("fp8")
    fp16, _ = _advise_and_estimate("fp16")
    assert (fp8.gpu, fp8.count) == ("h100-nvl", 1)
    assert (fp16.gpu, fp16.count) == ("h200", 1) and fp16.tco_chf > fp8.tco_chf


def test_an_open_precision_sizes_each_candidates_kv_in_its_own_precision():
    """An open precision's candidates cache their KV in their own precision (`Workload.kv_precision_at`):
    the fp8 candidate in FP8, the 16-bit and weight-only int8 ones in 16 bits. A 20B model at 20 000
    requests a day (peak 0.69 req/s) within 5 s: sized with a 16-bit cache for every candidate, the
    pick was 1× A100 80 GB fp16; with the fp8 candidate's KV in FP8 one L40S in FP8 serves it for less,
    and `estimate` with no KV precision given (fp8 weights: an FP8 cache) agrees on its point."""
    w = {"params_b": 20, "requests_per_day": 20000, "latency_target_s": 5, "output_tokens": 200}
    report = Expert().advise(w, sensitivity=False)
    rec = report.recommendation
    assert (rec.gpu, rec.count, rec.precision, rec.kv_cache_precision) == ("l40s", 1, "fp8", "fp8")
    a100 = next(a for a in report.alternatives if a.gpu == "a100-80gb-sxm")
    assert (a100.precision, a100.kv_cache_precision) == ("fp16", "fp16") and a100.tco_chf > rec.tco_chf
    model = CAT.resolve_model(None, 20)
    est = estimate(model, CAT.gpu("l40s"), 1, "fp8", prompt_tokens=1500, output_tokens=200,
                   rate_rps=rec.tpot_rate_rps, engine="vllm")
    assert est.kv_precision == "fp8"
    assert rec.tpot_ms == pytest.approx(est.performance.tpot_steady_s * 1000, rel=1e-3)
    # the memory section holds the pick's cache in 8 bits: 000 D3 gives peak × answer time / U =
    # 0.6944 req/s × 8.862 s / 0.7 = 8.79 concurrent inferences (the answer time is the configurator's),
    # one replica holds ceil(8.79) = 9 sequences of 1 700 tokens
    from expert.sizing.memory import kv_cache_gb
    c = report.capacity
    assert c.concurrent_inferences == pytest.approx(c.peak_rps * c.inference_time_s / 0.7, rel=1e-3)
    assert c.concurrent_inferences == pytest.approx(0.6944 * 8.862 / 0.7, abs=0.01)
    assert report.memory.kv_cache_gb == pytest.approx(kv_cache_gb(model, 1700, 9, "fp8"), abs=1e-3)
