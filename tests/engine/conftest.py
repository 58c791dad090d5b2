"""Shared fixtures of the rule-engine tests: fixture pack directories and fact sets."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

from expert.engine import RuleBase, load_packs, prepare

PACKS = Path(__file__).parent / "packs"

#: Facts of an audit that trips most rules of the 20-rule fixture (tests/engine/packs/twenty).
AUDIT_FACTS = [
    {"t": "workload", "latency_target_s": 2.0, "data": "sensitive", "sector": "health",
     "fine_tuning": "monthly", "growth_params_b": 70, "budget": "capex", "horizon_months": 36},
    {"t": "model", "id": "llama-3.1-8b", "params_b": 8},
    {"t": "setup", "gpu": "h100-sxm", "count": 1, "utilization_mean": 0.35, "latency_p95_s": 2.5,
     "storage_type": "network", "cpu_cores": 8, "provider_seat": "US", "interconnect": "pcie",
     "monitoring": False, "certifications": ["soc2"], "iso27001": False, "ownership": "rented"},
    {"t": "sizing", "gpus_needed": 2, "headroom": 0.1, "per_gpu_gb": 60.5},
    {"t": "cost", "monthly_rent_chf": 2310, "ratio": 1.8},
]

#: A healthy deployment: only the classification rules and `utilisation-healthy` fire.
HEALTHY_FACTS = [
    {"t": "workload", "latency_target_s": 30, "data": "non_sensitive", "sector": "other",
     "fine_tuning": "none", "budget": "opex", "horizon_months": 36},
    {"t": "setup", "gpu": "l40s", "count": 1, "utilization_mean": 0.72, "latency_p95_s": 12,
     "storage_type": "nvme", "cpu_cores": 32, "provider_seat": "CH", "interconnect": "pcie",
     "monitoring": True, "certifications": ["iso27001"], "iso27001": True, "ownership": "owned"},
    {"t": "sizing", "gpus_needed": 1, "headroom": 0.4, "per_gpu_gb": 20.1},
]


@pytest.fixture
def audit_facts() -> list[dict]:
    """A fresh copy of AUDIT_FACTS."""
    return copy.deepcopy(AUDIT_FACTS)


@pytest.fixture
def healthy_facts() -> list[dict]:
    """A fresh copy of HEALTHY_FACTS."""
    return copy.deepcopy(HEALTHY_FACTS)


@pytest.fixture(scope="session")
def packs_dir() -> Path:
    """The directory of the fixture rule packs."""
    return PACKS


@pytest.fixture(scope="session")
def twenty() -> RuleBase:
    """The compiled 20-rule fixture (three packs that chain on each other)."""
    return prepare(load_packs([PACKS / "twenty"]))


@pytest.fixture(scope="session")
def rulebase():
    """Compile the fixture pack directory `name` (cached per test session)."""
    cache: dict[str, RuleBase] = {}

    def get(name: str) -> RuleBase:
        if name not in cache:
            cache[name] = prepare(load_packs([PACKS / name]))
        return cache[name]

    return get
