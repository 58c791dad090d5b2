"""QA 44 D12: an alternative that cannot hold the model says whose memory it counts (one replica's) and
shows no answer times."""

from __future__ import annotations

import expert
from expert.configurator.explain import violation_text
from expert.configurator.feasibility import Violation


def _memory(tp: int, count: int) -> str:
    facts = {"need_gb": 695.2, "usable_gb": 184.4, "limit_gb": 184.4, "reserve": 0.0, "weights_gb": 673.0,
             "weights_limit_gb": 188.0, "growth_gb": None, "tp": tp, "count": count}
    return violation_text(Violation("memory", 3.77, facts))["en"]


def test_memory_text_names_the_replica():
    assert _memory(2, 64) == "one TP 2 replica needs 695 GB, has 184"
    assert _memory(1, 8) == "one GPU (TP 1) needs 695 GB, has 184"
    assert _memory(1, 1) == "needs 695 GB, has 184"


def test_non_fitting_alternative_has_no_answer_times():
    # QA 44's w5 workload: Qwen3-235B-A22B fp8 in the EU; 2× H100 NVL (TP 2) hold 2 × 92 GB = 184 GB
    # usable, the model needs 249 GB: no "complete answer (p95)" for it
    w = {"model": "qwen3-235b-a22b", "precision": "fp8", "requests_per_day": 40_000, "latency_target_s": 2,
         "prompt_tokens": 2000, "output_tokens": 600, "hosting": "eu", "data": "sensitive", "sector": "finance"}
    report = expert.advise(w)
    nvl = next(a for a in report.alternatives if a.gpu == "h100-nvl")
    assert nvl.count == 2 and nvl.why_not == "one TP 2 replica needs 249 GB, has 184"
    assert nvl.latency_p95_s is None and nvl.ttft_p95_s is None and nvl.tpot_ms is None
    fitting = [a for a in report.alternatives if "needs" not in a.why_not]
    assert fitting and all(a.latency_p95_s is not None for a in fitting)
