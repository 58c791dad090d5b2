"""The documents' own pick for a workload, with its section, and whether the cost optimum agrees.

Rules, first match wins (document 000, sections by their German headings):

1. ≥ 70B (U3, "Komplexer multimodaler Agent (Modell ab 70B)"): multi-GPU is mandatory; fine-tuning
   monthly or more often → H100 (U3: 15 → 5 days; G5); otherwise → multi-A100 ("pure inference
   under budget pressure: multi-A100 is the best compromise"). G5's "> 40B → H100" is noted as the
   documents' own tension with U3.
2. latency target < 0.5 s → H100 (G5).
3. > 40B → H100 (G5).
4. > 13B up to 34B with fine-tuning (U2, "Analytischer Agent (Modell 13-34B)"): A100 80 GB, H100
   when the fine-tuning hours it saves × the team rate exceed its monthly premium (U2's formula:
   saved = A100 hours per month × (1 − 1/2.8), premium = difference of the Swiss provider's monthly
   T1 cost: rent × 1.15 + energy).
5. fine-tuning monthly or weekly (more often than quarterly) → at least A100 (M2).
6. ≤ 20B (U1 7-13B, G7 "excels at pure inference of 7-20B"): quarterly retraining → A100 (U1
   "regularly retrained"); pure inference or yearly → L40S.
7. otherwise (20-34B pure inference or rare tuning) → A100 80 GB (G2: reference for 7-34B).
Always (G11): no consumer GPU for critical production.
"""

from __future__ import annotations

from expert.catalog.loader import Catalog
from expert.configurator.models import DocumentView
from expert.facts import gpu_family
from expert.sizing.constants import Assumptions
from expert.workload import Workload

S_U1 = '000 "Konversationeller RAG-Agent (Modell 7-13B)" (U1)'
S_U2 = '000 "Analytischer Agent (Modell 13-34B)" (U2)'
S_U3 = '000 "Komplexer multimodaler Agent (Modell ab 70B)" (U3)'
S_G5 = '000 "NVIDIA H100: rohe Leistung für intensive Lasten" (G5)'
S_G7 = '000 "NVIDIA L40S: die auf Inferenz optimierte Alternative" (G7)'
S_G2 = '000 "NVIDIA A100, die vielseitige Referenz-GPU" (G2)'
S_M2 = '000 "Fehler 2: den Fine-Tuning-Bedarf unterschätzen" (M2)'
S_G11 = '000 "Consumer-GPUs der RTX-40-Reihe" (G11)'
H100_SPEEDUP = 2.8  # 000 G4 / U2
FREQUENT = ("monthly", "weekly")
AT_LEAST_A100 = {"a100", "h100", "h200", "b200"}  # M2: "at least an A100"
NAMES = {"l40s": "L40S", "a100": "A100 80 GB", "h100": "H100"}
def _swiss_monthly(catalog: Catalog, gpu_prefix: str, a: Assumptions) -> float | None:
    from expert.configurator.candidates import offer_energy_tdp
    for offer in catalog.offers.values():
        if offer.country == "CH" and offer.gpu.startswith(gpu_prefix):
            gpu = catalog.gpus[offer.gpu]
            rent = catalog.to_chf(offer.monthly.amount.mid, offer.monthly.currency)
            energy = offer_energy_tdp(offer, gpu) / 1000 * a.cooling_factor.value * a.hours_per_month.value \
                * a.electricity_chf_per_kwh.value
            return rent * (1 + a.infrastructure_share.value) + energy
    return None


def u2_h100_pays(w: Workload, catalog: Catalog, a: Assumptions, model) -> tuple[bool, float, float]:
    """U2's rule: (H100 pays, team CHF saved per month, H100 monthly premium)."""
    from expert.sizing.training import finetune_run
    t = w.tuning
    a100 = catalog.gpus.get("a100-80gb-pcie") or catalog.gpus.get("a100-80gb-sxm")
    hours = finetune_run(model, a100, 1, t.method, t.dataset_tokens, t.epochs, assumptions=a).hours
    saved = hours * t.runs_per_year / 12 * (1 - 1 / H100_SPEEDUP) * w.team_hourly_rate_chf
    h, x = _swiss_monthly(catalog, "h100", a), _swiss_monthly(catalog, "a100-80gb", a)
    premium = (h - x) if h is not None and x is not None else float("inf")
    return saved > premium, saved, premium


