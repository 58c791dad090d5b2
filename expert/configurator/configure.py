"""The configurator's entry point, `search()`: one enumeration (`enumeration.py`) plus everything built on
it — the run's notes, the documents' own pick (`document.py`), the sensitivity sub-searches
(`sensitivity.py`), the precision beside the pick (`quantised.py`) and multi-agent pools (`agents.py`).

It sits above those modules: they use the enumeration helpers of `enumeration.py`, and only this module
imports them all, so the configurator's imports point one way.
"""

from __future__ import annotations

from expert.catalog.loader import Catalog
from expert.configurator.near_tie_pick import near_tie_pick, note as near_tie_note
from expert.configurator import explain, quantised
from expert.configurator.candidates import Source, source_kinds
from expert.configurator.document import document_view
from expert.configurator.feasibility import Candidate, Context
from expert.configurator.models import SearchResult
from expert.configurator.enumeration import alternatives, as_workload, default_assumptions, run, to_choice
from expert.configurator.sensitivity import sensitivity as sens
from expert.messages import LANGS, t
from expert.report.numbers import grouped
from expert.sizing.buyrent import MIN_BUY_MONTHS
from expert.sizing.constants import Assumptions
from expert.inputs.workload import Workload


def _notes(w: Workload, ctx: Context, sources: list[Source]) -> list[str]:
    """Plain notes on how the workload's options shaped the search."""
    notes = []
    if w.deployment == "cloud" and w.budget == "capex":
        notes.append("deployment 'cloud' with budget 'capex': cloud GPUs are rented, so only rent is compared")
    if w.deployment == "on_premise" and w.budget == "opex":
        notes.append("deployment 'on_premise' with budget 'opex': on-premise hardware is bought, so packages "
                     "and purchases are compared")
    if w.context > ctx.model.max_context:
        notes.append(f"context {w.context} capped at the model's maximum {ctx.model.max_context}")
    if any(s.kind != "cloud" for s in sources):
        notes.append("bought hardware is priced as complete systems (GPUs + chassis, CPUs, RAM 1:4, NVMe, "
                     "NICs; `gpu-expert catalog packages`); server lines without a public price are ranges "
                     "to be replaced by a quote; build, setup, commissioning and operation are listed "
                     "separately")
    if w.deployment == "any" and w.budget != "opex" and w.horizon_months < MIN_BUY_MONTHS:
        notes.append(f"horizon {w.horizon_months} months: renting only, since 000 T5 prefers renting under "
                     f"{MIN_BUY_MONTHS} months")
    return notes


def search(workload, catalog: Catalog, assumptions: Assumptions | None = None, *,
           sensitivity: bool = True, detail: bool = True, _shared: dict | None = None) -> SearchResult:
    """The cheapest configuration that fits, ranked alternatives, Pareto front, sensitivity and the
    documents' own pick. Never raises for an impossible workload: `nothing_fits` says why.

    `detail=False` (the advice's choice): the same answer without the Pareto front, found in order of
    cost (`ordered.py`), so `evaluated` counts the candidates checked and `feasible` the groups that
    have a feasible one."""
    w = as_workload(workload)
    a = assumptions or default_assumptions(catalog)
    if w.agents:
        from expert.configurator.agents import search_agents  # pools only: not imported for one model

        return search_agents(w, catalog, a)
    shared = {} if _shared is None else _shared
    ctx, out, sources = run(w, catalog, a, shared, detail=detail)
    result = SearchResult(evaluated=out.evaluated, feasible=len(out.feasible), notes=_notes(w, ctx, sources))
    cheapest = out.best
    tie = near_tie_pick(cheapest, list(out.group_best.values()))
    if tie is not None:  # within the near-tie band fewer GPUs and the faster answer win (near_tie_pick.py)
        out.best = tie
        result.near_tie = near_tie_note(tie, cheapest, ctx.months)
    if out.best is not None:
        result.recommendation = to_choice(out.best, ctx)
        if ctx.agent is not None:
            from expert.configurator.agent_report import figures, offload_optimum
            result.agent = figures(ctx, out.best, offload_optimum(w, catalog, a, shared, ctx, run))
        from expert.configurator.training_view import training_plan
        result.training_plan = training_plan(ctx, out.best)
    else:
        if not sources:
            kinds = ", ".join(source_kinds(w))
            reason = {lang: t("configurator.no_source", lang, kinds=kinds, hosting=w.hosting) for lang in LANGS}
            result.nothing_fits = explain.nothing_fits_text(None, reason)
        else:
            from expert.configurator.count_limit import beyond_limit
            result.nothing_fits = explain.nothing_fits_text(out.closest, limit=beyond_limit(ctx, sources))
            if out.closest is not None:
                result.tightest_constraint = max(out.closest.violations, key=lambda v: v.ratio).kind
                _lora_instead(w, catalog, a, shared, out.closest, result)
    result.alternatives = alternatives(out, ctx)
    result.quantised = quantised.options(w, catalog, a, shared, out.best)
    asked, result.unquantised = quantised.baseline(w, catalog, a, shared, out.best)
    result.unquantised_fits = (result.unquantised is not None) if asked else None
    if detail:
        result.pareto = explain.pareto(out.feasible)
    result.document = document_view(w, catalog, a, ctx, out)
    if sensitivity:
        result.sensitivity, result.sensitivity_details = sens(w, catalog, a, out, shared)
    return result


def _lora_instead(w: Workload, catalog: Catalog, a: Assumptions, shared: dict, closest: Candidate,
                  result: SearchResult) -> None:
    """When a full fine-tune has no GPUs (issue 12: never a dead end), say what LoRA would take."""
    if w.tuning.method != "full" or not any(v.kind == "ft_plan" for v in closest.violations):
        return
    lora = w.model_copy(update={"fine_tuning": w.tuning.model_copy(update={"method": "lora"})})
    alt = search(lora, catalog, a, sensitivity=False, detail=False, _shared=shared).recommendation
    if alt is None:
        return
    where = f"{alt.count}× {alt.gpu} ({alt.offer or alt.package}, {alt.precision}), {grouped(alt.tco_chf)} CHF"
    result.nothing_fits = {lang: result.nothing_fits[lang] + t("configurator.lora_instead", lang, where=where,
                                                                months=alt.horizon_months, runs=alt.training_source)
                           for lang in LANGS}
