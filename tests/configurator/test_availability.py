"""High availability in the configurator (issue 31 item 5): N+1 replicas over at least two failure
domains (servers bought, cloud instances rented), priced, and the domains named in the report."""

from __future__ import annotations

import pytest

from expert.catalog.loader import load_catalog
from expert.configurator import search
from expert.configurator.availability import domain_count, domain_gpus

CAT = load_catalog()


@pytest.mark.parametrize("replicas,needed,tp,domains", [
    (1, 1, 1, None),     # one replica: no second domain
    (2, 1, 1, 2),        # N = 1: 1 + 1 over two servers
    (2, 2, 1, None),     # N = 2 needs 3
    (4, 3, 1, 4),        # N + 1 = 4: losing any domain of one replica leaves 3
    (6, 3, 1, 2),        # 6 over two servers of 3: losing one leaves 3
    (6, 3, 8, 6),        # TP 8: a server holds one replica, so six servers
])
def test_fewest_domains_that_survive_one_loss(replicas, needed, tp, domains):
    assert domain_count(replicas, needed, tp) == domains


def test_domains_spread_evenly():
    assert domain_gpus(5, 2, 2) == [6, 4]


def _pick(deployment: str, ha: bool):
    w = {"model": "llama-3.1-8b", "requests_per_day": 2000, "deployment": deployment, "high_availability": ha}
    return search(w, CAT, sensitivity=False).recommendation


def test_ha_workload_that_fits_one_gpu_rents_two_instances_at_twice_the_cost():
    one, ha = _pick("cloud", False), _pick("cloud", True)
    assert (one.gpu, one.count, one.failure_domains) == ("l40s", 1, None)
    # the same L40S offer, two instances of one GPU: 2 × 712.37 = 1 424.74 CHF a month
    assert (ha.gpu, ha.count, ha.replicas, ha.offer) == ("l40s", 2, 2, one.offer)
    assert ha.monthly_cost_chf == pytest.approx(2 * 712.37, abs=0.01) == pytest.approx(2 * one.monthly_cost_chf)
    assert ha.failure_domains == ["instance 1: 1 × l40s", "instance 2: 1 × l40s"]


def test_ha_workload_that_fits_one_gpu_buys_two_servers_at_twice_the_cost():
    one, ha = _pick("on_premise", False), _pick("on_premise", True)
    assert (one.count, one.chassis) == (1, "server-4gpu")
    # two complete one-GPU servers, not one server with two GPUs: TCO 2 × 24 826.63 = 49 653.26 CHF,
    # paid up front 2 × 20 809.88 = 41 619.76 CHF
    assert ha.count == 2 and ha.chassis == "server-4gpu + server-4gpu"
    assert ha.tco_chf == pytest.approx(2 * 24826.63, abs=0.02) == pytest.approx(2 * one.tco_chf, abs=0.02)
    assert ha.upfront_chf == pytest.approx(2 * 20809.88, abs=0.02)
    assert ha.failure_domains == ["server 1: 1 × l40s", "server 2: 1 × l40s"]


def test_every_sub_search_of_a_highly_available_agent_keeps_two_domains():
    # issue 31 leftover 4: the offload-share search (`kv_during_tools: cpu`) and the sensitivity searches
    # take the same per-candidate check of failure domains as the main search (`enumeration.optimum`):
    # every choice they return holds N + 1 >= 2 replicas over at least two servers or instances
    w = {"model": "qwen2.5-32b", "precision": "fp8", "high_availability": True, "deployment": "cloud",
         "agent": {"kind": "coding", "tasks_per_day": 2000, "session_affinity": True, "kv_during_tools": "cpu"}}
    result = search(w, CAT)
    rec = result.recommendation
    assert rec.replicas >= 2 and len(rec.failure_domains) >= 2
    choices = [s.choice for s in result.sensitivity_details if s.choice is not None]
    assert choices, "the sensitivity searches found choices"
    for c in choices:
        assert c.replicas >= 2 and c.failure_domains is not None and len(c.failure_domains) >= 2, c
