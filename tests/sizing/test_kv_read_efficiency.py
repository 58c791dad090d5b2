"""The KV cache read at its own bandwidth efficiency (issue 32, item 1, TPOT bias): a decode step reads
the weights at `mbu` and the KV cache at `kv_read_efficiency`, in the Roofline every speed path uses."""

from __future__ import annotations

import pytest

from expert.catalog import load_catalog
from expert.sizing.constants import DEFAULT
from expert.sizing.speed import Roofline, performance

CAT = load_catalog()
H100 = CAT.gpu("h100-sxm")
LLAMA8 = CAT.model("llama-3.1-8b")


def _roof(a=DEFAULT, kv_eff=None):
    return Roofline(LLAMA8, H100, 1, "fp16", 20000, 2, "fp16", a.mbu.value, a.mfu.value, 1.0, a, kv_eff=kv_eff)


def test_constant_point_and_band():
    assert (DEFAULT.kv_read_efficiency.value, DEFAULT.kv_read_efficiency.low,
            DEFAULT.kv_read_efficiency.high) == (0.89, 0.79, 0.89)


def test_decode_step_of_llama8_at_20000_tokens():
    # Llama-3.1-8B FP16 on one H100 SXM (3 350 GB/s), context 20 000 + 2/2 = 20 001 tokens:
    # weights read a step 14.949 GB (read_terms) / (3 350 GB/s × MBU 0.725) = 6.1552 ms;
    # KV 20 001 × 32 layers × 8 heads × 128 × 2 (K, V) × 2 B = 2.6216 GB / (3 350 × 0.89) = 0.8793 ms
    mem, _, tpot = _roof().decode(1)
    assert mem == pytest.approx(6.1552e-3 + 0.8793e-3, rel=1e-4)
    assert tpot == mem  # memory-bound, no floor or host time here
    # 8 sequences: 6.1552 + 8 × 0.8793 = 13.190 ms
    assert _roof().decode(8)[0] == pytest.approx(13.190e-3, rel=1e-4)


def test_kv_at_mbu_gives_the_single_efficiency():
    # kv_read_efficiency = mbu = 0.725: (14.949 + 2.6216) GB / (3 350 × 0.725) = 7.2346 ms
    a = DEFAULT.override(kv_read_efficiency=0.725)
    assert _roof(a).decode(1)[0] == pytest.approx(7.2346e-3, rel=1e-4)
    assert _roof(kv_eff=0.725).decode(1)[0] == pytest.approx(7.2346e-3, rel=1e-4)


def test_band_ends_read_kv_at_the_band_ends():
    # the fast end reads weights at MBU 0.85 and KV at 0.89: 14.949/(3 350 × 0.85) + 2.6216/(3 350 × 0.89)
    # = 5.2500 + 0.8793 = 6.1293 ms (no host time, no floor: engine None, floor's low end 0.04 ms × 32 = 1.3 ms)
    p = performance(LLAMA8, H100, 1, 1, "fp16", 1, 20000, 2, "fp16")
    assert p.bands["tpot_s"].low == pytest.approx(6.1293e-3, rel=1e-3)
    assert any("KV cache" in s for s in p.provenance["tpot_s"].sources)
