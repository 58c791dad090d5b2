"""The latency targets an agent loop is sized against, with where each comes from.

An agent is searched as its per-step equivalent (`agent_demand.equivalent`), whose targets come from
the agent's fields, not the workload's: an internal step's complete-step target (`step_latency_target_s`,
bound by the task target's share), the final answer's first words or complete answer
(`final_latency_target_s`), or, with neither, each step's share of the task target
((task − steps × tool time) / steps). A report's "Latency targets" section and an audit's check use
these, so they show the targets the search used and name the agent's field as their source.
"""

from __future__ import annotations

from dataclasses import replace

from expert.catalog.models import LlmModel
from expert.inputs.slo import Targets, targets
from expert.inputs.workload import Workload


def workload_targets(w: Workload, model: LlmModel | None) -> Targets:
    """The targets `w` is sized against: its own (`inputs.slo.targets`), or an agent's per-step ones
    (`model`, the agent's model, is only read for an agent loop)."""
    if w.agent is None or w.agents:
        return targets(w)
    from expert.configurator.agent_demand import demand, equivalent

    d = demand(w, model)
    t = targets(equivalent(w, d))
    return replace(t, said={**t.said, **_said(w, d, t)})


def _said(w: Workload, d, t: Targets) -> dict[str, tuple[str, dict]]:
    """The sources of the equivalent's targets that come from the agent (`agent_demand._targets`)."""
    spec, agent = w.agent, d.agent
    share = None
    if spec.task_latency_target_s is not None:
        share = {"task": f"{spec.task_latency_target_s:g}", "steps": f"{agent.steps_mean:g}",
                 "tool": f"{agent.tool_time_s:g}", "share": f"{d.step_target_s:.2f}"}
    out: dict[str, tuple[str, dict]] = {}
    if d.internal_target_s is None and d.final_target_s is None:
        if share is not None:  # each step complete within its share of the task target
            out["e2e"] = ("slo.source.agent_task_share", share)
        return out
    if d.final_target_s is not None and d.streamed and t.ttft_s == d.final_target_s:
        out["ttft"] = ("slo.source.agent_final_first_words", {})
    if t.e2e_s is not None:
        if d.final_target_s is not None and not d.streamed and t.e2e_s == d.final_target_s:
            out["e2e"] = ("slo.source.agent_final_complete", {})
        elif spec.step_latency_target_s is not None and t.e2e_s == spec.step_latency_target_s:
            out["e2e"] = ("slo.source.agent_step", {})
        elif share is not None:
            out["e2e"] = ("slo.source.agent_task_share", share)
    return out


__all__ = ["workload_targets"]
