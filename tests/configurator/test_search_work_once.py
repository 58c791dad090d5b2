"""A search does each piece of a candidate's work once (perf 46).

One advice of examples/agent-critical-onprem.yaml (highly available, so every candidate is visited)
took 7 s: besides the copies that each solved a profile's capacity again
(`test_profile_copies_share_capacity.py`) and the rounds of a closed loop
(`test_settle_rounds.py`), an operating point solved its steady state twice (once for the batch, once
for the latencies), the failure domains' check searched the fewest replicas `_serving` had just found,
and the full enumeration priced each (source, count) anew in every search (152 561 cost lines), where
the cost-ordered search reads one shared price per (source, count) and horizon (`pairs.price`).
"""

from __future__ import annotations

import math
from collections import Counter

from expert.catalog.loader import load_catalog
from expert.configurator import objective
from expert.configurator.candidates import column_of
from expert.configurator.enumeration import as_workload, context, default_assumptions, enumerate_candidates
from expert.configurator.profile import build_profile
from expert.configurator.serving import Serving
from expert.inputs.slo import Targets
from expert.sizing import load

CAT = load_catalog()
A = default_assumptions(CAT)
SLO = Targets(ttft_s=5.0, tpot_ms=None, e2e_s=None, streaming=True, said={})
HA = {"model": "llama-3.1-8b", "requests_per_day": 200_000, "high_availability": True, "hosting": "ch",
      "deployment": "cloud"}


def test_an_operating_point_solves_its_steady_state_once(monkeypatch):
    """Llama-3.1-8B fp16 on one L40S at 2 requests/s: one steady state, whose step is the point's TPOT
    and whose p95 TTFT its TTFT; the batch is Little's law at 70 %: ⌈2 × (TTFT mean + 250 × step) / 0.7⌉."""
    model, gpu = CAT.model("llama-3.1-8b"), CAT.gpu("l40s")
    p = build_profile(model, gpu, "fp16", 1, column_of(gpu), 1500, 250, 1750, SLO, A)
    states = []
    original = load.steady
    monkeypatch.setattr(load, "steady", lambda r, lam: states.append(original(r, lam)) or states[-1])
    op = p.point(1, 2.0, 0, 0.7, None)
    assert len(states) == 1
    st = states[0]
    assert (op.tpot_s, op.ttft_s, op.rate_rps) == (st.step_s, st.ttft_p95_s, 2.0)
    assert op.batch == math.ceil(2.0 * (st.ttft_mean_s + 250 * st.step_s) / 0.7 - 1e-9)


def _searched(shared: dict):
    ctx, sources = context(as_workload(HA), CAT, A, shared)
    return enumerate_candidates(ctx, sources)


def test_a_highly_available_search_prices_each_pair_once(monkeypatch):
    """Every (source, count) is priced once over two searches that share their caches at one horizon:
    no cost line twice in the first, none at all in the second, and the same pick."""
    lines = Counter()
    original = objective.cost_line
    monkeypatch.setattr(objective, "cost_line",
                        lambda s, n, months, a: lines.update([(s.key, n, months)]) or original(s, n, months, a))
    shared: dict = {}
    first = _searched(shared)
    assert lines and max(lines.values()) == 1
    priced = sum(lines.values())
    second = _searched(shared)
    assert sum(lines.values()) == priced
    assert first.best is not None and (second.best.source.key, second.best.count) == \
        (first.best.source.key, first.best.count)
    assert second.best.objective == first.best.objective


def test_the_domains_check_reads_the_replicas_serving_found(monkeypatch):
    """One fewest-replicas search per candidate checked: the failure domains' check reads `_serving`'s."""
    calls = []
    original = Serving.replicas_needed
    monkeypatch.setattr(Serving, "replicas_needed", lambda self, *args: calls.append(args) or original(self, *args))
    ctx, sources = context(as_workload(HA), CAT, A, {})
    out = enumerate_candidates(ctx, sources)
    assert out.best is not None and out.best.replicas >= 2   # N + 1 over two domains at least
    assert len(calls) == out.evaluated
