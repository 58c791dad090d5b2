"""MLA with data-parallel attention (issue 31 item 3): each GPU holds its own sessions' latent, the
attention weights are replicated, and the search takes DP attention where more sessions fit."""

from __future__ import annotations

import pytest

from expert.catalog.loader import load_catalog
from expert.configurator.enumeration import default_assumptions
from expert.configurator.profile import _layout_profile, build_profile
from expert.sizing.dp_attention import attention_params_b, dp_attention_possible

CAT = load_catalog()
A = default_assumptions(CAT)
V3, H200 = CAT.model("deepseek-v3"), CAT.gpu("h200")
CONTEXT = 32_768
# latent per token: (kv_lora_rank 512 + rope 64) × 61 layers × 1 B (fp8 KV) = 35 136 B;
# one session of 32 768 tokens: 35 136 × 32 768 = 1 151 336 448 B = 1.151336448 GB
SESSION_GB = 1.151336448


def _profile(layout=None, engine="vllm"):
    args = (V3, H200, "fp8", 8, "sxm", 30_000, 2_768, CONTEXT)
    if layout is None:
        return build_profile(*args, None, A, None, engine, 0.0, "fp8")
    return _layout_profile(*args, None, A, None, engine, 0.0, "fp8", 0, layout)


def test_mla_attention_parameters_by_hand():
    # DeepSeek-V3 per layer: q 7168·1536 + 1536·128·192 = 48 758 784; kv 7168·576 + 512·128·2·128 =
    # 20 905 984; o 128·128·7168 = 117 440 512; sum 187 105 280 × 61 layers = 11.41342208 B
    assert attention_params_b(V3) == pytest.approx(11.41342208, rel=1e-12)
    assert attention_params_b(CAT.model("llama-3.1-8b")) == 0.0


def test_latent_once_per_session_under_dp_attention():
    tp, dp = _profile("tp"), _profile("dp")
    # TP: every one of the 8 GPUs holds the whole latent; DP: each session's latent on one GPU only
    assert tp.kv_seq_gb == pytest.approx(SESSION_GB, rel=1e-9)
    assert dp.kv_seq_gb == pytest.approx(SESSION_GB / 8, rel=1e-9)
    assert (tp.kv_copies, dp.kv_copies) == (8, 1)
    # reported once per session either way: per GPU × GPUs / copies
    assert tp.kv_seq_gb * 8 / tp.kv_copies == pytest.approx(dp.kv_seq_gb * 8 / dp.kv_copies)
    # DP replicates the attention weights: per GPU + 11.413 B × 1 B × (1 − 1/8) = 9.987 GB more
    assert dp.weights_gb - tp.weights_gb == pytest.approx(11.41342208 * 7 / 8, rel=1e-9)


def test_search_takes_dp_attention_where_more_sessions_fit():
    tp, dp, chosen = _profile("tp"), _profile("dp"), _profile()
    # the engine holds the same per GPU; DP's free room is TP's less the 9.987 GB of replicated attention
    # weights, each session takes 1/8: TP 41 sessions (1.151 GB each) → DP 261 (0.144 GB each)
    free_tp = tp.limit_gb - tp.base_gb
    assert tp.seq_mem == int(free_tp // SESSION_GB) == 41
    assert dp.seq_mem == int((free_tp - 11.41342208 * 7 / 8) // (SESSION_GB / 8)) == 261
    assert (chosen.attention, chosen.seq_mem) == ("dp", dp.seq_mem)


def test_dp_attention_only_for_mla_on_several_gpus_of_sglang_or_vllm():
    assert dp_attention_possible(V3, 8, "sglang") and dp_attention_possible(V3, 8, "vllm")
    assert not dp_attention_possible(V3, 1, "vllm")
    assert not dp_attention_possible(V3, 8, "tensorrt-llm")
    assert not dp_attention_possible(CAT.model("llama-3.1-70b"), 8, "vllm")
    assert _profile(engine="tensorrt-llm").attention == "tp"


def test_estimate_states_its_attention_layout_and_agrees_with_the_search():
    # issue 31 leftover 5: `estimate` says which layout it assumes (TP by default, every engine runs it)
    # and takes DP attention as an option; with it, its KV per GPU and capacity are the search's profile's.
    # 64 sessions × 1.151336448 GB = 73.6855 GB of latent: every GPU under TP, 73.6855 / 8 = 9.2107 GB under DP
    from expert.api import estimate
    kw = dict(count=8, tensor_parallel=8, precision="fp8", batch=64, context_tokens=CONTEXT, catalog=CAT)
    tp, dp = estimate("deepseek-v3", "h200", **kw), estimate("deepseek-v3", "h200", attention="dp", **kw)
    assert (tp.memory.attention, dp.memory.attention) == ("tp", "dp")
    assert tp.memory.kv_cache_per_gpu_gb == pytest.approx(64 * SESSION_GB, rel=1e-9)
    assert dp.memory.kv_cache_per_gpu_gb == pytest.approx(64 * SESSION_GB / 8, rel=1e-9)
    assert dp.memory.weights_per_gpu_gb - tp.memory.weights_per_gpu_gb == pytest.approx(11.41342208 * 7 / 8, rel=1e-9)
    assert not tp.memory.fits and dp.memory.fits
    # the same capacity as the search's profiles: 41 sessions under TP, 261 under DP
    assert (tp.max_concurrent_sequences, dp.max_concurrent_sequences) == (_profile("tp").seq_mem, _profile("dp").seq_mem)
    assert estimate("llama-3.1-8b", "h200", catalog=CAT).memory.attention is None


def test_dp_attention_on_a_model_without_mla_is_refused_with_exit_2(capsys):
    from expert.cli.main import main
    assert main(["estimate", "--model", "llama-3.1-70b", "--gpu", "h200", "--count", "2", "--tp", "2",
                 "--attention", "dp"]) == 2
    assert "--attention" in capsys.readouterr().err
