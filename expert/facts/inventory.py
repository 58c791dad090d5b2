"""000 R1's agent inventory: one `agent` fact per agent of a multi-agent workload.

Phase 1 ("Audit und Bedarfsklärung") inventories every agent planned for 18-24 months with its model
size, expected request volume and retraining frequency, and records a technical specification per
agent: model, VRAM needed, target throughput, latency and compliance constraints. The sizing core
gives the numbers; rules/governance.yaml (r1-*) writes the specification and flags what is missing.
"""

from __future__ import annotations

from typing import Any

from expert.catalog import Catalog
from expert.facts.input_facts import clean_fact
from expert.inputs.workload import FineTuning, Workload


def agent_facts(w: Workload, catalog: Catalog) -> list[dict[str, Any]]:
    """000 R1's per-agent specification, one `agent` fact per agent of a pool: model, VRAM needed
    (weights at the workload's precision + the KV cache of one sequence at its context), expected
    volume and peak rate, retraining frequency and the pool's latency target (raw values)."""
    from expert.sizing.memory import kv_cache_gb, weights_gb

    facts = []
    for i, agent in enumerate(w.agents):
        model = catalog.resolve_model(agent.model, agent.params_b, path=f"agents[{i}].model")
        tuning = agent.fine_tuning if not isinstance(agent.fine_tuning, str) else FineTuning(
            frequency=agent.fine_tuning)
        volume = agent.requests_per_day
        facts.append(clean_fact({
            "t": "agent_spec", "name": agent.name, "model": agent.model or "generic", "params_b": model.params_b,
            "vram_gb": weights_gb(model, w.at_native(model.native_precision).precision)
            + kv_cache_gb(model, min(w.context, model.max_context)),
            "requests_per_day": volume,
            "peak_rps": None if volume is None else volume / 86_400 * w.peak_to_average,
            "fine_tuning": tuning.frequency, "finetune_runs_per_year": tuning.runs_per_year,
            "latency_target_s": w.latency_target_s}))
    return facts
