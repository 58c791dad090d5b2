"""The advice's notes on D3's rule of thumb and the generic rule's attention (expert/facts/sizing_notes.py)."""

from __future__ import annotations

import pytest

from expert.catalog.generic import generic_model
from expert.facts.sizing_notes import d3_thumb_fields, generic_fields


def test_d3s_worked_example_gives_two_to_three_gpus():
    # 50 req/s × 0.8 s / 0.70 = 57.14 concurrent inferences: 57.14 / 28.57 = 2, 57.14 / 19.05 = 3
    # a replica serving 5.6 req/s: the peak of 50 needs ceil(50 / 5.6) = 9 replicas, above D3's 3
    fields = d3_thumb_fields(50 * 0.8 / 0.7, 50.0, {"replicas": 9}, 5.6)
    assert (fields["d3_thumb_gpus_low"], fields["d3_thumb_gpus_high"]) == (2, 3)
    assert fields["work_replicas"] == 9 and fields["replicas_above_d3_thumb"]
    # QA 47 #10: 2 replicas (high availability) where one serving 3.42 req/s carries the peak of 0.07: not work
    assert not d3_thumb_fields(0.5, 0.07, {"replicas": 2}, 3.42)["replicas_above_d3_thumb"]
    # no capacity known (no operating point): no verdict; near-zero load: D3's minimum is one GPU
    assert "replicas_above_d3_thumb" not in d3_thumb_fields(0.5, 0.07, {"replicas": 2})
    assert d3_thumb_fields(0.0001, 0.0, None) == {"d3_thumb_gpus_low": 1, "d3_thumb_gpus_high": 1}
    # one more sequence than three GPUs hold at 19.05 each: four
    assert d3_thumb_fields(58.0, 50.0, None) == {"d3_thumb_gpus_low": 3, "d3_thumb_gpus_high": 4}
    assert "pick_replicas" not in d3_thumb_fields(57.0, 50.0, {"replicas": 2, "pool": "2× l40s"})
    # the operating rate a user's own rule may still read (docs/facts.md): 50 req/s over 9 replicas = 5.556
    assert fields["peak_rps_per_replica"] == pytest.approx(50 / 9)


def test_a_generic_13b_is_multi_head_and_a_generic_70b_is_not():
    # the generic rule: 13B → hidden 5120, 40 heads = 40 KV heads (MHA below 30B); 40 / 8 = 5
    fields = generic_fields(generic_model(13), 26.0, 44.9)
    assert fields == {"generic_kv_heads": 40, "kv_over_weights": pytest.approx(44.9 / 26.0), "gqa_kv_reduction": 5.0}
    assert generic_fields(generic_model(70), 140.0, 10.0) == {}     # 8 KV heads from 30B
