"""A profile's copies share its uncapped replica and capacity (perf 46).

Issue 29 dropped the dictionary every copy of a profile shared; the copies (per set of targets,
`with_target`, and per count of held agent sessions, `with_held`) were to keep what their original had
worked out. The original worked out nothing before it was copied, so each copy, and an agent loop
makes one for every candidate it checks, solved `rate_max`'s bisection again: 44 762 bisections for
192 profiles in one advice of examples/agent-critical-onprem.yaml. `build_profile` now works both out
before any copy is made.
"""

from __future__ import annotations

import pytest

from expert.catalog.loader import load_catalog
from expert.configurator.agent_demand import with_held
from expert.configurator.candidates import column_of
from expert.configurator.enumeration import default_assumptions
from expert.configurator.profile import build_profile
from expert.inputs.slo import Targets
from expert.sizing import load

CAT = load_catalog()
A = default_assumptions(CAT)
SLO = Targets(ttft_s=5.0, tpot_ms=None, e2e_s=None, streaming=True, said={})


def test_copies_share_the_uncapped_replica_and_its_capacity(monkeypatch):
    """Llama-3.1-8B fp16 on one L40S: the targeted profile and five copies holding 1-5 idle sessions
    each ask for the replica's capacity; the bisection runs once (in `build_profile`), not six times, and
    every copy reads the same uncapped replica and the same rate."""
    model, gpu = CAT.model("llama-3.1-8b"), CAT.gpu("l40s")
    calls = []
    original = load.rate_max
    monkeypatch.setattr(load, "rate_max", lambda r, tol=1e-6: calls.append(r) or original(r, tol))
    p = build_profile(model, gpu, "fp16", 1, column_of(gpu), 1200, 180, 1380, SLO, A)
    copies = [with_held(p, held) for held in range(1, 6)]
    rates = [c.rate_max() for c in copies] + [p.rate_max()]
    assert len(calls) == 1
    assert all(c.replica(capped=False) is p.replica(capped=False) for c in copies)
    assert rates == [p.rate_max()] * 6
    assert p.rate_max() == pytest.approx(original(p.replica(capped=False)), rel=0)
    # the KV pool's cap is each copy's own: 5 sessions held leave 5 fewer sequences
    assert copies[-1].replica().cap == p.replica().cap - 5
