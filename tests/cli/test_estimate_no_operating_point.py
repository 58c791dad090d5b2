"""`estimate` gives no speed or capacity for a configuration without an operating point (QA 45 #9): one
that holds no sequence, or a --batch above the sequences its KV pool holds."""

from __future__ import annotations

import pytest


def test_a_model_that_does_not_fit_has_no_speed_or_capacity(cli):
    # 70 B fp16 = 140 GB of weights on one L4 (22.2 GB usable): room for 0 sequences. Before, "643.3 ms per
    # token", "throughput 5 tok/s" and "at most 0.247 req/s per replica" followed DOES NOT FIT
    r = cli("estimate", "--params-b", "70", "--gpu", "l4", "--count", "3")
    assert r.code == 0 and "room for 0 sequences" in r.out
    assert r.out.strip().splitlines()[-1] == ("speed and serving: no operating point: room for 0 sequences, the "
                                              "model does not fit")
    assert "ms per token" not in r.out and "req/s" not in r.out and "throughput" not in r.out
    p = cli("estimate", "--params-b", "70", "--gpu", "l4", "--count", "3", "--format", "json").json()["performance"]
    assert p["operating_point"] is False and p["rate_max_rps"] == 0 and p["steady_rate_rps"] == 0
    assert p["tpot_steady_s"] == p["ttft_steady_s"] == p["ttft_steady_p95_s"] == p["steady_batch"] == -1


def test_a_batch_above_the_room_has_no_operating_point(cli):
    # Llama-3.1-8B, FP8 KV, 8 192 tokens: 65.5 KB per token at 1 byte × 8 192 = 0.537 GB per sequence; the
    # 44.5 − 16.0 − 2.1 − 1.2 = 25.2 GB of pool holds 46 sequences, fewer than the batch of 64
    args = ("estimate", "--model", "llama-3.1-8b", "--gpu", "l40s", "--kv-cache-precision", "fp8", "--batch", "64",
            "--context-tokens", "8192")
    out = cli(*args).out
    assert "room for 46 sequences" in out and "at batch 64 in flight" not in out and "ms per token" not in out
    assert ("speed and serving: no operating point: room for 46 sequences per replica, fewer than the batch of "
            "64 in flight; at most 3.59 req/s per replica with the room it has") in out
    p = cli(*args, "--format", "json").json()["performance"]
    assert p["operating_point"] is False and p["tpot_steady_s"] == -1 and p["rate_max_rps"] == pytest.approx(3.59, abs=0.01)
    # the same at the 46 it holds keeps its point
    ok = cli(*args[:-3], "46", *args[-2:], "--format", "json").json()["performance"]
    assert ok["operating_point"] is True and ok["tpot_steady_s"] > 0
