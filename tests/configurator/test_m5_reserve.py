"""000 M5's reserve in the configurator (profile.build_profile): applied where growth is stated (the
grown model must fit) or where the document's own case holds — a model under 20B, "a 7B agent may need
13B or 20B" — counted on the weights as the document counts it (7B = 14 GB on 24 GB leaves 42 %).
Issue 14: a flat 30 % on every model rejected the canonical 8× H100 for a 405B in FP8 and 8× H200 for a
671B (DeepSeek-V3 class) in FP8."""

from __future__ import annotations

import pytest

from expert.catalog.loader import load_catalog
from expert.configurator.profile import build_profile
from expert.configurator.enumeration import default_assumptions
from expert.sizing.architecture import generic_model

CAT = load_catalog()
A = default_assumptions(CAT)


def profile(model, gpu: str, precision: str, tp: int = 1, context: int = 8192):
    return build_profile(model, CAT.gpu(gpu), precision, tp, "sxm", 1500, 250, context, None, A)


@pytest.mark.parametrize("model,gpu", [(CAT.model("llama-3.1-405b"), "h100-sxm"), (generic_model(671), "h200")])
def test_large_models_carry_no_flat_reserve(model, gpu):
    """405B FP8 = 405 GB over 8× 80 GB (63 % each); 671B FP8 over 8× 141 GB (59 % each): both hold
    sequences, with no reserve applied."""
    p = profile(model, gpu, "fp8", tp=8)
    assert p.reserve == 0.0 and p.seq_mem >= 1


def test_the_documents_own_choice_7b_fp16_on_24gb_is_feasible():
    """Mistral 7B (7.24 B) in FP16: 14.5 GB of weights on a 24 GB L4 = 60 % < 70 %."""
    p = profile(CAT.model("mistral-7b"), "l4", "fp16", context=4096)
    assert p.reserve == pytest.approx(0.30) and p.seq_mem >= 1


def test_under_20b_the_weights_must_leave_30_percent():
    """Qwen2.5-14B (14.7 B) in FP16: 29.4 GB on a 40 GB A100 = 74 % > 70 %: refused although memory would
    hold it (36 GB usable), with a message naming the reserve."""
    from expert.configurator.explain import violation_text
    from expert.configurator.feasibility import Violation

    p = profile(CAT.model("qwen2.5-14b"), "a100-40gb-pcie", "fp16", context=2048)
    assert p.reserve == pytest.approx(0.30) and p.seq_mem == 0
    assert p.need_gb(1) <= p.usable_gb                     # it is the reserve, not the memory
    ratio = p.memory_ratio(1)
    assert ratio == pytest.approx(p.weights_gb / (40 * 0.7))
    text = violation_text(Violation("memory", ratio, {
        "need_gb": p.need_gb(1), "limit_gb": p.limit_gb, "usable_gb": p.usable_gb, "reserve": p.reserve,
        "weights_gb": p.weights_gb, "weights_limit_gb": 28.0, "growth_gb": None}))
    assert "30 % growth reserve (000 M5)" in text["en"] and "Wachstumsreserve" in text["de"]


def test_growth_stated_replaces_the_flat_reserve():
    p = build_profile(CAT.model("llama-3.1-8b"), CAT.gpu("l40s"), "fp16", 1, "sxm", 1500, 250, 8192, None, A,
                      growth=generic_model(13))
    assert p.reserve == 0.0 and p.seq_mem >= 1           # 13B FP16 (26 GB) fits 48 GB: the growth decides


def test_the_configurator_and_the_rules_share_m5s_bound():
    """M5's context bound (under 20B) is used twice: by the configurator (growth_context_below_b) and by
    the m5-* rules; they must agree, as must the 30 % (vram_reserve.low vs weights_share > 0.7)."""
    from expert.engine import load_packs
    from expert._plumbing.paths import rules_dir

    rules = {r.id: r for p in load_packs([rules_dir()]) for r in p.rules}
    for rule_id, kind in (("m5-vram-reserve-below-30-percent", "setup"), ("m5-choice-reserve-below-30-percent", "choice")):
        patterns = {c.fact: c for c in rules[rule_id].when}
        assert patterns["workload"].where["params_b"].lt == A.growth_context_below_b.value
        assert patterns[kind].where["weights_share"].gt == pytest.approx(1 - A.vram_reserve.low)
