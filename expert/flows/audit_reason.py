"""Why an audited setup that costs less than the configurator's optimum is not the optimum (issue 33).

"The optimum is the cheapest that meets the targets" is only the reason when the setup misses them. The
others, in the order the search applies them:
- `vendor`, `grade`: the workload leaves the setup's GPU out (`candidates.grade_allowed`: 000 D4/G12
  non-NVIDIA GPUs only with `allow_non_nvidia`, 000 G10/G11 no consumer or workstation GPU for critical
  production);
- `source`: the workload's deployment and budget do not admit how the setup is held (an owned setup
  against a workload that rents, `candidates.source_kinds`: the default budget `opex` rents);
- `options`: the search does not consider the setup's precision or tensor parallelism;
- `constraint`: the configurator checks the setup's own configuration (`feasibility.evaluate`) and it
  fails a constraint — memory with the growth reserve (000 M5), latency or capacity at the target
  utilisation (000 D3), availability, fine-tuning, budget: the tightest is named;
- `offer`: it passes, but the offer it is priced at is one the workload does not admit (hosting,
  marketplace; checked after the constraints: a setup may be priced at an offer elsewhere);
- `costlier`: it passes, but with the fine-tuning runs and team time the configurator adds it costs more;
- `near_tie`: it is the cheaper within the near-tie band (`near_tie_pick.py`), where fewer GPUs and the
  faster answer win;
- `pool`: a pool of agents, whose placement is not one configuration, or a closed loop of users;
- `other`: none of these (`ranked`).
"""

from __future__ import annotations

from typing import Any

from expert.catalog import Catalog
from expert.inputs.setup_file import Setup
from expert.inputs.workload import Workload


def reason(setup: Setup, w: Workload, catalog: Catalog, extra: dict[str, Any], meets: bool | None,
           objective_chf: float | None, lang: str) -> tuple[str, str]:
    """(code, the reason's words in `lang`) why the setup is not the optimum though it costs less (module
    docstring); `w` is the workload the optimum was searched for, `objective_chf` the optimum's
    configurator objective over the horizon."""
    from expert.configurator.candidates import grade_allowed, source_kinds
    from expert.messages import t

    gpu = catalog.gpus[setup.gpu]
    pooled = bool(w.agents) or (w.agent is not None and w.agent.concurrent_users is not None)
    if meets is False:  # the configurator's own check names the failed constraint where it checks one
        code, words = ("", "") if pooled else _checked(setup, w, catalog, extra, objective_chf, lang)
        return (code, words) if code == "constraint" else ("targets", t("report.optimum.why.targets", lang))
    if gpu.vendor != "NVIDIA" and not w.allow_non_nvidia:
        return "vendor", t("report.optimum.why.vendor", lang, gpu=gpu.id, vendor=gpu.vendor)
    if not grade_allowed(gpu, w):
        return "grade", t("report.optimum.why.grade", lang, gpu=gpu.id, grade=gpu.grade)
    held = ("package", "purchase") if setup.ownership == "owned" else ("cloud",)
    if not set(held) & set(source_kinds(w)):
        # the larger reason where the setup cannot hold the stated growth model the optimum is sized for
        grown = (t("report.optimum.why.growth_blocked", lang, params=f"{w.growth_params_b:g}")
                 if w.growth_params_b and extra.get("growth_fits") is False else "")
        return "source", t(f"report.optimum.why.source.{setup.ownership}", lang, deployment=w.deployment,
                           budget=w.budget) + grown
    if pooled:
        return "pool", t("report.optimum.why.other", lang)
    return _checked(setup, w, catalog, extra, objective_chf, lang)


def _checked(setup: Setup, w: Workload, catalog: Catalog, extra: dict[str, Any], objective_chf: float | None,
             lang: str) -> tuple[str, str]:
    """The reason the configurator's own check of the setup's configuration gives."""
    from expert.configurator.enumeration import context, default_assumptions
    from expert.configurator.explain import failed_text
    from expert.configurator.feasibility import evaluate
    from expert.flows.advice import shared_cache
    from expert.flows.audit_cost import setup_source
    from expert.facts.near_tie import NEAR_SHARE
    from expert.messages import t
    from expert.report.numbers import grouped

    source = setup_source(setup, catalog)
    ctx, admitted = context(w, catalog, default_assumptions(catalog), shared_cache(catalog))
    precision = extra.get("serving_precision") or w.precision or "fp16"
    tp = extra.get("tensor_parallel_used", setup.tensor_parallel)
    if source is None or precision not in ctx.precisions(source.gpu) or tp not in ctx.tp_degrees(setup.count, source):
        return "options", t("report.optimum.why.options", lang, precision=precision, tp=tp)
    c = evaluate(ctx, source, precision, tp, setup.count)
    if not c.feasible:  # the search sizes a stated growth model too; the capacity section does not
        grown = t("report.optimum.why.growth", lang, params=f"{w.growth_params_b:g}") if w.growth_params_b else ""
        return "constraint", t("report.optimum.why.constraint", lang, failed=failed_text(c)[lang]) + grown
    if source.kind == "cloud" and source not in admitted:
        return "offer", t("report.optimum.why.offer", lang, offer=source.key)
    diff = c.objective - (objective_chf if objective_chf is not None else c.objective)
    if diff > 0.005:
        # what the configurator adds: the fine-tuning runs, and team time only where the plan counts it
        # (`fine_tuning.team_waits`, QA 47 #9)
        tuning = w.most_frequent_tuning
        adds = "none" if tuning.runs_per_year <= 0 else ("team" if tuning.team_waits else "runs")
        return "costlier", t(f"report.optimum.why.costlier.{adds}", lang, diff=grouped(diff), months=ctx.months)
    if -diff <= NEAR_SHARE * c.objective:
        return "near_tie", t("report.optimum.why.near_tie", lang, saving=grouped(-diff), months=ctx.months,
                             band=round(NEAR_SHARE * 100))
    return "other", t("report.optimum.why.ranked", lang)
