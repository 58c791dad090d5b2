"""QA 44 D1-D5: tensor parallelism beyond one node or not dividing the attention heads, and requests that do
not fit the stated or the model's context, are refused with exit 2 naming the field; a model that no 8-GPU
node holds says that serving across nodes is not modelled."""

from __future__ import annotations

import pytest

from expert.catalog import load_catalog
from expert.configurator.candidates import tp_degrees
from expert.sizing.combined import tp_choices
from expert.sizing.memory import choose_tensor_parallel
from test_bad_input import assert_clean_error

QWEN = ("estimate", "--model", "qwen3-8b", "--gpu", "h100-sxm")  # 32 heads, 8 KV heads, max context 40 960
NOT_MODELLED = "serving across nodes (tensor or pipeline parallelism over more than one node) is not modelled"


@pytest.mark.parametrize("model", ["qwen3-8b", "deepseek-r1"])
def test_d2_tp_beyond_one_node_is_refused(cli, model):
    result = cli("estimate", "--model", model, "--gpu", "h100-sxm", "--count", "16", "--tp", "16")
    assert_clean_error(result, "field --tp: tensor parallelism 16 spans more than one 8-GPU node",
                       "is not modelled", "(allowed: 1, 2, 4, 8 within one node)")  # 32 and 128 heads


@pytest.mark.parametrize("model, count, tp, heads, kv, allowed", [
    ("qwen3-8b", 3, 3, 32, 8, "1, 2, 4, 8"),     # QA 44: vLLM "Total number of attention heads (32) must be divisible"
    ("qwen3-8b", 6, 6, 32, 8, "1, 2, 4, 8"),
    ("qwen2.5-7b", 8, 8, 28, 4, "1, 2, 4"),      # 28 = 2² × 7, but TP 7 does not split its 4 KV heads (QA 46)
    ("phi-3-medium", 6, 3, 40, 10, "1, 2, 5"),   # 40 = 2³ × 5; 10 KV heads: TP 4 and 8 neither divide nor are divided
])
def test_d5_tp_not_dividing_the_heads_is_refused(cli, model, count, tp, heads, kv, allowed):
    result = cli("estimate", "--model", model, "--gpu", "l40s", "--count", str(count), "--tp", str(tp))
    assert_clean_error(result, f"field --tp: {model}'s {heads} attention heads are not divisible by tensor "
                               f"parallelism {tp}", "verify_with_parallel_config",
                       f"(allowed: {allowed}: the degrees up to 8 dividing {heads} whose {kv} KV heads split evenly)")


@pytest.mark.parametrize("model, tp, kv, allowed", [
    ("phi-4", 4, 10, "1, 2, 5"),            # 40 heads ÷ 4 = 10, but 10 KV heads ÷ 4 = 2.5: vLLM's divide() asserts
    ("qwen3-14b", 5, 8, "1, 2, 4, 8"),      # 40 heads ÷ 5 = 8, but 8 KV heads ÷ 5 = 1.6
])
def test_qa46_tp_that_does_not_split_the_kv_heads_is_refused(cli, model, tp, kv, allowed):
    result = cli("estimate", "--model", model, "--gpu", "h100-sxm", "--count", str(tp), "--tp", str(tp))
    assert_clean_error(result, f"field --tp: {model}'s {kv} KV heads cannot be split evenly over tensor "
                               f"parallelism {tp}", "QKVParallelLinear", f"(allowed: {allowed}:")


def test_qa46_a_custom_model_file_is_checked_the_same_way(cli, tmp_path):
    (tmp_path / "config.json").write_text(
        '{"architectures": ["LlamaForCausalLM"], "model_type": "llama", "hidden_size": 3072, '
        '"intermediate_size": 8192, "num_attention_heads": 24, "num_key_value_heads": 8, "num_hidden_layers": 28, '
        '"vocab_size": 128256, "max_position_embeddings": 131072, "torch_dtype": "bfloat16", "head_dim": 128}')
    result = cli("estimate", "--model", str(tmp_path / "config.json"), "--gpu", "h100-sxm", "--count", "3",
                 "--tp", "3")   # 24 heads ÷ 3 = 8 (accepted before), 8 KV heads ÷ 3 = 2.67: refused
    assert_clean_error(result, "8 KV heads cannot be split evenly over tensor parallelism 3")


