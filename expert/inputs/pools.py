"""A pool of agents (`workload.agents`): one workload per agent, the pool's clarification sentence, its
primary (largest) model and the pooled view the facts and the summaries use. Below `advice`, `audit`
and the configurator, which all read it."""

from __future__ import annotations

from expert.catalog import Catalog
from expert.inputs.workload import Workload


def primary_model(w: Workload, catalog: Catalog):
    """The workload's model; for a pool of agents without a top-level model, the largest agent's."""
    if w.model is not None or w.params_b is not None or not w.agents:
        return catalog.resolve_model(w.model, w.params_b)
    models = [catalog.resolve_model(a.model, a.params_b, path=f"agents[{i}].model") for i, a in enumerate(w.agents)]
    return max(models, key=lambda m: m.params_b)


def pooled_view(w: Workload, model) -> Workload:
    """A multi-agent workload seen as one: the largest agent's model, the summed request volume and
    the most frequent fine-tuning — for the clarification sentence, the facts and the summaries."""
    if not w.agents or w.model is not None or w.params_b is not None:
        return w
    volume = sum(a.requests_per_day or 0.0 for a in w.agents)
    largest = max(w.agents, key=lambda a: model.params_b if a.model == model.id else (a.params_b or 0))
    return w.model_copy(update={"model": largest.model, "params_b": None if largest.model else model.params_b,
                                "requests_per_day": (w.requests_per_day or 0.0) + volume,
                                "fine_tuning": w.most_frequent_tuning})


def agent_workloads(w: Workload) -> list[Workload]:
    """One single-model workload per agent, with the pool's shared settings (tokens, latency targets,
    utilisation, hosting, budget, horizon, team rate) and the agent's own model, volume and tuning."""
    out = []
    for agent in w.agents:
        upd = {"model": agent.model, "params_b": agent.params_b, "requests_per_day": agent.requests_per_day or 0.0,
               "requests_per_second": None, "fine_tuning": agent.fine_tuning, "agents": [], "name": agent.name}
        out.append(w.model_copy(update=upd))
    return out


def is_pool(w: Workload) -> bool:
    """True for a pool of agents without a top-level model (the pool is then sized agent by agent)."""
    return bool(w.agents) and w.model is None and w.params_b is None


def pool_sentence(w: Workload, lang: str) -> str | None:
    """For a pool of agents, the clarification sentence of each agent, named (a pool is not collapsed
    to its largest model); None for a single-model workload."""
    from expert.interview import render_sentence

    if not is_pool(w):
        return None
    return " ".join(f"{wi.name}: " + render_sentence(wi.model_dump(exclude_none=True), lang)
                    for wi in agent_workloads(w))
