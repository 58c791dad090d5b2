"""QA 45 nits: an agent's documents comparison counts LLM steps/s (docs/contract.md: agent rates are
"LLM steps/s"), and a report without a latency target states no tolerance."""

from __future__ import annotations

import expert
from expert.report.render import render

AGENT = {"model": "qwen3-30b-a3b", "precision": "fp8", "engine": "sglang",
         "agent": {"kind": "coding", "concurrent_users": 50, "think_time_s": 30, "session_affinity": True}}
THROUGHPUT = {"model": "qwen3-8b", "requests_per_second": 20, "prompt_tokens": 1200, "output_tokens": 12,
              "streaming": False}


def test_an_agents_comparison_counts_llm_steps():
    # QA 45 case w6 (qwen3-30b-a3b agent on SGLang): "2× l40s meets the targets at the peak of 1.55 req/s" — the rate is LLM steps/s
    text = expert.advise(AGENT).document_recommendation
    assert "meets the targets at the peak of" in text and "LLM steps/s:" in text and "req/s:" not in text
    assert "LLM-Schritte/s:" in expert.advise(AGENT, lang="de").document_recommendation


def test_no_target_states_no_tolerance():
    # QA 45 case w12: not streamed, no target: "sized for throughput", then no "10 % above it"
    text = render(expert.advise(THROUGHPUT), "text")
    assert "none (not streamed, no target: sized for throughput)" in text
    assert "a target counts as met up to" not in text
    assert "a target counts as met up to 10 % above it" in render(expert.advise({"model": "qwen3-8b",
                                                                                "requests_per_day": 1000}), "text")
