"""The fine-tuning plan of an audited setup (issue 33 item 2, docs/audit-review.md departure 7): the job on
the setup's OWN GPUs, and where its runs could go, with the advice's planner and lines (`training_plan`,
`training_view`), so an audit and an advice state a run the same way.

- The layout on the setup's GPUs is `ft_job.layout_on` (the planner's `idle` option): sharding, memory per
  GPU against the 95 % a run can use, CPU offload with its host RAM per node, hours per run.
- The server's RAM is the setup's `ram_gb` where it states one, else 000 M3's 1:4 rule (4 × VRAM), as the
  advice builds a serving server; CPU offload above it is refused ("not possible"), as in the advice.
- The three sources (the serving GPUs' idle nights, GPUs rented per run, dedicated training GPUs) come from
  `TrainingPlanner.options_for`, searched where the setup's data are (`audit_cost.residency`), the cheapest
  marked; the idle nights are priced at the setup's own cost per GPU-hour (000 T1) where the catalog
  prices its GPUs, else they state their nights only.
- The checkpoints: `finetune.checkpoint_gb` × `Assumptions.checkpoints_kept`.
"""

from __future__ import annotations

from typing import Any

from expert.catalog import Catalog
from expert.inputs.setup_file import Setup
from expert.messages import t
from expert.report.numbers import dec, grouped
from expert.sizing.ft_job import GPUS_PER_NODE


def _gpu_hour(setup: Setup, catalog: Catalog, a) -> float | None:
    """The setup's own cost per GPU-hour over its workload's horizon (None: the catalog prices none)."""
    from expert.configurator.idle_nights import gpu_hour_chf
    from expert.configurator.objective import gpu_cost
    from expert.flows.audit_cost import setup_source

    source = setup_source(setup, catalog)
    months = setup.workload.horizon_months
    return None if source is None else gpu_hour_chf(gpu_cost(source, setup.count, months, a), setup.count, months, a)


def tuning_plans(setup: Setup, catalog: Catalog, lang: str) -> list[dict[str, Any]]:
    """The report's `fine_tuning_plans` of a pool: one plan per agent that fine-tunes, each on all of the
    setup's GPUs at their idle hours (the pool's GPUs are idle together at night), named by its agent."""
    from expert.inputs.pools import agent_workloads, is_pool

    w = setup.workload
    if w is None or not is_pool(w):
        return []
    placed = [a for a in agent_workloads(w) if setup.placement is None or a.name in setup.placement]
    plans = []
    for agent in (a for a in placed if a.tuning.enabled):
        plan = tuning_plan(setup.model_copy(update={"workload": agent, "placement": None}), catalog, lang)
        plan["agent"] = agent.name
        plan["lines"][0] = f"{agent.name}: {plan['lines'][0]}"
        plans.append(plan)
    return plans


