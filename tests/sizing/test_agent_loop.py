"""Agent loops (expert/sizing/agent_loop.py, expert/configurator/agent_demand.py): token shapes, cache
hit rates, sessions, KV, prefill and task latency, each computed by hand in the comments.

Step s reads I_1 = system + task, I_{s+1} = I_s + output + appended; uncached tokens are the task at
step 1 and the appended tokens later (with affinity), or everything but the system prompt (without).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from expert.inputs.agent_block import AgentLoop
from expert.catalog import load_catalog
from expert.configurator.agent_demand import demand, equivalent, held_per_replica, ttft_shift
from expert.configurator.profile import build_profile
from expert.sizing import agent_loop as loop
from expert.sizing.constants import DEFAULT
from expert.sizing.parallel import tp_efficiency
from expert.sizing.speed import performance
from expert.inputs.workload import Workload

CATALOG = load_catalog()
BIG = 10**7  # a context limit no test shape reaches


def shape(steps=None, limit=BIG, reuse=True, **fields):
    agent = AgentLoop.model_validate(fields).resolved()
    return loop.loop_shape(agent, agent.steps_mean if steps is None else steps, limit, reuse)


def test_conversational_defaults_by_hand():
    # system 2 000, task 1 500, appended 1 000, output 250, 3 steps (000 U1 kind's defaults)
    # I = 3 500, 4 750, 6 000 → Σ 14 250, mean 4 750
    # uncached = 1 500 (task), 1 000, 1 000 → Σ 3 500; hit = 1 − 3 500 / 14 250 = 0.754386
    # held = I + output → Σ 15 000, mean 5 000; largest 6 250
    s = shape(kind="conversational")
    assert (s.total_input, s.total_uncached, s.total_held, s.max_context) == (14_250, 3_500, 15_000, 6_250)
    assert s.mean_input == pytest.approx(4_750)
    assert s.mean_uncached == pytest.approx(3_500 / 3)
    assert s.hit_rate == pytest.approx(0.754386, abs=1e-6)


def test_coding_defaults_fractional_steps_by_hand():
    # system 20 000, task 10 000, appended 2 048, output 250, 7.8 steps (TraceLab / Mooncake)
    # I_s = 30 000 + (s−1)·2 298
    # 7 steps: Σ I = 210 000 + 2 298·21 = 258 258; uncached = 10 000 + 6·2 048 = 22 288
    # 8 steps: Σ I = 240 000 + 2 298·28 = 304 344; uncached = 10 000 + 7·2 048 = 24 336
    # 7.8: Σ I = 258 258 + 0.8·46 086 = 295 126.8 → mean 37 836.77; uncached 23 926.4 → mean 3 067.49
    # hit = 1 − 23 926.4 / 295 126.8 = 0.918928 (Mooncake measured 94.2 % on 33-turn SWE-bench traces)
    s = shape(kind="coding")
    assert s.total_input == pytest.approx(295_126.8)
    assert s.total_uncached == pytest.approx(23_926.4)
    assert s.mean_input == pytest.approx(37_836.769, abs=1e-3)
    assert s.hit_rate == pytest.approx(0.918928, abs=1e-6)


def test_swe_bench_shape_reaches_the_published_hit_rate():
    # Mooncake's synthetic SWE trace: 20 k system + 10 k first input + 2 048 per turn + 900 output, 30 turns
    # I_s = 30 000 + (s−1)·2 948 → Σ I = 900 000 + 2 948·435 = 2 182 380; uncached = 10 000 + 29·2 048 = 69 392
    # hit = 1 − 69 392 / 2 182 380 = 0.968203 (measured on the real traces: 94.2 %)
    s = shape(kind="coding", steps_mean=30, steps_p90=30, output_tokens=900)
    assert s.total_input == 2_182_380 and s.total_uncached == 69_392
    assert s.hit_rate == pytest.approx(0.968203, abs=1e-6)


def test_without_affinity_only_the_system_prompt_hits():
    # conversational, steps spread over replicas: uncached = 1 500, 4 750 − 2 000, 6 000 − 2 000 = 8 250
    # hit = 1 − 8 250 / 14 250 = 0.421053 (the system prompt's share; Mooncake measured 1.7 % with a
    # 20 k prompt against 80 k contexts)
    s = shape(kind="conversational", reuse=False)
    assert s.total_uncached == 8_250
    assert s.hit_rate == pytest.approx(0.421053, abs=1e-6)


def test_compaction_at_the_context_limit_by_hand():
    # system 1 000, task 1 000, appended 3 000, output 500, 4 steps, limit 10 000
    # s1 2 000 (uncached 1 000), s2 5 500 (3 000), s3 9 000 (3 000; 9 500 with output ≤ 10 000),
    # s4 12 500 + 500 > 10 000 → compacted to 5 000, a miss: uncached 5 000 − 1 000 = 4 000
    # Σ I = 21 500, Σ uncached = 11 000, hit = 0.488372; largest held 9 500; 1 compaction
    s = shape(steps=4, limit=10_000, system_tokens=1000, task_tokens=1000, appended_tokens=3000,
              output_tokens=500, steps_mean=4, steps_p90=4)
    assert (s.total_input, s.total_uncached, s.compactions, s.max_context) == (21_500, 11_000, 1, 9_500)
    assert s.hit_rate == pytest.approx(0.488372, abs=1e-6)


def test_sessions_task_latency_and_cost_by_hand():
    # 2 000 tasks/day × 3 peak/average = 0.069444 tasks/s; 7.8 steps × (5 s + 16.8 s tool) = 170.04 s
    # sessions = 0.069444 × 170.04 = 11.8083 (Little's law)
    rate = 2000 * 3 / 86_400
    assert loop.task_latency_s(7.8, 5.0, 16.8) == pytest.approx(170.04)
    assert loop.sessions(rate, 7.8, 5.0, 16.8) == pytest.approx(11.808333, abs=1e-6)
    # 5 806 CHF a month over 2 000 tasks × 30.4375 days = 60 875 tasks → 0.095376 CHF per task
    assert loop.cost_per_task(5806, 2000 / 86_400) == pytest.approx(0.0953758, abs=1e-7)
    assert loop.cost_per_task(5806, 0.0) is None


def test_equivalent_workload_and_held_sessions_by_hand():
    w = Workload.model_validate({"model": "qwen2.5-32b", "precision": "fp8",
                                 "agent": {"kind": "coding", "tasks_per_day": 2000,
                                           "task_latency_target_s": 300}})
    d = demand(w, CATALOG.model("qwen2.5-32b"))
    eq = equivalent(w, d)
    # steps per second = 2 000 / 86 400 × 7.8 = 0.180556; prompt = mean input 37 837
    # context = mean held: 7 steps Σ 260 008, 8 steps Σ 306 344 → 297 076.8 / 7.8 = 38 086.77 → 38 087
    assert eq.requests_per_second == pytest.approx(0.1805556, abs=1e-7)
    assert (eq.prompt_tokens, eq.output_tokens, eq.context_tokens) == (37_837, 250, 38_087)
    # per-step target = (300 − 7.8 × 16.8) / 7.8 = 21.6615 s
    assert eq.latency_target_s == pytest.approx(21.661538, abs=1e-6)
    # sessions waiting on a tool at the peak = 0.069444 × 7.8 × 16.8 = 9.1 (mean); each replica holds the
    # p95 of its Poisson share: 4 replicas 2.275 + 1.6449 × √2.275 = 2.275 + 2.481 = 4.756 → 5;
    # 1 replica 9.1 + 1.6449 × √9.1 = 9.1 + 4.962 = 14.06 → 15
    assert d.held_peak == pytest.approx(9.1)
    assert held_per_replica(d, 4) == 5 and held_per_replica(d, 1) == 15
    cpu = demand(w.model_copy(update={"agent": w.agent.model_copy(update={"kv_during_tools": "cpu"})}),
                 CATALOG.model("qwen2.5-32b"))
    assert cpu.held_peak == 0 and held_per_replica(cpu, 4) == 0


def test_concurrent_users_closed_loop_by_hand():
    # 50 users, conversational: cycle = 3 steps × 1 s tool + 84 s think = 87 s → 0.574713 tasks/s at the peak
    w = Workload.model_validate({"model": "llama-3.1-8b", "agent": {"concurrent_users": 50}})
    d = demand(w, CATALOG.model("llama-3.1-8b"))
    assert d.peak_task_rate == pytest.approx(50 / 87)
    assert d.average_task_rate == pytest.approx(50 / 87 / 3)


def test_prefill_without_cache_is_the_cores_ttft():
    model, gpu = CATALOG.model("llama-3.1-8b"), CATALOG.gpu("h100-sxm")
    core = performance(model, gpu, 1, 1, "fp16", 1, 4000, 250).ttft_s
    assert loop.prefill_s(model, gpu, 1, "fp16", "sxm", 4000, 0, DEFAULT) == pytest.approx(core, rel=1e-12)


def test_cached_prefix_adds_only_attention_over_it():
    # compute-bound prefill: the cached prefix adds L·d_attn·2·cached·new FLOPs, nothing for its weights
    model, gpu = CATALOG.model("llama-3.1-8b"), CATALOG.gpu("h100-sxm")
    new, cached = 2000, 40_000
    flops = gpu.fp16_tflops * 1e12 * DEFAULT.mfu.value * tp_efficiency(1, "sxm", DEFAULT)[0]
    extra = model.layers * model.heads * model.head_dim * 2 * cached * new / flops
    cold = loop.prefill_s(model, gpu, 1, "fp16", "sxm", new + cached, 0, DEFAULT)
    warm = loop.prefill_s(model, gpu, 1, "fp16", "sxm", new, cached, DEFAULT)
    assert warm == pytest.approx(loop.prefill_s(model, gpu, 1, "fp16", "sxm", new, 0, DEFAULT) + extra)
    assert warm < cold / 5  # 42 k tokens cold against 2 k new: llm-d measured 4.3 s cold, 0.6 s warm


@settings(max_examples=150, deadline=None)
@given(model=st.sampled_from(["llama-3.1-8b", "qwen2.5-32b", "mixtral-8x7b", "llama-3.1-70b"]),
       gpu=st.sampled_from(sorted(CATALOG.gpus)), tp=st.sampled_from([1, 2, 3, 4, 8]),
       precision=st.sampled_from(["fp16", "fp8", "int8", "int4"]), column=st.sampled_from(["sxm", "pcie"]),
       new=st.floats(1, 20_000), cached=st.floats(0, 120_000), more=st.floats(0, 20_000))
def test_prefill_rises_with_new_and_cached_tokens(model, gpu, tp, precision, column, new, cached, more):
    # on one replica's rates (as agent_demand prefills several token counts) and from scratch alike
    m, g = CATALOG.model(model), CATALOG.gpu(gpu)
    rates = loop.prefill_rates(m, g, tp, precision, column, DEFAULT)
    at = lambda n, c: loop.prefill_with(m, tp, rates, n, c)  # noqa: E731
    assert at(new, cached) == loop.prefill_s(m, g, tp, precision, column, new, cached, DEFAULT)
    assert at(new, cached) <= at(new + more, cached) and at(new, cached) <= at(new, cached + more)


@pytest.mark.parametrize("fields, message", [
    ({"steps_mean": 10, "steps_p90": 5}, "steps_p90"),
    ({"tasks_per_day": 10, "concurrent_users": 5}, "either tasks_per_day or concurrent_users"),
    ({"kind": "coding", "task_latency_target_s": 100}, "tools alone take 131.04 s"),
    ({"kind": "chatbot"}, "kind"),
    ({"steps": 3}, "steps"),
    ({"concurrent_users": 5, "tool_time_s": 0, "think_time_s": 0}, "a user's cycle"),
])
def test_bad_agent_blocks_are_refused_with_the_field(fields, message):
    with pytest.raises(ValueError, match=message):
        Workload.model_validate({"model": "llama-3.1-8b", "agent": fields})


def test_agent_and_pool_cannot_be_combined():
    with pytest.raises(ValueError, match="cannot be combined"):
        Workload.model_validate({"agents": [{"name": "a", "model": "llama-3.1-8b"}],
                                 "agent": {"kind": "coding"}})


# ------------------------------------------------------------------ property: more never less
def _fixed_task(steps: float, appended: int, output: int) -> tuple[float, float, float]:
    """(KV per session GB, prefill tokens per task, task latency s at batch 1) of a coding agent with
    llama-3.1-8b on one H100 SXM: a fixed configuration, so only the loop changes."""
    model, gpu = CATALOG.model("llama-3.1-8b"), CATALOG.gpu("h100-sxm")
    w = Workload.model_validate({"model": "llama-3.1-8b", "agent": {
        "kind": "coding", "steps_mean": steps, "steps_p90": max(steps, 20), "appended_tokens": appended,
        "output_tokens": output, "context_limit_tokens": 131_072, "system_tokens": 4000, "task_tokens": 2000}})
    d = demand(w, model)
    eq = equivalent(w, d)
    shift = ttft_shift(d, model, gpu, 1, "fp16", "sxm", eq.prompt_tokens, DEFAULT)
    prof = build_profile(model, gpu, "fp16", 1, "sxm", eq.prompt_tokens, eq.output_tokens, eq.context_tokens,
                         None, DEFAULT, None, ttft_shift=shift)
    return prof.kv_seq_gb, d.shape.total_uncached, loop.task_latency_s(steps, prof.e2e_1, 16.8)


@settings(max_examples=30, deadline=None)
@given(steps=st.integers(1, 20), more=st.integers(1, 10), appended=st.integers(0, 3000),
       extra=st.integers(1, 3000), output=st.integers(50, 800))
def test_more_steps_or_more_appended_tokens_never_lower_memory_or_latency(steps, more, appended, extra,
                                                                         output):
    # contexts stay below the 131 k limit (4 k + 2 k + 30 × 3.8 k < 131 k): no compaction resets them
    base = _fixed_task(steps, appended, output)
    for bigger in (_fixed_task(steps + more, appended, output), _fixed_task(steps, appended + extra, output)):
        assert bigger[0] >= base[0] - 1e-12      # KV per live session
        assert bigger[1] >= base[1]              # prefill work per task
        assert bigger[2] >= base[2] - 1e-9       # task latency


def test_reload_from_cpu_memory_by_hand():
    # qwen2.5-32b: 2 (K, V) × 64 layers × 8 KV heads × 128 dims × 2 bytes = 262 144 bytes per token
    # 10 000 cached tokens = 2.62144 GB over 25 GB/s = 0.1048576 s; TP 4 splits the 8 KV heads: ÷ 4
    model = CATALOG.model("qwen2.5-32b")
    assert loop.reload_s(model, 1, 10_000, DEFAULT) == pytest.approx(0.1048576)
    assert loop.reload_s(model, 4, 10_000, DEFAULT) == pytest.approx(0.0262144)


def test_reload_moves_the_cache_at_its_precision():
    # FP8 KV: 1 byte per element, half of the 262 144 bytes per token above: 10 000 tokens = 1.31072 GB
    # over 25 GB/s = 0.0524288 s
    model = CATALOG.model("qwen2.5-32b")
    assert loop.reload_s(model, 1, 10_000, DEFAULT, "fp8") == pytest.approx(0.0524288)


def test_reload_uses_the_gpus_pcie_generation():
    # issue 31 item 6: an H100 (Hopper, PCIe Gen5) copies at 50 GB/s (vLLM offloading connector on H100),
    # an A100 (Ampere, Gen4) at 25 GB/s: 2.62144 GB (qwen2.5-32b, 10 000 tokens) = 0.0524288 s vs 0.1048576 s
    model = CATALOG.model("qwen2.5-32b")
    h100, a100 = CATALOG.gpus["h100-sxm"], CATALOG.gpus["a100-80gb-sxm"]
    assert loop.pcie_generation(h100) == 5 and loop.pcie_generation(a100) == 4
    assert loop.reload_s(model, 1, 10_000, DEFAULT, gpu=h100) == pytest.approx(0.0524288)
    assert loop.reload_s(model, 1, 10_000, DEFAULT, gpu=a100) == pytest.approx(0.1048576)
    assert loop.offload_gb(model, 4, 10_000, DEFAULT) == pytest.approx(0.65536)   # 2.62144 / 4 GPUs


def test_layerwise_loading_hides_the_copy_behind_the_prefill():
    # 64 layers, a 0.1 s copy: behind a 0.2 s prefill only layer 1's copy shows, 0.1 / 64 = 0.0015625 s;
    # behind a 0.05 s prefill 0.1 − 0.05 × 63/64 = 0.05078125 s shows; a 1-layer model hides nothing
    assert loop.exposed_reload_s(0.1, 0.2, 64) == pytest.approx(0.0015625)
    assert loop.exposed_reload_s(0.1, 0.05, 64) == pytest.approx(0.05078125)
    assert loop.exposed_reload_s(0.1, 0.2, 1) == pytest.approx(0.1)