def document_pick(w: Workload, catalog: Catalog, a: Assumptions, model) -> tuple[str, bool, dict, list[str]]:
    """(family, multi_gpu, text {en, de}, sections) — the rules of the module docstring."""
    p = model.params_b
    t = w.tuning
    freq = t.frequency
    if p >= 70:
        if freq in FREQUENT:
            return "h100", True, {
                "en": "multi-GPU H100: monthly retraining of a 70B+ model (H100 cuts the run from 15 to 5 days)",
                "de": "Multi-GPU H100: monatliches Nachtrainieren eines 70B+-Modells (H100 verkürzt den Lauf "
                      "von 15 auf 5 Tage)"}, [S_U3, S_G5]
        return "a100", True, {
            "en": "multi-GPU A100: 70B+ needs several GPUs; for pure inference under budget pressure multi-A100 "
                  "is the best compromise (G5's '> 40B → H100' points the other way)",
            "de": "Multi-GPU A100: 70B+ braucht mehrere GPUs; für reine Inferenz unter Budgetdruck ist "
                  "Multi-A100 der beste Kompromiss (G5 '> 40B → H100' weist in die andere Richtung)"}, [S_U3, S_G5]
    if w.latency_target_s is not None and w.latency_target_s < 0.5:
        return "h100", False, {"en": "H100: latency target under 500 ms",
                               "de": "H100: Latenzziel unter 500 ms"}, [S_G5]
    if p > 40:
        return "h100", p * 2 > 80, {"en": "H100: model above 40B parameters",
                                    "de": "H100: Modell über 40 Mrd. Parameter"}, [S_G5]
    if 13 < p <= 34 and t.enabled:
        pays, saved, premium = u2_h100_pays(w, catalog, a, model)
        nums_en = f"saved fine-tuning time {saved:,.0f} CHF/month vs H100 premium {premium:,.0f} CHF/month"
        nums_de = f"eingesparte Fine-Tuning-Zeit {saved:,.0f} CHF/Monat gegenüber H100-Aufpreis {premium:,.0f} CHF/Monat"
        if pays:
            return "h100", False, {"en": f"H100: {nums_en}", "de": f"H100: {nums_de}"}, [S_U2, S_G5]
        return "a100", False, {"en": f"A100 80 GB: {nums_en}", "de": f"A100 80 GB: {nums_de}"}, [S_U2]
    if freq in FREQUENT:
        return "a100", False, {"en": "at least A100: fine-tuning more often than quarterly",
                               "de": "mindestens A100: Fine-Tuning häufiger als vierteljährlich"}, [S_M2, S_U1]
    if p <= 20:
        if freq == "quarterly":
            return "a100", False, {"en": "A100 80 GB: the model is regularly retrained on domain data",
                                   "de": "A100 80 GB: das Modell wird regelmässig auf Domänendaten nachtrainiert"}, [S_U1]
        return "l40s", False, {"en": "L40S: pure inference of a 7-20B model (excellent TCO)",
                               "de": "L40S: reine Inferenz eines 7-20B-Modells (ausgezeichnete TCO)"}, [S_U1, S_G7]
    return "a100", False, {"en": "A100 80 GB: the reference for 7-34B models",
                           "de": "A100 80 GB: die Referenz für 7-34B-Modelle"}, [S_G2]


def document_recommendation(workload, lang: str = "en", catalog: Catalog | None = None) -> str:
    """The documents' own pick for a workload, with its section (brief API: returns text)."""
    from expert.catalog.loader import load_catalog
    from expert.configurator.search import as_workload, default_assumptions, resolve_model
    w = as_workload(workload)
    catalog = catalog or load_catalog()
    model = resolve_model(w, catalog) if not w.agents else None
    if model is None:
        return "multi-agent workload: see 000 U4 / R3 (homogeneous pool or L40S + A100 hybrid)"
    family, multi, text, sections = document_pick(w, catalog, default_assumptions(catalog), model)
    return f"{text[lang]} — {'; '.join(sections)}"


def document_view(w: Workload, catalog: Catalog, a: Assumptions, ctx, out) -> DocumentView:
    """The documents' pick and its comparison with the cost optimum (both shown when they differ)."""
    from expert.configurator.explain import label
    from expert.numbers import grouped
    from expert.configurator.search import family_best
    family, multi, text, sections = document_pick(w, catalog, a, ctx.model)
    if w.critical:
        sections = sections + [S_G11]
    full = {lang: f"{text[lang]} — {'; '.join(sections)}" for lang in ("en", "de")}
    view = DocumentView(family=family, multi_gpu=multi, text=full, sections=sections)
    best = out.best
    if best is None:
        return view
    accepted = {family} | (AT_LEAST_A100 if S_M2 in sections and family == "a100" else set())
    view.agrees = gpu_family(best.source.gpu) in accepted and (not multi or best.count > 1)
    if view.agrees:
        view.comparison = {"en": f"the cost optimum ({label(best)}) agrees with the documents",
                           "de": f"das Kostenoptimum ({label(best, 'de')}) stimmt mit den Dokumenten überein"}
        return view
    theirs = family_best(out, family)
    name = NAMES.get(family, family)
    if theirs is None:
        view.comparison = {
            "en": f"the documents pick {name}, but no {name} configuration fits this workload here; "
                  f"the cost optimum is {label(best)} at {grouped(best.objective)} CHF",
            "de": f"die Dokumente wählen {name}, aber keine {name}-Konfiguration passt hier; das Kostenoptimum "
                  f"ist {label(best, 'de')} für {grouped(best.objective)} CHF"}
    else:
        diff = theirs.objective - best.objective
        view.comparison = {
            "en": f"the documents pick {name} ({label(theirs)}, {grouped(theirs.objective)} CHF over {ctx.months} "
                  f"months); the cost optimum is {label(best)} at {grouped(best.objective)} CHF, "
                  f"{grouped(diff)} CHF less",
            "de": f"die Dokumente wählen {name} ({label(theirs, 'de')}, {grouped(theirs.objective)} CHF über {ctx.months} "
                  f"Monate); das Kostenoptimum ist {label(best, 'de')} für {grouped(best.objective)} CHF, "
                  f"{grouped(diff)} CHF weniger"}
    view.text = {lang: f"{view.text[lang]}. {view.comparison[lang][:1].upper()}{view.comparison[lang][1:]}"
                 for lang in ("en", "de")}
    return view