def tuning_plan(setup: Setup, catalog: Catalog, lang: str) -> dict[str, Any] | None:
    """The report's `fine_tuning_plan` of a single-model setup whose workload fine-tunes (None otherwise;
    a pool: `tuning_plans`)."""
    from expert.configurator.candidates import catalog_sources
    from expert.configurator.enumeration import default_assumptions
    from expert.configurator.training_plan import TrainingPlanner
    from expert.configurator.training_view import checkpoint_line, job_line, option_dict, option_line
    from expert.flows.audit_cost import residency
    from expert.inputs.pools import is_pool
    from expert.sizing.constants import resolve
    from expert.sizing.finetune import checkpoint_gb

    w = setup.workload
    if w is None or is_pool(w) or not w.tuning.enabled:
        return None
    tuning, gpu = w.tuning, catalog.gpu(setup.gpu)
    model = catalog.resolve_model(w.model, w.params_b, path="workload.model")
    a = default_assumptions(catalog)
    ra = resolve(a)
    tokens = tuning.dataset_tokens if tuning.dataset_tokens is not None else ra.default_dataset_tokens.value
    planner = TrainingPlanner(residency(setup)[0], model, tuning, catalog, a, catalog_sources(catalog), tokens)
    options = planner.options_for(gpu, setup.count, _gpu_hour(setup, catalog, a), setup.ram_gb)
    idle = next(o for o in options if o.kind == "serving-idle")
    chosen = options[0] if options[0].fits and not options[0].declined else None
    lay = planner.layout_on(gpu, setup.count)  # the one `idle` laid out
    trainable, ckpt = checkpoint_gb(model, tuning.method, a)
    kept = int(ra.checkpoints_kept.value)
    plan = {"method": tuning.method, "dataset_tokens": tokens, "dataset_assumed": tuning.dataset_tokens is None,
            "epochs": tuning.epochs, "runs_per_year": tuning.runs_per_year, "runs_on": setup.training_gpus,
            "gpu": gpu.id, "gpus": setup.count, "nodes": lay.nodes, "sharding": lay.sharding,
            "cpu_offload": lay.sharding == "fsdp-offload", "memory_per_gpu_gb": lay.memory_per_gpu_gb,
            "usable_per_gpu_gb": lay.usable_per_gpu_gb, "memory_fits": lay.memory_per_gpu_gb <= lay.usable_per_gpu_gb,
            "host_ram_gb": lay.host_ram_gb, "server_ram_gb": idle.server_ram_gb,
            "server_ram_stated": idle.server_ram_stated,
            "host_ram_exceeded": lay.host_ram_gb > (idle.server_ram_gb or 0.0),
            "hours_per_run": lay.hours, "fits_here": idle.fits,
            "nights_per_run": idle.degraded_nights_per_run, "nights_per_month": idle.degraded_nights_per_month,
            "degraded_chf_per_run": idle.degraded_chf_per_run,
            "chosen": None if chosen is None else chosen.kind, "options": [option_dict(o) for o in options],
            "checkpoint_gb": ckpt, "checkpoints_kept": kept, "checkpoint_storage_gb": ckpt * kept}
    months = w.horizon_months
    lines = [job_line(tuning, model, tokens, plan["dataset_assumed"], lang)
             + t(f"report.tuning.runs_on.{setup.training_gpus}", lang), layout_line(plan, lang)]
    lines += [("→ " if o is chosen else "") + option_line(o, lang, months) for o in options]
    if chosen is idle:
        lines.append(t("configurator.training.degraded", lang, months=months, chf=grouped(idle.degraded_horizon_chf),
                       per_month=dec(idle.degraded_nights_per_month or 0, lang)))
    lines.append(checkpoint_line(tuning.method, trainable, ckpt, kept, ra, lang))
    plan["lines"] = lines
    return plan


def layout_line(plan: dict[str, Any], lang: str) -> str:
    """The job on the setup's own GPUs: sharding, memory per GPU against usable, CPU offload and its host RAM
    against the server's, hours per run (none where the run does not fit, even with CPU offload: QA 47 #9)."""
    n, nodes = plan["gpus"], plan["nodes"]
    shard = t("report.tuning.one_gpu", lang) if n == 1 else t("report.tuning.fsdp", lang, n=n) + (
        t("configurator.training.nodes", lang, nodes=nodes) if nodes > 1 else "")
    # a full fine-tune that does not fit one node was tried with CPU offload too (`layout_on`)
    tried = plan["method"] == "full" and not plan["memory_fits"] and n <= GPUS_PER_NODE
    offload = t("report.tuning.offload." + ("not_either" if tried else "no"), lang)
    if plan["cpu_offload"]:
        basis = (t("report.tuning.ram.stated", lang) if plan["server_ram_stated"]
                 else t("report.tuning.ram.m3", lang, vram=grouped(plan["server_ram_gb"] / 4)))
        offload = t("report.tuning.offload.yes", lang, host=grouped(plan["host_ram_gb"]),
                    ram=grouped(plan["server_ram_gb"]), basis=basis,
                    verdict=t(f"report.tuning.ram.{'exceeds' if plan['host_ram_exceeded'] else 'within'}", lang))
    return t("report.tuning.layout", lang, gpus=f"{n}× {plan['gpu']}", shard=shard,
             memory=dec(plan["memory_per_gpu_gb"], lang), usable=dec(plan["usable_per_gpu_gb"], lang),
             fits=t(f"report.tuning.memory.{'fits' if plan['memory_fits'] else 'short'}", lang), offload=offload,
             hours=t("report.tuning.hours", lang, hours=dec(plan["hours_per_run"], lang))
             if plan["memory_fits"] and not plan["host_ram_exceeded"] else t("report.tuning.untimed", lang))
