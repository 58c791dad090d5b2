"""Current open models sized as their publishers state (issue 30, item 7): native formats, active
parameters in speed, sliding windows, vision towers. Published figures are cited at each test."""

import pytest

from expert.api import run_estimate
from expert.catalog import load_catalog
from expert.sizing.memory import inference_memory, kv_cache_gb, weights_gb
from expert.sizing.speed import decode_weight_gb, performance, step_floor_s, weight_only

GIB = 1.073741824  # GB per GiB


@pytest.fixture(scope="module")
def catalog():
    return load_catalog()


def test_gpt_oss_weights_at_their_native_mxfp4_match_the_published_checkpoints(catalog):
    # model card arXiv:2508.10925 Table 1: checkpoints 60.8 GiB (120b) and 12.8 GiB (20b); memory to ±5 %
    assert weights_gb(catalog.model("gpt-oss-120b"), "mxfp4") / GIB == pytest.approx(60.8, rel=0.05)
    assert weights_gb(catalog.model("gpt-oss-20b"), "mxfp4") / GIB == pytest.approx(12.8, rel=0.05)


def test_gpt_oss_120b_runs_on_one_80_gb_gpu(catalog):
    # model card §2.2: MXFP4 'allowing the larger model to fit on a single 80GB GPU'; at 8k context, 8 sequences
    memory = inference_memory(catalog.model("gpt-oss-120b"), catalog.gpu("h100-sxm"), 1, 1, "mxfp4", 8192, 8)
    assert memory.fits and memory.weights_gb < 80


def test_gpt_oss_20b_runs_within_16_gb(catalog):
    # model card: 'the smaller model runs on systems with as little as 16GB memory' (weights and a short KV)
    model = catalog.model("gpt-oss-20b")
    assert weights_gb(model, "mxfp4") + kv_cache_gb(model, 8192) < 16


def test_llama_4_scout_runs_on_one_h100_in_int4(catalog):
    # Llama 4 model card: Scout 'fits on a single H100 GPU' with on-the-fly int4 quantization
    scout = catalog.model("llama-4-scout")
    assert inference_memory(scout, catalog.gpu("h100-sxm"), 1, 1, "int4", 8192, 1).fits
    assert not inference_memory(scout, catalog.gpu("h100-sxm"), 1, 1, "fp16", 8192, 1).fits  # 218 GB in BF16


def test_qwen3_30b_a3b_decodes_well_under_a_dense_32b_on_the_same_gpu(catalog):
    # 3.3B of 30.5B active (model card) against 32.8B dense: a batch-1 step reads ~9x fewer weight bytes
    h100 = catalog.gpu("h100-sxm")
    moe, dense = catalog.model("qwen3-30b-a3b"), catalog.model("qwen3-32b")
    assert decode_weight_gb(dense) / decode_weight_gb(moe) > 8
    tpot_moe = performance(moe, h100, precision="fp16").tpot_s
    tpot_dense = performance(dense, h100, precision="fp16").tpot_s
    assert tpot_moe < 0.4 * tpot_dense


def test_the_native_format_is_the_default_precision_and_a_stated_one_is_kept(catalog):
    native = run_estimate(catalog, model="gpt-oss-120b", params_b=None, gpu="h100-sxm")
    stated = run_estimate(catalog, model="gpt-oss-120b", params_b=None, gpu="h200", count=2, precision="fp16")
    assert (native.precision, stated.precision) == ("mxfp4", "fp16")
    # 116.83B × 2 B = 233.7 GB in BF16 (what a dequantised copy holds), against 65.2 GB native
    assert stated.memory.weights_gb == pytest.approx(233.66, abs=0.01)
    assert run_estimate(catalog, model="deepseek-r1", params_b=None, gpu="h200", count=8).precision == "fp8"
    assert run_estimate(catalog, model="qwen3-32b", params_b=None, gpu="h100-sxm").precision == "fp16"


def test_mxfp4_runs_natively_only_where_the_gpu_has_fp4(catalog):
    # Blackwell and MI355X have FP4 tensor cores; Hopper and Ampere dequantise (vLLM's Marlin/Triton path)
    assert [weight_only(catalog.gpu(g), "mxfp4") for g in ("h100-sxm", "a100-80gb-sxm", "b200", "b300", "mi355x")] \
        == [True, True, False, False, False]


