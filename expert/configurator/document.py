"""The documents' own pick for a workload, read from the rules, and whether the cost optimum agrees.

The guidance itself lives in one place, `rules/document-pick.yaml`: its rules derive exactly one
`document_pick` fact {family, multi_gpu, at_least} from the workload. This module only computes the
numbers U2's trade-off compares (sizing core and catalog: no thresholds), evaluates the built-in
rules on them, renders the firing rule's title and source as the pick's text, and compares the pick
with the configurator's cost optimum.
"""

from __future__ import annotations

from typing import Any

from expert.catalog.loader import Catalog
from expert.configurator.models import DocumentView
from expert.facts.input_facts import gpu_family
from expert.engine.rule_base import SEPARATE_PACKS
from expert.messages import t
from expert.sizing.constants import Assumptions
from expert.inputs.workload import Workload

H100_SPEEDUP = 2.8  # 000 G4 / U2: "um den Faktor 2,8" faster fine-tuning on the H100
AT_LEAST_A100 = {"a100", "h100", "h200", "b200"}  # 000 M2: "mindestens eine A100"
NAMES = {"l40s": "L40S", "a100": "A100 80 GB", "h100": "H100"}
CRITICAL_RULE = "g11-consumer-gpu-in-critical-production"  # its source is cited for critical workloads


def _swiss_monthly(catalog: Catalog, gpu_prefix: str, a: Assumptions) -> float | None:
    """000 T1's monthly cost of the document's Swiss provider: rent × (1 + infrastructure) + energy."""
    from expert.configurator.candidates import offer_energy_tdp
    for offer in catalog.offers.values():
        if offer.country == "CH" and offer.gpu.startswith(gpu_prefix):
            gpu = catalog.gpus[offer.gpu]
            rent = catalog.to_chf(offer.monthly.amount.mid, offer.monthly.currency)
            energy = offer_energy_tdp(offer, gpu) / 1000 * a.cooling_factor.value * a.hours_per_month.value \
                * a.electricity_chf_per_kwh.value
            return rent * (1 + a.infrastructure_share.value) + energy
    return None


def u2_facts(w: Workload, catalog: Catalog, a: Assumptions, model) -> list[dict[str, Any]]:
    """The raw numbers of U2's trade-off for a fine-tuned workload (empty without fine-tuning):
    `u2_saving` (team CHF a month the H100's 2.8× saves) and `h100_premium` (CHF a month)."""
    t = w.most_frequent_tuning  # as the workload fact counts it: a pool is as tuned as its most-tuned agent
    if not t.enabled or model is None:
        return []
    return _u2_facts(w, t, catalog, a, model)


def _u2_facts(w: Workload, t, catalog: Catalog, a: Assumptions, model) -> list[dict[str, Any]]:
    from expert.sizing.ft_run import job_run
    a100 = catalog.gpus.get("a100-80gb-pcie") or catalog.gpus.get("a100-80gb-sxm")
    h, x = _swiss_monthly(catalog, "h100", a), _swiss_monthly(catalog, "a100-80gb", a)
    if a100 is None or h is None or x is None:
        return []
    hours = job_run(model, a100, 1, t.method, t.dataset_tokens, t.epochs, assumptions=a).hours
    month = hours * t.runs_per_year / 12
    return [{"t": "u2_saving", "chf_month": month * (1 - 1 / H100_SPEEDUP) * w.team_hourly_rate_chf,
             "a100_hours_month": month},
            {"t": "h100_premium", "chf_month": h - x}]


def document_pick(w: Workload, catalog: Catalog, a: Assumptions, model) -> tuple[dict, dict, list[str]]:
    """(document_pick fact, text {en, de}, sections) from the built-in rules."""
    from expert.engine import evaluate
    from expert.engine.templates import render
    from expert.facts.input_facts import workload_fact
    from expert.engine.rule_base import rule_base

    base = rule_base()
    facts = [workload_fact(w, model), *u2_facts(w, catalog, a, model)]
    evaluation = evaluate(_pick_rules(base), facts)
    picks = [(f, d) for f in evaluation.fired for d in f.derived if d["t"] == "document_pick"]
    if len(picks) != 1:  # the partition test (tests/rules/test_document_pick.py) keeps this at one
        raise ValueError(f"expected one document_pick, the rules derived {len(picks)}")
    firing, pick = picks[0]
    rule = base.rules[firing.rule_id].rule
    sections = [_cite(rule)]
    if w.critical and CRITICAL_RULE in base.rules:
        sections.append(_cite(base.rules[CRITICAL_RULE].rule))
    text = {lang: render(getattr(rule.title, lang), firing.matched, lang) for lang in ("en", "de")}
    return pick, text, sections


