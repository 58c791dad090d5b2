"""TTFT as a server measures it (issue 32, item 1): the serving engine's time per request
(engine_speed.request_overhead_s) in the core's TTFT, its bands, the steady state and the configurator's
profile; the closed-loop TTFT beyond capacity; the accuracy report's TTFT rows by regime (item 5)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from expert.catalog import load_catalog
from expert.configurator.candidates import column_of
from expert.configurator.profile import build_profile
from expert.sizing import load
from expert.sizing.accuracy import POISSON, AccuracyReport, compare, evaluate, load_rows
from expert.sizing.constants import DEFAULT
from expert.sizing.engine_speed import cohort_prompt_s, cohort_prompts_max, request_overhead_s
from expert.sizing.memory import max_sequences
from expert.sizing.speed import performance
from expert.sizing.steady import core_replica, loaded_performance

CAT = load_catalog()
H100 = CAT.gpu("h100-sxm")
LLAMA8, LLAMA70 = CAT.model("llama-3.1-8b"), CAT.model("llama-3.1-70b")
TRT = "tensorrt-llm"


def test_request_overhead_by_engine():
    # request_overhead_ms: point 6.5 ms (median of 6.11, 6.97 of NIM 1.8.0 and 4.12, 7.34), band 4.1-7.3;
    # every serving engine adds it, no engine named or transformers' generate() do not
    assert request_overhead_s(TRT) == pytest.approx(6.5e-3)
    assert request_overhead_s("vllm", end="low") == pytest.approx(4.1e-3)
    assert request_overhead_s("sglang", end="high") == pytest.approx(7.3e-3)
    assert request_overhead_s(None) == 0 and request_overhead_s("transformers") == 0
    assert request_overhead_s("vllm", DEFAULT.override(request_overhead_ms=20.0)) == pytest.approx(0.02)


def test_ttft_against_nims_short_prompts():
    # NIM 1.8.0 Llama-3.1-8B FP8, one H100, concurrency 1 (nim-llama31-8b-fp8-1xh100-ttft-200in-200out-c1):
    # 10.26 ms for 200 tokens. Roofline 3.29 ms (the prefill of 200 tokens is bound by reading the 8 GB of
    # FP8 weights) + 6.5 ms = 9.79 ms (-4.6 %; without the server -68 %)
    p = performance(LLAMA8, H100, 1, 1, "fp8", 1, 200, 200, "fp8", engine=TRT)
    plain = performance(LLAMA8, H100, 1, 1, "fp8", 1, 200, 200, "fp8")
    assert plain.ttft_s * 1000 == pytest.approx(3.29, abs=0.01)
    assert p.ttft_s * 1000 == pytest.approx(3.29 + 6.5, abs=0.01)
    assert p.ttft_s * 1000 == pytest.approx(10.26, rel=0.05)
    # the band's ends carry the overhead's ends: fast + 4.1 ms, slow + 7.3 ms
    assert p.bands["ttft_s"].low - plain.bands["ttft_s"].low == pytest.approx(4.1e-3)
    assert p.bands["ttft_s"].high - plain.bands["ttft_s"].high == pytest.approx(7.3e-3)
    # end to end: 6.5 ms once + TensorRT-LLM's eager launches in each of 200 steps (32 × 48.25 µs)
    assert p.e2e_latency_s - plain.e2e_latency_s == pytest.approx(6.5e-3 + 200 * 1.544e-3)
    assert any("request" in s for s in p.provenance["ttft_s"].sources)


def test_the_overhead_waits_beside_the_prefill_lane():
    # the steady state adds it to every TTFT (mean and p95) but not to the lane's service: the lane's
    # busy share and the step are those of the replica without it
    r = core_replica(LLAMA8, H100, 1, "fp8", 1000, 1000, "fp8", TRT)
    bare = r.__class__(**{**r.__dict__, "request_s": 0.0})
    assert r.request_s == pytest.approx(6.5e-3)
    for lam in (0.0, 2.0, 8.0):
        st, st0 = load.steady(r, lam), load.steady(bare, lam)
        assert st.lane_share == pytest.approx(st0.lane_share) and st.step_s == pytest.approx(st0.step_s)
        assert st.ttft_mean_s - st0.ttft_mean_s == pytest.approx(6.5e-3)
        assert st.ttft_p95_s - st0.ttft_p95_s == pytest.approx(6.5e-3)
    assert load.rate_max(r) == pytest.approx(load.rate_max(bare), rel=1e-6)


def test_advise_and_estimate_agree_on_ttft():
    # the configurator's profile and the core's performance carry the same time per request
    prof = build_profile(LLAMA8, H100, "fp8", 1, column_of(H100), 1000, 1000, 2000, None, DEFAULT, None, TRT,
                         kv_precision="fp8")
    core = performance(LLAMA8, H100, 1, 1, "fp8", 1, 1000, 1000, "fp8", interconnect="nvlink", engine=TRT)
    assert prof.prefill_1 + prof._request == pytest.approx(core.ttft_s, rel=1e-9)
    ttft, tpot, _ = prof.latencies(1, 0.0)
    assert ttft == pytest.approx(core.ttft_s + core.tpot_s, rel=1e-9)   # docs/slo.md: TTFT = prefill + a step
    steady = loaded_performance(LLAMA8, H100, 1, 1, "fp8", 1, 1000, 1000, "fp8", engine=TRT, rate_rps=1.0)
    assert load.steady(prof.replica(), 1.0).ttft_mean_s == pytest.approx(steady.ttft_steady_s, rel=1e-6)


def test_admission_wait_of_a_closed_loop_beyond_capacity():
    # NIM 1.8.0 Llama-3.1-8B FP8, 20 000-token prompts, 100 in flight: TTFT 78 187 ms measured
    # (nim-llama31-8b-fp8-1xh100-ttft-20000in-2000out-c100). The steady state holds fewer in flight than
    # 100; the others wait (N − in flight) / rate: Little's law over the queue
    rows = {r["id"]: r for r in load_rows()}
    c = compare(rows["nim-llama31-8b-fp8-1xh100-ttft-20000in-2000out-c100"], CAT)
    assert "closed-loop" in c.quantity and c.measured == pytest.approx(78187.07)
    assert 0.0 < c.error < 0.30
    st = load.SteadyState(2.0, 0.03, 40, 40.0, 0.5, 0.5, 0.4, 0.5, 0.02, True)
    assert load.admission_wait_s(st, 100) == pytest.approx(30.0)   # (100 − 40) / 2 req/s
    assert load.admission_wait_s(st, 40) == 0.0
    assert load.closed_loop_ttft_s(st, 100) == pytest.approx(30.4)


def test_a_poisson_row_is_compared_in_its_own_regime():
    # a row stating an arrival rate is compared with the steady state's mean TTFT at that rate
    row = {**{r["id"]: r for r in load_rows()}["nim-llama31-8b-fp8-1xh100-ttft-1000in-1000out-c5"],
           "id": "poisson-example", "request_rate": 2.0, "batch": None}
    c = compare(row, CAT)
    st = loaded_performance(LLAMA8, H100, 1, 1, "fp8", 1, 1000, 1000, "fp8", engine=TRT, rate_rps=2.0,
                            max_sequences=None)
    assert c.regime == POISSON and "2 req/s" in c.quantity
    assert c.estimated == pytest.approx(st.ttft_steady_s * 1000, rel=0.01)


def test_ttft_by_regime_and_bias():
    report = evaluate(catalog=CAT)
    groups = report.by_regime("ttft")
    # 43 TTFT rows at concurrency 1 (7 TensorRT-LLM 0.5 rows, 10 NIM 1.8.0, 10 of MoE models: 5 vLLM
    # DeepSeek-R1 AWQ, 4 Qwen3-30B-A3B, 1 TensorRT-LLM Mixtral; gpustack's vLLM 0.11 Qwen3-8B; 5 held-out
    # Qwen2.5-72B TP 2 rows of tt143 at 128-8 192 tokens; 6 held-out Qwen3-14B rows on an A100 of tt340's sweep,
    # its 4 096-token row skipped; 4 held-out InferenceX DeepSeek-R1 FP8 rows on SGLang 0.5.12, B200 / B300), 62 at
    # 2-49 (20 NIM, 5 vLLM Mistral-7B on an RTX 4090 at 4-48, SGLang's DeepSeek-R1 at
    # 8-32, gpustack's 6, 28 more InferenceX DeepSeek-R1 rows), 56 at >= 50 (6 of them InferenceX's)
    assert [len(groups[("all", reg)]) for reg in ("batch 1", "mid", "saturated")] == [43, 62, 56]
    batch1 = groups[("all", "batch 1")]
    # issue 32's target at concurrency 1: median |error| <= 20 %, |bias| <= 10 % (18.4 %, +2.6 %; 15.8 %, +2.9 %
    # before InferenceX's 4 DeepSeek-R1 rows, -56 to -81 %, ALLOW, and the Qwen3-14B rows, -49 to +40 %; 15.0 %,
    # +2.7 % before tt143's rows; the 17 rows of NIM and TensorRT-LLM 0.5 alone 8.8 %, +2.9 %)
    assert median_abs(batch1) <= 0.20 and abs(report.bias(batch1)) <= 0.10
    # closed loop with the cohort wait bounded by the token budget (load.cohort_size) and the larger of the
    # lane's and the cohort's wait (load.closed_loop_ttft_s), vLLM's cohort priced at u × its GPU prefill
    # (load.cohort_prompt_wait_s): mid 12.3 % median, bias -8.7 % (17.7 %, -15.8 % with NIM's server cost for
    # vLLM too; NIM alone 52 %, -52 %); saturated 16.1 %, +5.9 % (60 %, -59 % before the cohort wait):
    # issue 32's 20 % / 10 % met in both
    mid, sat = groups[("all", "mid")], groups[("all", "saturated")]
    # Known gaps, asserted on their own (docs/accuracy.md, "TTFT by regime"), which take the mid regime as a
    # whole to 29.9 % / -26.7 % (20.6 % / -17.8 % before InferenceX's 28 rows below; issue 32's target missed):
    # SGLang 0.5.7's DeepSeek-R1 FP8 on 8 x H200 at 8, 16, 32 in flight (InferenceX #870): 330.6, 356.0,
    # 426.5 ms measured, 97.1, 141.1, 231.2 estimated ("MoE prefill")
    sglang = sorted((c for c in mid if c.id.startswith("inferencex-sglang-deepseek-r1-fp8-8xh200-ttft-1024in-c")),
                    key=lambda c: c.batch)
    assert [round(c.error, 2) for c in sglang] == [-0.71, -0.6, -0.46]
    # InferenceX's other DeepSeek-R1 FP8 rows at 2-49 (held out: #870's concurrency-4 runs, the image-update PRs'
    # baselines of SGLang 0.5.12 on H200 / B200 / B300 and TensorRT-LLM 1.3.0rc14 on B200): 28 rows, 34.1 % / -34.1 %
    # (53.9 % / -53.9 % before the receive wait; the 13 B200/B300 SGLang rows whose launch flags set
    # --scheduler-recv-interval 10 or 30: 24.7 % / -24.7 %, the 15 others 35.7 % / -35.7 %)
    ix = [c for c in mid if c.id.startswith("inferencex-") and c not in sglang]
    assert len(ix) == 28 and report.latency_stats(ix)[0] == pytest.approx(0.341, abs=0.002)
    assert report.bias(ix) == pytest.approx(-0.341, abs=0.002)
    # gpustack's Qwen3-8B on one H100: the servers' time per request (vLLM 0.11.0's chat endpoint ~50 ms at
    # concurrency 1, -78 %) is far above the 4.1-7.3 ms measured on TensorRT-LLM (NIM): vLLM at 2-8 in flight
    # -60 to -65 %, TensorRT-LLM 1.2 -53 %, SGLang 0.5.3 -18 % (bf16) and -57 % (FP8)
    gpustack = {c.id: c.error for c in mid if c.id.startswith("gpustack-")}
    assert len(gpustack) == 6 and all(-0.66 < e < -0.15 for e in gpustack.values())
    assert report.latency_stats(mid)[0] == pytest.approx(0.299, abs=0.002)
    assert report.bias(mid) == pytest.approx(-0.267, abs=0.002)
    # the 25 others (NIM's 20, vLLM's 5), whose closed loop the model describes: 12.3 % / -8.7 %
    mid = [c for c in mid if not c.id.startswith(("inferencex-", "gpustack-"))]
    assert len(mid) == 25 and median_abs(mid) <= 0.20 and abs(report.bias(mid)) <= 0.10
    assert median_abs(sat) <= 0.20 and 0.0 <= report.bias(sat) <= 0.10


def test_cohort_constant_fitted_on_the_8b_sweep_and_held_out_on_the_70b():
    # constants.cohort_admit_us_per_token and cohort_budget_steps were fitted on NIM's Llama-3.1-8B rows
    # (c > 1): median signed error -5.3 % there; the Llama-3.3-70B TP 2 rows were held out: +14.7 % (too
    # high; +19 % before the budget's bound)
    report = evaluate(catalog=CAT)
    closed = [c for c in report.used if c.kind == "ttft" and c.batch > 1]
    fitted = [c for c in closed if "llama31-8b" in c.id]
    held = [c for c in closed if "llama33-70b" in c.id]
    assert len(fitted) == 35 and len(held) == 34
    assert abs(report.bias(fitted)) <= 0.10
    assert 0.10 <= report.bias(held) <= 0.20


def test_the_token_budget_bounds_the_5000_token_cohort():
    # NIM 1.8.0 Llama-3.1-8B FP8, 5 000-token prompts, 500 out: TTFT 724, 818, 915, 1 080 ms at 25-150 in
    # flight. The whole cohort's wait, (n - 1)/2 × 50 ms, made it 1.6-3.6 × too high (+67 %, +189 %, +264 % at
    # 50-150); at most 1 + 24 × 8 192 / 5 000 = 40.3 prompts return together (cohort_budget_steps): -4 % to +32 %
    errors = {c.batch: c.error for c in evaluate(catalog=CAT).used
              if c.id.startswith("nim-llama31-8b-fp8-1xh100-ttft-5000in-500out-")}
    assert all(abs(errors[n]) <= 0.35 for n in (25, 50, 100, 150))
    assert abs(errors[150]) <= 0.05


def test_the_accuracy_row_is_what_estimate_prints():
    # one code path: benchmarks.accuracy's closed-loop TTFT is steady.loaded_performance's (estimate --batch N)
    rows = {r["id"]: r for r in load_rows()}
    c = compare(rows["nim-llama31-8b-fp8-1xh100-ttft-5000in-500out-c100"], CAT)
    r = core_replica(LLAMA8, H100, 1, "fp8", 5000, 500, "fp8", TRT)
    cap = max_sequences(LLAMA8, H100, 1, 1, "fp8", 5500, "fp8", DEFAULT, TRT)  # as the row's comparison takes it
    p = loaded_performance(LLAMA8, H100, 1, 1, "fp8", 100, 5000, 500, "fp8", engine=TRT, max_sequences=cap)
    assert c.estimated == pytest.approx(p.ttft_steady_s * 1000, rel=1e-9)
    # the bound: 1 + 24 × 8 192 / 5 000 = 40.32 prompts, at 50 ms each → at most 0.983 s behind the cohort
    assert r.cohort_max == pytest.approx(40.3216) and r.cohort_s == pytest.approx(0.05)


def test_vllm_sweep_with_the_gpu_priced_cohort():
    # vLLM, Mistral-7B on one RTX 4090, 256 in / 128 out, mean TTFT 63, 79, 155, 362, 667 ms at concurrency
    # 4, 8, 16, 32, 48 (https://mushfiqrahman.dev/?p=1668). With NIM's server cost per prompt the estimate
    # was -46 %, -71 %, -81 % from 16 on; with vLLM's cohort priced at u × the GPU prefill of a prompt ahead
    # (load.cohort_prompt_wait_s, no constant fitted; the form was chosen on these five rows, the only vLLM
    # closed-loop rows with a mean TTFT): +9 %, +8 %, -6 %, -5 %, -9 %
    errors = {c.batch: c.error for c in evaluate(catalog=CAT).used if c.id.startswith("mrahman-vllm-mistral7b")}
    assert sorted(errors) == [4, 8, 16, 32, 48]
    assert all(abs(e) <= 0.10 for e in errors.values())


def test_cohort_prompt_wait_by_hand():
    # a 256-token prompt at 0.15 ms of GPU prefill a token (38.4 ms) behind a lane busy half the time:
    # vLLM (serial prefill) 0.5 × 38.4 = 19.2 ms a prompt ahead; the server's 2.56 ms (10 µs × 256) when
    # larger, and for TensorRT-LLM (no serial prefill) the server's cost alone
    st = load.SteadyState(2.0, 0.03, 30, 30.0, 0.3, 0.5, 0.1, 0.1, 0.02, True, 0.06)
    vllm = load.Replica(lambda b: 0.02, None, 0.15e-3, 0.04, 256, 128, 2048, cohort_s=0.00256, serial_prefill=True)
    assert load.cohort_prompt_wait_s(vllm, st) == pytest.approx(0.0192)
    assert load.cohort_prompt_wait_s(vllm, st._replace(lane_share=0.05)) == pytest.approx(0.00256)  # 1.92 < 2.56
    assert load.cohort_prompt_wait_s(replace(vllm, serial_prefill=False), st) == pytest.approx(0.00256)
    # and the whole cohort: 30 in flight, (30 − 1)/2 = 14.5 prompts ahead × 19.2 ms = 278.4 ms
    assert load.cohort_wait_s(st, 30, load.cohort_prompt_wait_s(vllm, st)) == pytest.approx(0.2784)


def test_cohort_wait_by_hand():
    # 50 requests in flight, 1 000-token prompts at 10 µs a token: 10 ms a prompt, (50 − 1)/2 = 24.5 ahead
    # on average → 245 ms; with 40 in flight (the KV pool's limit) only 19.5 ahead → 195 ms
    st = load.SteadyState(2.0, 0.03, 50, 50.0, 0.5, 0.5, 0.4, 0.5, 0.02, True)
    per = cohort_prompt_s(1000)
    assert per == pytest.approx(0.010)
    assert load.cohort_wait_s(st, 50, per) == pytest.approx(0.245)
    assert load.cohort_wait_s(st._replace(in_flight=40.0), 100, per) == pytest.approx(0.195)
    assert load.cohort_wait_s(st, 1, per) == 0.0
    # p95: 0.95 × 49 × 10 ms = 465.5 ms
    assert load.cohort_wait_p95_s(st, 50, per) == pytest.approx(0.4655)
    # closed_loop_ttft_s: 0.4 s steady + 0.245 s cohort, nothing beyond capacity
    assert load.closed_loop_ttft_s(st, 50, per) == pytest.approx(0.645)


def test_cohort_bounded_by_the_token_budget_by_hand():
    # 1 + 24 steps × 8 192 tokens / 5 000-token prompts = 40.3216 prompts return together at most
    assert cohort_prompts_max(5000, 8192) == pytest.approx(1 + 24 * 8192 / 5000)
    assert cohort_prompts_max(5000, 8192, end="low") == pytest.approx(1 + 20 * 8192 / 5000)
    st = load.SteadyState(2.0, 0.03, 100, 100.0, 0.5, 0.5, 0.4, 0.5, 0.02, True)
    per = cohort_prompt_s(5000)   # 50 ms
    # 100 in flight, bounded at 40.3216: (40.3216 - 1)/2 × 50 ms = 983.04 ms (unbounded 49.5 × 50 = 2 475 ms)
    assert load.cohort_size(st, 100, 40.3216) == pytest.approx(40.3216)
    assert load.cohort_wait_s(st, 100, per, 40.3216) == pytest.approx(0.98304)
    assert load.cohort_wait_s(st, 100, per) == pytest.approx(2.475)
    # p95: 0.95 × 39.3216 × 50 ms = 1.867776 s
    assert load.cohort_wait_p95_s(st, 100, per, 40.3216) == pytest.approx(1.867776)


def test_closed_loop_waits_for_the_larger_of_lane_and_cohort_by_hand():
    # lane: u = 0.5, service 0.1 s: M/D/1 mean wait 0.5 × 0.1 / (2 × 0.5) = 0.05 s; TTFT 0.4 s includes it.
    # Cohort of 5 at 10 ms a prompt: 2 × 10 = 20 ms < 50 ms: the lane's wait stands, TTFT 0.4 s
    st = load.SteadyState(2.0, 0.03, 5, 5.0, 0.5, 0.5, 0.4, 0.5, 0.02, True, 0.1)
    assert load.closed_loop_ttft_s(st, 5, 0.010) == pytest.approx(0.4)
    # cohort of 5 at 100 ms a prompt: 200 ms > 50 ms: 0.4 - 0.05 + 0.2 = 0.55 s
    assert load.closed_loop_ttft_s(st, 5, 0.100) == pytest.approx(0.55)
    # p95: lane 0.1 × ln(0.5/0.05) / (2 × 0.5) = 0.230259 s; cohort 0.95 × 4 × 0.1 = 0.38 s:
    # 0.5 - 0.230259 + 0.38 = 0.649741 s
    assert load.closed_loop_ttft_p95_s(st, 5, 0.100) == pytest.approx(0.649741, abs=1e-6)


def median_abs(rows) -> float:
    return sorted(c.abs_error for c in rows)[len(rows) // 2]


def test_rows_held_out_from_the_project():
    # issue 32's "done when" over the rows held out (notes starting "Held out", not vLLM's Mistral rows its cohort
    # form was chosen on): TPOT 65 rows 12.0 % / -0.9 % (missed: tt340's seven Qwen3-14B rows on an A100, -15 to
    # -34 %, and InferenceX's DeepSeek-R1 FP8 at 1-2 in flight on B200/B300, +35 to +53 %; 16 rows 6.2 % / +5.0 %
    # before both; 15.9 % / +14.6 % over InferenceX's rows while the step floor counted 3 kernels per routed
    # expert); TTFT 76 rows 36.6 % / -24.7 % (missed: InferenceX's DeepSeek-R1 prefill at short prompts and
    # concurrency-1 rows, gpustack's servers' time per request; 43.0 % / -40.8 % before SGLang's receive interval
    # was read from the B200/B300 runs' launch flags, load.receive_wait_s; 32 rows 34.5 % / -8.3 % before stop 44's
    # 44 rows, docs/accuracy.md)
    from benchmarks.accuracy import held_out_stats

    report = evaluate(catalog=CAT)
    marked = {c.id: c.held_out for c in report.used}
    assert marked["vllm-nightly-azure-phi4-a100pcie-tp1-sharegpt-qps4-ttft"]
    assert not marked["nim-llama31-8b-fp8-1xh100-ttft-1000in-1000out-c5"]
    n, median, _, bias = held_out_stats(report, "tpot")
    assert n == 65 and median == pytest.approx(0.120, abs=0.002) and bias == pytest.approx(-0.009, abs=0.002)
    n, median, _, bias = held_out_stats(report, "ttft")
    assert n == 76 and median == pytest.approx(0.366, abs=0.002) and bias == pytest.approx(-0.247, abs=0.002)
