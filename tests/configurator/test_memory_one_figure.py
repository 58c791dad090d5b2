"""QA 47 #1: the memory section, the agent section's p95 KV and the pick's `memory_per_gpu_gb` are one
figure, the one the search's memory check admitted (`agent_demand.replica_sequences`)."""

from __future__ import annotations

import pytest
import yaml

from expert.api import Expert
from expert.catalog import load_catalog
from expert.configurator.agent_demand import replica_sequences

CATALOG = load_catalog()


def test_replica_sequences_is_the_operating_batch_plus_the_held_sessions():
    # by hand: the operating batch 3 (what the search checked) + 13 held = 16, whatever D3's share
    # (6.06 concurrent on 2 replicas -> ceil 3.03 = 4 would make 17, one more than the search checked);
    # without an operating point D3's share: ceil(6.06 / 2) = 4 + 13 = 17
    assert replica_sequences(6.06, 2, 3, 13) == 16
    assert replica_sequences(6.06, 2, None, 13) == 17
    assert replica_sequences(0.2, 1, None, 0) == 1


def test_agent_ci_pick_prints_the_memory_it_was_sized_at():
    with open("examples/agent-ci.yaml") as f:
        workload = yaml.safe_load(f)
    report = Expert(catalog=CATALOG).advise(workload, sensitivity=False).model_dump(mode="json")
    rec, memory, agent = report["recommendation"], report["memory"], report["agent"]
    assert (rec["gpu"], rec["count"], rec["tensor_parallel"], rec["batch_per_replica"]) == ("a100-80gb-sxm", 2, 1, 3)
    # by hand, qwen2.5-32b with an FP8 KV cache: 64 layers × 2 × 8 KV heads × 128 × 1 byte = 131 072 B/token;
    # the shared prefix 20 000 tokens = 2.6214 GB once per replica, each session its other 18 087 tokens
    # = 2.3707 GB. Held at the peak: 3 000 / 86 400 tasks/s × 7.8 steps × 60 s tools = 16.25 sessions,
    # 8.125 per replica, p95 8.125 + 1.6449 × √8.125 = 12.81 -> 13; + the operating batch 3 = 16 sequences.
    # KV = 2.6214 + 16 × 2.3707 = 40.553 GB (before the fix 17 sequences: 42.92 GB, 80.36 GB in all)
    assert agent["kv_shared_gb"] == pytest.approx(20000 * 131072 / 1e9, abs=1e-4)
    assert agent["kv_per_session_gb"] == pytest.approx(18087 * 131072 / 1e9, abs=1e-4)
    assert memory["kv_cache_gb"] == pytest.approx(2.6214 + 16 * 2.3707, abs=2e-3)
    assert agent["kv_sessions_p95_gb"] == pytest.approx(2 * memory["kv_cache_gb"], abs=2e-3)
    # total = weights 34.0571 + KV 40.553 + runtime 3.3823 = 77.99 GB per copy (TP 1: per GPU), the figure
    # the search checked (`memory_per_gpu_gb`), within the A100's 78.24 GB usable: reserve ≥ 0
    total = memory["weights_gb"] + memory["kv_cache_gb"] + memory["overhead_gb"]
    assert memory["total_gb"] == pytest.approx(total, abs=1e-3)
    assert memory["total_gb"] == pytest.approx(rec["memory_per_gpu_gb"], abs=1e-3)
    assert memory["total_gb"] <= rec["usable_per_gpu_gb"] and memory["reserve_ratio"] >= 0