def test_qa46_kv_heads_fewer_than_tp_are_replicated_tp_over_kv_times(cli):
    # qwen3-30b-a3b: 32 heads, 4 KV heads; TP 8: each GPU holds one KV head, 8 / 4 = 2 copies of each
    memory = cli("estimate", "--model", "qwen3-30b-a3b", "--gpu", "h100-sxm", "--count", "8", "--tp", "8",
                 "--format", "json").json()["memory"]
    assert memory["kv_replication"] == 2.0
    assert memory["kv_cache_per_gpu_gb"] == pytest.approx(memory["kv_cache_gb"] / 4)   # 1 of the 4 heads


def test_d5_a_degree_dividing_the_heads_is_kept(cli):
    # phi-3-medium: 40 heads and 10 KV heads divide by 5; vLLM starts it at TP 5
    result = cli("estimate", "--model", "phi-3-medium", "--gpu", "l40s", "--count", "5", "--tp", "5",
                 "--format", "json")
    assert result.code == 0, result.err
    assert result.json()["tensor_parallel"] == 5


@pytest.mark.parametrize("setup, field, fragment", [
    ("gpu: h100-sxm\ncount: 16\ntensor_parallel: 16\nworkload: {model: deepseek-r1, requests_per_day: 1000}\n",
     "tensor_parallel", "tensor parallelism 16 spans more than one 8-GPU node"),
    ("gpu: h100-sxm\ncount: 16\ntensor_parallel: 16\n", "tensor_parallel", "(allowed: 1, 2, 3, 4, 5, 6, 7, 8 within"),
    ("gpu: l40s\ncount: 3\ntensor_parallel: 3\nworkload: {model: qwen3-8b, requests_per_day: 1000}\n",
     "tensor_parallel", "qwen3-8b's 32 attention heads are not divisible by tensor parallelism 3"),
    ("gpu: l40s\ncount: 6\nworkload: {agents: [{name: chat, model: qwen3-8b, requests_per_day: 10}]}\n"
     "placement: {chat: {tensor_parallel: 6, replicas: 1}}\n",
     "placement.chat.tensor_parallel", "32 attention heads are not divisible by tensor parallelism 6"),
])
def test_d2_d5_setups_name_their_tensor_parallel_field(cli, tmp_path, setup, field, fragment):
    path = tmp_path / "setup.yaml"
    path.write_text(setup)
    assert_clean_error(cli("audit", str(path)), str(path), f"field {field}: ", fragment)
    assert_clean_error(cli("validate", str(path)), f"field {field}: ", fragment)


def test_d5_configurator_and_layouts_take_only_degrees_dividing_the_heads():
    catalog = load_catalog()
    # synthetic: 28 query heads as qwen2.5-7b, with 28 KV heads so that only the heads rule limits TP
    model = catalog.model("qwen2.5-7b").model_copy(update={"kv_heads": 28})
    assert tp_degrees(model, 8) == (1, 2, 4)        # 8 does not divide 28
    assert tp_degrees(model, 7) == (1, 7)
    assert tp_choices(model, 8) == [1, 2, 4]
    # a batch no layout holds: the largest degree offered is 4, not 8
    assert choose_tensor_parallel(model, catalog.gpu("l40s"), 8, "fp16", 32_768, 10_000) == 4


def test_d4_estimate_context_must_hold_the_request(cli):
    # 2 000 prompt + the default 250 output = 2 250 > 1 000: the workload file's rule and message
    assert_clean_error(cli(*QWEN, "--context-tokens", "1000", "--prompt-tokens", "2000"),
                       "field --context-tokens: prompt_tokens + output_tokens (2250) exceed context_tokens (1000)")
    assert cli(*QWEN, "--context-tokens", "2250", "--prompt-tokens", "2000").code == 0


