"""The configurator against the documents' own use cases (000 U1-U3, G5, M2, T3; 004 packages).

The documents compare the Swiss provider's trio (L40S, A100 80 GB, H100) — its catalog prices are
what 000's TCO claims are derived from — so these workloads use `hosting: ch`. Token counts and
latency targets are stated per test: 000 gives "under 2 s" for U1, read as the first words of a streamed
answer (p95 TTFT with queueing, docs/slo.md); answers are kept short (100 tokens).
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from expert.catalog.loader import load_catalog
from expert.configurator import search
from expert.configurator.agents import evaluate_pool
from expert.facts.near_tie import NEAR_SHARE
from expert.configurator.document import document_recommendation
from expert.facts.input_facts import gpu_family

CAT = load_catalog()
U1 = {"hosting": "ch", "prompt_tokens": 1500, "output_tokens": 100, "latency_target_s": 2.0,
      "requests_per_second": 100 / 60}            # 100 requests/minute: the low end of U1's 100-500, a rate
#                                                   (sized as given, no daily peak factor: docs/slo.md)
RAG_DATASET = 40_000_000                           # tokens per monthly run (see test_u1_regular_retraining)
# 000 M2/U2/U3 justify A100/H100 by team time waiting on runs: those tests opt in to it (issue 12: team
# time is opt-in) on the document's own run size (415 M tokens = M2's 48 h on one A100 for 13B LoRA)
WAITED = {"frequency": "monthly", "team_waits": True, "dataset_tokens": 415_000_000}


def fam(result) -> str:
    return gpu_family(CAT.gpu(result.recommendation.gpu))


def trains_on(result) -> str:
    """GPU family of the option the fine-tuning plan chose."""
    plan = result.training_plan
    chosen = next(o for o in plan["options"] if o["kind"] == plan["chosen"])
    return gpu_family(CAT.gpu(chosen["gpu"]))


@pytest.mark.parametrize("model", ["mistral-7b", "qwen2.5-7b", "llama-3.1-8b"])
def test_u1_pure_inference_picks_l40s(model):
    r = search({**U1, "model": model}, CAT, sensitivity=False)
    assert fam(r) == "l40s" and r.recommendation.count == 1
    assert r.document.family == "l40s" and r.document.agrees


def test_u1_13b_pure_inference_l40s():
    # 13B at U1's 100 requests/minute, first words within 2 s: L40S, or — llama-2-13b has no grouped-query
    # attention (1.4 GB of KV per 1 750-token sequence) — a cheaper GPU with the L40S replica's capacity
    # against the peak named in the report (issue 11: the physical reason in one line, with numbers)
    import expert
    r = expert.advise({**U1, "model": "llama-2-13b"})
    if gpu_family(CAT.gpu(r.recommendation.gpu)) != "l40s":
        assert "The documents pick L40S" in r.document_recommendation
        assert "serves about" in r.document_recommendation and "the peak is 1.67 req/s" in r.document_recommendation


def test_u1_regular_retraining_picks_a100():
    """U1: 'A100 when the model is regularly retrained on domain data'. A small RAG domain retraining:
    40 M tokens per monthly LoRA run (≈ 20 000 domain documents of ~2 000 tokens, one epoch), which
    takes ≈ 2.8 h on one A100 80 GB, ≈ 9.5 h on an L40S."""
    w = {**U1, "model": "llama-3.1-8b",
         "fine_tuning": {"frequency": "monthly", "method": "lora", "dataset_tokens": RAG_DATASET,
                        "team_waits": True}}
    r = search(w, CAT, sensitivity=False)
    assert fam(r) == "a100"
    assert r.document.family == "a100" and r.document.agrees


def _family_at(tokens: float) -> str:
    w = {**U1, "model": "llama-3.1-8b",
         "fine_tuning": {"frequency": "monthly", "method": "lora", "dataset_tokens": int(tokens),
                        "team_waits": True}}
    return fam(search(w, CAT, sensitivity=False))


def _crossover(lo: float, hi: float, below: str) -> float:
    assert _family_at(lo) == below and _family_at(hi) != below
    while hi - lo > 0.25e6:
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if _family_at(mid) == below else (lo, mid)
    return hi


def test_u1_crossover_to_h100():
    """M2/U2: H100 pays off once the saved fine-tuning hours × 150 CHF exceed its monthly premium.
    Find both crossovers of the 8B RAG agent's monthly dataset and check the second against U2's own
    formula at the crossover."""
    to_a100 = _crossover(1e6, RAG_DATASET, "l40s")
    to_h100 = _crossover(RAG_DATASET, 400e6, "a100")
    assert to_a100 < RAG_DATASET < to_h100
    w = {**U1, "model": "llama-3.1-8b",
         "fine_tuning": {"frequency": "monthly", "method": "lora", "dataset_tokens": int(to_h100),
                        "team_waits": True}}
    r = search(w, CAT, sensitivity=False)
    h = r.recommendation
    a = next(x for x in r.alternatives if x.gpu.startswith("a100"))
    months = h.horizon_months
    saved_hours = (a.finetune_hours_per_run - h.finetune_hours_per_run)     # one run per month
    premium = (h.gpu_cost_chf - a.gpu_cost_chf) / months
    # U2's condition, within the near-tie band (issue 33): the H100 is picked from where its extra cost is
    # under 2 % of the A100's objective over the horizon, as it answers faster; at the crossover just so
    band = NEAR_SHARE * a.objective_chf / months
    assert saved_hours * 150 >= premium - band
    assert saved_hours * 150 == pytest.approx(premium - band, abs=0.02 * premium)
    print(f"\nU1 crossover: L40S→A100 at {to_a100 / 1e6:.2f} M tokens/run, A100→H100 at {to_h100 / 1e6:.2f} M "
          f"(A100 {a.finetune_hours_per_run:.2f} h vs H100 {h.finetune_hours_per_run:.2f} h per run: saved "
          f"{saved_hours:.2f} h × 150 = {saved_hours * 150:.0f} CHF/month vs H100 premium {premium:.0f} CHF/month)")


def test_u3_70b_pure_inference_under_budget_is_multi_a100():
    r = search({"hosting": "ch", "model": "llama-3.1-70b", "requests_per_day": 5000, "latency_target_s": 20},
               CAT, sensitivity=False)
    # the documents: multi-A100. Without a flat reserve for a 70B model (000 M5 is about a 7B that grows),
    # and with INT8 served as W8A8 on the A100's INT8 tensor cores (issue 32), one A100 80 GB holds the 70B
    # in INT8 (70.6 B params at 1 B + the 16-bit embeddings, within its 78.2 GB usable) and serves 0.17 req/s
    # within 20 s: the documents' family, one GPU instead of several — said in the comparison
    assert r.document.family == "a100" and r.document.multi_gpu
    rec = r.recommendation
    assert gpu_family(CAT.gpu(rec.gpu)) == "a100" and rec.precision == "int8" and rec.kernel == "W8A8 INT8"
    assert rec.count == 1 and rec.memory_per_gpu_gb <= rec.usable_per_gpu_gb
    assert "one suffices" in r.document.comparison["en"]


def test_u3_70b_monthly_finetuning_is_h100():
    """U3: monthly retraining of a 70B model: multi-GPU, H100 (15 → 5 days). With the run planned as a
    job (issue 12) the H100s are where it trains: 415 M tokens of 70B LoRA take 172 h on the two serving
    A100s (22 nights of idle hours, over half the month), 67 h on two H100 NVL."""
    r = search({"hosting": "ch", "model": "llama-3.1-70b", "requests_per_day": 5000, "latency_target_s": 20,
                "fine_tuning": WAITED}, CAT, sensitivity=False)
    plan = r.training_plan
    chosen = next(o for o in plan["options"] if o["kind"] == plan["chosen"])
    assert gpu_family(CAT.gpu(chosen["gpu"])) == "h100" and chosen["gpus"] > 1
    # serving on L40S/A100/H100 (one A100 80 GB in INT8 W8A8 since issue 32, else two 48 GB cards at FP8);
    # the H100s are where the runs train
    assert fam(r) in ("l40s", "a100", "h100")
    assert r.document.family == "h100"


@pytest.mark.parametrize("workload", [
    # > 40B: a 70B agent step whose complete 250-token answer a program needs within 5 s (not streamed:
    # end to end; A100 needs 4 GPUs, H100 2)
    {"model": "llama-3.1-70b", "requests_per_day": 5000, "latency_target_s": 5, "streaming": False},
    # latency under 500 ms: complete 30-token answers of a 14B classifier within 0.4 s (not streamed; two
    # L40S at TP 2 take 0.46 s, outside the 10 % tolerance of 0.4 s, inside that of 0.45 s)
    {"model": "qwen2.5-14b", "requests_per_day": 20000, "latency_target_s": 0.4, "output_tokens": 30,
     "streaming": False},
    # monthly fine-tuning of a complex (32B) model, 000 M2's default run size
    {"model": "qwen2.5-32b", "requests_per_day": 20000, "latency_target_s": 10, "fine_tuning": WAITED},
], ids=["above-40b", "latency-under-500ms", "monthly-finetuning-complex"])
def test_g5_h100_scenarios(workload):
    r = search({"hosting": "ch", **workload}, CAT, sensitivity=False)
    # G5's fine-tuning scenario: the H100s are where the runs go (serving GPUs or training GPUs, issue 12)
    assert fam(r) == "h100" or (r.training_plan and trains_on(r) == "h100")


@pytest.mark.parametrize("hosting", ["ch", "any"])
@pytest.mark.parametrize("model", ["llama-2-13b", "qwen2.5-14b"])
@pytest.mark.parametrize("rpm", [5, 50, 200])
def test_m2_monthly_finetuning_13b_never_l40s(hosting, model, rpm):
    r = search({"hosting": hosting, "model": model, "requests_per_day": rpm * 60 * 24, "latency_target_s": 10,
                "fine_tuning": WAITED}, CAT, sensitivity=False)
    # M2: monthly 13B runs never train on an L40S (48 h on A100 → 6 days on L40S); serving may stay on
    # L40S when the runs go to A100/H100 training GPUs (R3's hybrid: L40S inference + A100 fine-tuning)
    assert r.recommendation is not None and trains_on(r) != "l40s"
    assert r.document.family in ("a100", "h100")


def _plain_package_pick(w: dict) -> str:
    """004 C4 written plainly: among the packages whose total VRAM (what vLLM uses: 0.92 of the memory
    the driver reports, docs/engines.md; 000 M5's 30 % reserve on the weights only for models under
    20B) holds the weights + KV for context × concurrency + each GPU's runtime, the cheapest over the
    horizon (purchase + 15 % infrastructure + energy − 35 % resale, 000 T1/T5); equal cost → the better
    precision (16-bit before 8-bit)."""
    from expert.sizing.engines import budget
    from expert.sizing.memory import kv_cache_gb, weights_gb
    model = CAT.model(w["model"])
    kv16 = kv_cache_gb(model, w["context_tokens"], w["concurrency"])
    options = []
    for p in CAT.packages.values():
        gpu = CAT.gpu(p.gpu)
        price = CAT.to_chf(p.hardware_net.amount.mid, p.hardware_net.currency)
        energy = gpu.tdp_w / 1000 * p.count * 1.5 * 730 * 36 * 0.18
        tco = price * 1.15 + energy - 0.35 * price
        engine = budget("vllm", model, gpu, p.count, 0.0, w["context_tokens"])  # no weights: pool = the rest
        runtime = (engine.activation_gb + engine.overhead_gb) * p.count
        for rank, precision in enumerate(("fp16", "fp8", "int8")):
            if precision == "fp8" and not gpu.fp8_tflops:
                continue
            if model.params_b < 20 and weights_gb(model, precision) > p.total_vram_gb * 0.7:
                continue
            kv = kv16 / 2 if precision == "fp8" else kv16  # an fp8 candidate caches its KV in FP8 (1 byte)
            if weights_gb(model, precision) + kv + runtime <= engine.usable_gb * p.count:
                options.append((round(tco, 2), rank if precision != "fp8" else 0.5, p.id))
    return min(options)[2]


@pytest.mark.parametrize("model,context,concurrency", [("llama-3.1-70b", 8192, 16), ("codellama-34b", 16384, 24),
                                                        ("llama-3.1-8b", 32768, 40)])
def test_on_premise_cheapest_package_holding_model_and_context(model, context, concurrency):
    w = {"model": model, "deployment": "on_premise", "budget": "capex", "critical": False,
         "context_tokens": context, "concurrency": concurrency, "requests_per_day": 100,
         "latency_target_s": 120, "prompt_tokens": 1000, "output_tokens": 200}
    r = search(w, CAT, sensitivity=False)
    packages = [c for c in [r.recommendation, *r.alternatives] if c.source == "package" and c.fits]
    best = min(packages, key=lambda c: c.tco_chf)
    assert best.package == _plain_package_pick(w)
    assert r.recommendation.tco_chf <= best.tco_chf   # an individual purchase may undercut the packages


T3 = yaml.safe_load((Path(__file__).resolve().parents[2] / "examples" / "agent-pool-t3.yaml")
                    .read_text(encoding="utf-8"))
"""000 T3's five agents on one pool (the example file)."""