PICK_PACK = SEPARATE_PACKS[0]


def _pick_rules(base):
    """The rule base of the document-pick pack alone (`RuleBase.only`: made with `base`, kept in its
    compiled cache). Its rules test only input facts (workload, u2_saving, h100_premium; the one `not`
    too), which no other pack derives, so they fire alone exactly as among all 160-odd rules, at a
    fraction of the engine's work."""
    return base.only(PICK_PACK)  # its rules as `base` compiled them


def _cite(rule) -> str:
    """`000 "<subsection>" (claims)`: the heading under the chapter, as the documents write it."""
    parts = rule.source.section.split(" / ")
    return f'{rule.source.document} "{parts[1] if len(parts) > 1 else parts[0]}" ({rule.source.claim})'


def document_recommendation(workload, lang: str = "en", catalog: Catalog | None = None) -> str:
    """The documents' own pick for a workload, with its section (text)."""
    from expert.inputs.pools import pooled_view, primary_model
    from expert.catalog.loader import load_catalog
    from expert.configurator.enumeration import as_workload, default_assumptions
    w = as_workload(workload)
    catalog = catalog or load_catalog()
    model = primary_model(w, catalog)
    _, text, sections = document_pick(pooled_view(w, model), catalog, default_assumptions(catalog), model)
    return f"{text[lang]} — {'; '.join(sections)}"


def shown_peak(ctx, lang: str) -> str:
    """The search's peak as the report's sections write it: from the report's rounded figure
    (`report.build.DECIMALS`), so 1.53503 steps/s reads 1.53 here as in the capacity section, not 1.54
    (QA 45 #11)."""
    from expert.report.build import DECIMALS
    from expert.report.numbers import dec

    return dec(round(ctx.peak_rps, DECIMALS), lang, 2)


def meets_reason(ctx, c) -> dict[str, str] | None:
    """The cost optimum's own latencies at the peak against the targets (why a cheaper GPU suffices)."""
    from expert.inputs.slo import SLO_TOLERANCE
    from expert.report.numbers import dec

    if c.ttft is None or c.tpot is None:
        return None
    slo = ctx.slo
    checks = [("ttft", c.ttft, slo.ttft_s, 2), ("tpot", c.tpot * 1000, slo.tpot_ms, 1),
              ("e2e", c.latency, slo.e2e_s, 2)]
    def part(lang, key, value, target, digits):
        # "≤" only where it holds as printed; a value inside the tolerance says so
        shown, limit = dec(value, lang, digits), dec(target, lang, digits)
        if round(value, digits) <= round(target, digits):
            return t(f"configurator.compare.meets.{key}", lang, value=shown, target=limit)
        return t(f"configurator.compare.within.{key}", lang, value=shown, target=limit,
                 pct=round(SLO_TOLERANCE * 100))

    return {lang: t("configurator.compare.meets", lang, count=c.count, gpu=c.source.gpu.id,
                    peak=shown_peak(ctx, lang),  # an agent loop is sized in LLM steps (QA 45 nit)
                    unit=t("report.unit.steps/s" if ctx.agent is not None else "report.unit.req/s", lang),
                    parts=", ".join(part(lang, *check) for check in checks if check[2] is not None))
            for lang in ("en", "de")}


def physical_reason(ctx, c) -> dict[str, str] | None:
    """Why the documents' family needs what it needs, in numbers: one replica's serving capacity within
    the latency targets (token level, `operating.capacity_rps`) against the peak load."""
    from expert.configurator.operating import capacity_rps

    prof = ctx.profile(c.source.gpu, c.precision, c.tp, c.source.column)
    if min(prof.seq_mem, prof.seq_lat) < 1 or ctx.peak_rps <= 0:
        return None
    one = capacity_rps(prof, 1, 0.0, ctx.util, ctx.t_inf)
    if one <= 0:
        return None
    from expert.report.numbers import dec

    tp = f"{c.tp}× " if c.tp > 1 else ""
    return {lang: t("configurator.compare.physical", lang, tp=tp, gpu=c.source.gpu.id, precision=c.precision,
                    one=dec(one, lang, 2), util=round(ctx.util * 100), prefill=dec(prof.prefill_1, lang, 3),
                    tpot=round(prof.tpot(1) * 1000), peak=shown_peak(ctx, lang))
            for lang in ("en", "de")}


