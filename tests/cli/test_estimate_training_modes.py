"""`estimate --mode full|lora|qlora` states the layout its time assumes (QA 46 #8): FSDP sharding, CPU
offload with the host RAM it needs and the fit it gives, and no serving lines (engine, TTFT/TPOT, TP
replicas). The JSON keeps every field and adds the layout to `fine_tuning`."""

from __future__ import annotations

import pytest


def test_full_8b_on_one_a100_says_it_is_timed_with_cpu_offload(cli):
    # 8B full: 16 + 96 + 16 GB of states + 2.5 GB activations/context = 130.5 GB > 80.8 GB usable; with offload
    # 8e9 × 4 B = 32 GB + 2.5 = 34.5 GB fits, and 8e9 × 12 B = 96 GB of optimizer state go to host RAM.
    # 6 × 8e9 × 1e8 / (312e12 × 0.40 × 0.67) = 15.9 h. Before: "DOES NOT FIT" then "15.9 h" with no word of offload
    r = cli("estimate", "--model", "llama-3.1-8b", "--gpu", "a100-80gb-sxm", "--mode", "full")
    assert r.code == 0
    assert "per GPU 130.5 of 80.8 GB usable → DOES NOT FIT without CPU offload" in r.out
    assert ("with CPU offload: per GPU 34.5 of 80.8 GB → fits; needs 96 GB of host RAM per node for the fp32 "
            "master weights and Adam moments") in r.out
    assert "fine-tuning run: 15.9 h (0.7 days) for 100,000,000 tokens with CPU offload (× 0.67 MFU)" in r.out
    # no serving lines in a training mode
    assert "engine" not in r.out and "TTFT" not in r.out and "ms per token" not in r.out and "replica" not in r.out
    f = cli("estimate", "--model", "llama-3.1-8b", "--gpu", "a100-80gb-sxm", "--mode", "full",
            "--format", "json").json()
    ft = f["fine_tuning"]
    assert (ft["sharding"], ft["cpu_offload"], ft["fits"]) == ("fsdp-offload", True, True)
    assert ft["host_ram_gb"] == pytest.approx(96.0) and ft["memory_per_gpu_gb"] == pytest.approx(34.5, abs=0.05)
    assert "performance" in f and "engine" in f and "tensor_parallel" in f     # the contract's fields stay


def test_70b_full_on_8_h100_states_fsdp_and_qlora_on_one_a100_has_no_layout_line(cli):
    out = cli("estimate", "--model", "llama-3.1-70b", "--gpu", "h100-sxm", "--count", "8", "--mode", "full").out
    assert out.splitlines()[0].endswith("full fine-tuning, sharded (FSDP) with CPU offload")
    assert "TP 2 × 4 replicas" not in out and "layout:" not in out
    q = cli("estimate", "--model", "llama-3.1-70b", "--gpu", "a100-80gb-sxm", "--mode", "qlora").out
    assert q.splitlines()[0].endswith("qlora fine-tuning, one GPU") and "no TP holds the load" not in q
    assert "per GPU 45.2 of 80.8 GB usable → fits" in q


def test_a_run_that_does_not_fit_even_offloaded_says_its_time_is_for_comparison(cli):
    # 13B full on one L40S: 52 GB of 16-bit weights and grads alone exceed 45.9 GB usable
    out = cli("estimate", "--model", "llama-2-13b", "--gpu", "l40s", "--mode", "full").out
    assert "the run does not fit here, so this time is for comparison only" in out