def test_t3_hybrid_saving_and_configurator_choice():
    """000 T3: 3 pure-inference agents (7-13B) and 2 with monthly fine-tuning (13-20B); 2× L40S + 2×
    A100 80 GB save 57 572 CHF over 36 months against 4× A100 at the Swiss provider."""
    hybrid = evaluate_pool(T3, CAT, [{"offer": "hikube-l40s", "count": 2}, {"offer": "hikube-a100-80gb", "count": 2}])
    homogeneous = evaluate_pool(T3, CAT, [{"offer": "hikube-a100-80gb", "count": 4}])
    assert hybrid["fits"], hybrid["problems"]
    assert homogeneous["fits"], homogeneous["problems"]
    saving = homogeneous["gpu_cost_chf"] - hybrid["gpu_cost_chf"]
    assert saving == pytest.approx(57_572, rel=0.02)
    r = search(T3, CAT)
    assert r.recommendation is not None and r.pool is not None
    assert r.pool["tco_chf"] <= hybrid["tco_chf"] + 0.01
    assert r.pool_comparison is not None


def test_document_recommendation_text():
    assert "L40S" in document_recommendation({"model": "llama-3.1-8b"})
    assert '"Konversationsagent mit RAG (Modell 7-13B)" (U1' in document_recommendation({"model": "llama-3.1-8b"})
    assert "H100" in document_recommendation({"model": "llama-3.1-70b", "fine_tuning": "monthly"})
    assert "A100" in document_recommendation({"model": "llama-3.1-8b", "fine_tuning": "monthly"})
    assert "Multi-GPU A100" in document_recommendation({"model": "llama-3.1-70b"}, lang="de")


