"""A pool of agents seen as one workload: its primary (largest) model and the pooled view the
clarification sentence, the facts and the summaries use. Below `advice` and the configurator's
documents' view, which both read it."""

from __future__ import annotations

from expert.catalog import Catalog
from expert.workload import Workload


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