@pytest.mark.parametrize("flags, field, need", [
    (("--prompt-tokens", "30000", "--output-tokens", "20000"), "--prompt-tokens", 50000),
    (("--output-tokens", "40000"), "--output-tokens", 41500),  # the default 1 500 prompt + 40 000
])
def test_d3_estimate_request_beyond_the_models_context(cli, flags, field, need):
    assert_clean_error(cli(*QWEN, *flags), f"field {field}: prompt_tokens + output_tokens ({need}) exceed "
                                           "qwen3-8b's maximum context of 40960 tokens", "up to 40960")


@pytest.mark.parametrize("text, field", [
    ("model: qwen3-8b\nrequests_per_day: 1000\nprompt_tokens: 60000\n", "prompt_tokens"),  # QA 44 b6.yaml
    ("agents: [{name: a, model: llama-3.1-8b}, {name: b, model: qwen3-8b}]\nrequests_per_day: 10\n"
     "prompt_tokens: 60000\n", "prompt_tokens"),
])
def test_d3_workload_request_beyond_the_models_context(cli, tmp_path, text, field):
    path = tmp_path / "w.yaml"
    path.write_text(text)
    # 60 000 + the default 250 output = 60 250 > 40 960 (qwen3-8b config.json max_position_embeddings)
    assert_clean_error(cli("advise", str(path)), str(path), f"field {field}: prompt_tokens + output_tokens "
                       "(60250) exceed qwen3-8b's maximum context of 40960 tokens")
    setup = tmp_path / "s.yaml"
    setup.write_text("gpu: h100-sxm\nworkload:\n" + "".join(f"  {line}\n" for line in text.splitlines()))
    assert_clean_error(cli("validate", str(setup)), "field workload.prompt_tokens: ")


def test_d3_a_request_of_exactly_the_maximum_is_accepted(cli, tmp_path):
    path = tmp_path / "w.yaml"
    path.write_text("model: qwen3-8b\nrequests_per_day: 1000\nprompt_tokens: 40710\n")  # 40 710 + 250 = 40 960
    assert cli("validate", str(path)).code == 0


def test_d1_estimate_says_multi_node_is_not_modelled(cli):
    # QA 44: deepseek-r1 fp8 on 16 H100: TP 8 × 2 replicas, 90.3 of 78.2 GB per GPU
    out = cli("estimate", "--model", "deepseek-r1", "--gpu", "h100-sxm", "--count", "16").out
    assert "DOES NOT FIT" in out
    assert f"one 8-GPU node of h100-sxm cannot hold a replica, and {NOT_MODELLED}" in out
    fits = cli("estimate", "--model", "deepseek-r1", "--gpu", "h200", "--count", "8").out  # 90.3 of 137.9 GB
    assert "fits" in fits and "not modelled" not in fits
    small = cli("estimate", "--model", "llama-3.1-70b", "--gpu", "l40s", "--count", "2").out  # TP 2: more GPUs help
    assert "DOES NOT FIT" in small and "not modelled" not in small


def test_d1_nothing_fits_says_multi_node_is_not_modelled(cli, tmp_path):
    path = tmp_path / "w.yaml"  # QA 44 w8.yaml: Swiss cloud offers top out at 8 × A100 80 GB (626 GB usable)
    path.write_text("model: deepseek-r1\nrequests_per_day: 5000\ndeployment: cloud\nhosting: ch\n")
    report = cli("advise", str(path), "--format", "json").json()
    assert report["nothing_fits"].startswith("nothing fits: the closest candidate, 8× a100-80gb-sxm")
    assert report["nothing_fits"].endswith(f"; one 8-GPU node of a100-80gb-sxm cannot hold the model, and "
                                           f"{NOT_MODELLED}")