def _cannot_run(w: Workload, catalog: Catalog, family: str) -> bool:
    """A kept precision no GPU of the family serves (`candidates.supports`; issue 22)."""
    from expert.configurator.candidates import supports

    return not w.precision_open and not any(supports(g, w.precision) for g in catalog.gpus.values()
                                            if gpu_family(g) == family)


def document_view(w: Workload, catalog: Catalog, a: Assumptions, ctx, out) -> DocumentView:
    """The documents' pick and its comparison with the cost optimum (both shown when they differ)."""
    from expert.configurator.explain import label
    from expert.configurator.enumeration import family_best
    from expert.report.numbers import grouped
    pick, text, sections = document_pick(w, catalog, a, ctx.model)
    family, multi = pick["family"], pick["multi_gpu"]
    full = {lang: f"{text[lang]} — {'; '.join(sections)}" for lang in ("en", "de")}
    view = DocumentView(family=family, multi_gpu=multi, text=full, sections=sections)
    best = out.best
    if best is None:
        return view
    accepted = {family} | (AT_LEAST_A100 if pick.get("at_least") else set())
    view.agrees = gpu_family(best.source.gpu) in accepted and (not multi or best.count > 1)
    if view.agrees:
        view.comparison = {lang: t("configurator.compare.agrees", lang, best=label(best, lang))
                           for lang in ("en", "de")}
        return _with_moe_note(view, ctx, best)
    theirs = family_best(out, family)
    name = NAMES.get(family, family)
    if theirs is None:
        key = "configurator.compare.none_fits"
        if _cannot_run(w, catalog, family):
            key = "configurator.compare.no_precision"
        view.comparison = {lang: t(key, lang, name=name, best=label(best, lang), precision=w.precision,
                                   best_chf=grouped(best.objective)) for lang in ("en", "de")}
        near = [c for c in out.group_closest.values() if gpu_family(c.source.gpu) == family]
        if near:  # the physical reason: what the closest configuration of the documents' family misses
            from expert.configurator.explain import failed_text
            c = min(near, key=lambda c: c.closeness)
            miss = failed_text(c)
            view.comparison = {lang: t("configurator.compare.closest", lang, comparison=view.comparison[lang],
                                       closest=label(c, lang), miss=miss[lang]) for lang in ("en", "de")}
    else:
        diff = theirs.objective - best.objective
        key = "configurator.compare.costlier" if diff >= 0 else "configurator.compare.costlier_tie"  # a near tie's pick
        if theirs is best:  # the documents' family, but they call for several GPUs and one suffices
            key = "configurator.compare.one_suffices"
        view.comparison = {lang: t(key, lang, name=name, theirs=label(theirs, lang),
                                   theirs_chf=grouped(theirs.objective), months=ctx.months, best=label(best, lang),
                                   best_chf=grouped(best.objective), diff_chf=grouped(abs(diff)))
                           for lang in ("en", "de")}
        reason = physical_reason(ctx, theirs) if theirs.count > best.count else meets_reason(ctx, best)
        if reason:
            view.comparison = {lang: f"{view.comparison[lang]}; {reason[lang]}" for lang in ("en", "de")}
    view.text = {lang: f"{view.text[lang]}. {view.comparison[lang][:1].upper()}{view.comparison[lang][1:]}"
                 for lang in ("en", "de")}
    return _with_moe_note(view, ctx, best)


def _with_moe_note(view: DocumentView, ctx, best) -> DocumentView:
    """The view with the MoE sizing note (`moe_note`) after its text, for an MoE model."""
    from expert.configurator.moe_note import moe_note
    note = moe_note(ctx.model, best.precision, ctx.a)
    if note:
        view.text = {lang: f"{view.text[lang]}. {note[lang][:1].upper()}{note[lang][1:]}" for lang in ("en", "de")}
    return view