def test_document_pick_pack_alone_derives_what_all_rules_derive():
    """The documents' pick is evaluated on its own pack (`document._pick_rules`, issue 21): on every
    advice scenario's workload (and each again with monthly fine-tuning, so U2's priced rules run) the
    pack alone derives the same single `document_pick` fact, from the same rule, as the whole rule base."""
    from expert.configurator.document import _pick_rules, u2_facts
    from expert.configurator.enumeration import default_assumptions
    from expert.engine import evaluate
    from expert.facts.input_facts import workload_fact
    from expert.inputs.load import load_workload_data
    from expert.engine.rule_base import rule_base
    from expert.inputs.pools import primary_model

    base, a = rule_base(), default_assumptions(CAT)
    checked = 0
    for path in sorted(Path("tests/scenarios").glob("advise-*.scenario.yaml")):
        raw = yaml.safe_load(path.read_text(encoding="utf-8"))["workload"]
        for variant in (raw, {**raw, "fine_tuning": "monthly"}):
            w = load_workload_data(variant, None, CAT)
            model = primary_model(w, CAT)
            facts = [workload_fact(w, model), *u2_facts(w, CAT, a, model)]
            picks = [[(f.rule_id, d) for f in evaluate(b, facts).fired for d in f.derived
                      if d["t"] == "document_pick"] for b in (base, _pick_rules(base))]
            assert len(picks[0]) == 1 and picks[0] == picks[1], (path.name, picks)
            checked += 1
    assert checked >= 40