def test_gpt_oss_mxfp4_covers_the_experts_only(catalog):
    # attention, router and embeddings stay BF16 (config modules_to_not_convert): 116.83 − 128 × (116.83 − 5.71)
    # / 124 = 2.13B at 2 B and 114.7B at 4.25/8 B
    m = catalog.model("gpt-oss-120b")
    experts = 128 * (116.83 - 5.71) / 124
    assert weights_gb(m, "mxfp4") == pytest.approx(experts * 4.25 / 8 + (116.83 - experts) * 2, rel=1e-9)
    # stated int4 (GPTQ-style) quantises every linear layer instead: only the embeddings stay 16-bit
    assert weights_gb(m, "int4") < weights_gb(m, "mxfp4")


def test_sliding_windows_cap_the_kv_cache(catalog):
    # gpt-oss: half the 36 layers hold at most 128 tokens: at 32k, KV ≈ half of full attention (+128 tokens)
    m = catalog.model("gpt-oss-120b")
    full = 36 * 2 * 8 * 64 * 2 * 32768 / 1e9
    assert kv_cache_gb(m, 32768) == pytest.approx(full / 2 + 18 * 2 * 8 * 64 * 2 * 128 / 1e9, rel=1e-9)
    # Gemma 3 27B: 10 of 62 layers global, 52 at 1024 tokens (share 0.8387, catalog)
    g = catalog.model("gemma-3-27b")
    per_layer_token = 2 * 16 * 128 * 2
    expected = 62 * per_layer_token * ((1 - 0.8387) * 32768 + 0.8387 * 1024) / 1e9
    assert kv_cache_gb(g, 32768) == pytest.approx(expected, rel=1e-9)


def test_a_vision_tower_is_held_but_not_read_per_token(catalog):
    # Gemma 3 27B: 0.417B SigLIP (report Table 1) in the weights, left out of each decode step's read
    g = catalog.model("gemma-3-27b")
    assert weights_gb(g, "fp16") == pytest.approx(27.43 * 2)
    embed_lookup = 262208 * 5376 / 1e9 * 2  # the input embedding table: one row read per token
    assert decode_weight_gb(g) == pytest.approx(27.43 * 2 - embed_lookup - 0.417 * 2, rel=1e-9)


def test_dense_first_layers_carry_no_expert_launches(catalog):
    # Maverick: 24 of 48 layers are MoE (interleave_moe_layer_step 2): half the expert launches of all-MoE
    maverick = catalog.model("llama-4-maverick")
    all_moe = maverick.model_copy(update={"moe_layers": None})
    dense = maverick.model_copy(update={"experts": None, "experts_active": None, "shared_experts": None})
    for engine in ("vllm", "transformers"):
        expert_part = step_floor_s(all_moe, engine=engine) - step_floor_s(dense, engine=engine)
        assert step_floor_s(maverick, engine=engine) - step_floor_s(dense, engine=engine) == pytest.approx(
            expert_part / 2, rel=1e-9)


def test_serving_engines_run_routed_experts_in_grouped_kernels(catalog):
    # DeepSeek-R1 at TP 8: 61 layers × (0.064 ms kernel floor + 2 all-reduces × 0.026 ms) = 7.076 ms, plus 58 MoE
    # layers × (0.0448 ms of grouped-expert kernels + 1 shared expert × 0.0192 ms) = 3.712 ms: 10.79 ms on a
    # serving engine; Transformers launches the 8 routed + 1 shared experts one by one: 58 × 9 × 0.0192 = 10.02 ms
    # (InferenceX measured 7.0-7.2 ms at concurrency 1 on SGLang 0.5.12, 8 × B200 / B300: docs/accuracy.md)
    r1 = catalog.model("deepseek-r1")
    assert step_floor_s(r1, 8, engine="sglang") * 1e3 == pytest.approx(7.076 + 3.712, abs=0.001)
    assert step_floor_s(r1, 8) == step_floor_s(r1, 8, engine="vllm") == step_floor_s(r1, 8, engine="tensorrt-llm")
    assert step_floor_s(r1, 8, engine="transformers") * 1e3 == pytest.approx(7.076 + 10.022, abs=0.001)
    # a dense model has no expert term on any engine
    llama = catalog.model("llama-3.1-8b")
    assert step_floor_s(llama, engine="transformers") == step_floor_s(llama, engine="vllm") == pytest.approx(
        32 * 0.064e-3)