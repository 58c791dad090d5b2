"""The KV precision is read where it is stored (issue 32, item 3): a decode step of the configurator's
replica reads the KV cache at the workload's `kv_precision`, as `estimate` does, so `advise` and
`estimate` agree on the same point. Before, the configurator's roofline read the cache at 16 bits
whatever it was held in: Llama 2 13B (MHA, 819 200 B of KV per token at 16 bits) with 6 000-token
prompts at 1 req/s in FP8 with an FP8 cache was put on 2× H100 NVL at 8.40 ms per token, where
`estimate` on one gives 6.32 ms; reading the cache at 8 bits, one H100 NVL serves it."""

from __future__ import annotations

import pytest

from expert.api import Expert
from expert.catalog import load_catalog
from expert.sizing.combined import estimate

CAT = load_catalog()


def _advise_and_estimate(kv: str):
    w = {"model": "llama-2-13b", "requests_per_second": 1, "prompt_tokens": 6000, "output_tokens": 400,
         "precision": "fp8", "kv_cache_precision": kv, "latency_target_s": 30}
    rec = Expert().advise(w, sensitivity=False).recommendation
    est = estimate(CAT.model("llama-2-13b"), CAT.gpu(rec.gpu), rec.count, rec.precision,
                   tensor_parallel=rec.tensor_parallel, prompt_tokens=6000, output_tokens=400, kv_precision=kv,
                   rate_rps=rec.tpot_rate_rps * rec.replicas, engine="vllm")
    return rec, est.performance


@pytest.mark.parametrize("kv", ["fp8", "fp16"])
def test_advise_and_estimate_agree_on_the_same_point(kv):
    rec, perf = _advise_and_estimate(kv)
    assert rec.tpot_ms == pytest.approx(perf.tpot_steady_s * 1000, rel=1e-3)
    assert rec.tpot_batch == pytest.approx(perf.steady_batch, rel=1e-3)


def test_an_fp8_cache_decodes_faster_and_needs_fewer_gpus():
    """An FP8 cache moves half the KV bytes of a 16-bit one: at ~6 200 tokens of mean context the KV read
    per sequence (5.1 GB at 16 bits) outweighs the 13 GB of FP8 weights shared by the batch, so one
    H100 NVL holds the load with an FP8 cache and two are needed with a 16-bit one."""
    fp8, _ = _advise_and_estimate("fp8")
    fp16, _ = _advise_and_estimate("fp16")
    assert (fp8.gpu, fp8.count) == ("h100-nvl", 1)
    assert fp16.count == 2
