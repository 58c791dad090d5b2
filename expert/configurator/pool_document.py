"""Document 000's hybrid pool (R3, T3) priced beside the pool the search found (issue 12, point 5).

R3: "L40S for production inference, A100 reserved for monthly/quarterly fine-tuning", each group of at
least two GPUs (R3: one failed GPU does not stop the service); T3 compares 2× L40S + 2× A100 80 GB
with all-A100 at the same GPU count and states a saving of 57 572 CHF over 36 months. Here both pools
are evaluated on the workload's own agents (`agents.evaluate_pool`) at the cheapest admissible L40S and
A100 80 GB sources, and the text says which pool the search chose and why, with numbers.
"""

from __future__ import annotations

from expert.configurator.explain import where_words
from expert.configurator.pool_runs import option_runs
from expert.messages import t
from expert.report.numbers import grouped

R3_MIN_GROUP = 2  # R3: 2-4 identical GPUs per group for fault tolerance


def _cheapest(sources, family: str, kind: str):
    from expert.facts.input_facts import gpu_family
    picks = [s for s in sources if s.kind == kind and gpu_family(s.gpu) == family
             and (family != "a100" or s.gpu.memory_gb >= 80)]
    return min(picks, key=lambda s: (s.rent_chf if kind == "cloud" else s.purchase_chf, s.order), default=None)


def document_pools(ps, sources, best, describe, evaluate_pool) -> dict | None:
    """R3/T3's hybrid and all-A100 pools for these agents, and a sentence comparing them with `best`
    (`evaluate_pool` is `agents.evaluate_pool`, passed in so that this module stays below `agents`)."""
    if not (ps.tuned and ps.pure) or best is None:
        return None
    kind = best.groups[0][0].kind
    if kind == "package":
        return None
    l40s, a100 = _cheapest(sources, "l40s", kind), _cheapest(sources, "a100", kind)
    if l40s is None or a100 is None:
        return None
    pg, pf = ps.bins(tuple(ps.pure), l40s), ps.bins(tuple(ps.tuned), a100)
    if pg is None or pf is None:
        return None
    ng, nf = max(R3_MIN_GROUP, pg[0]), max(R3_MIN_GROUP, pf[0])
    key = "offer"
    hybrid = evaluate_pool(ps.w, ps.catalog, [{key: l40s.key, "count": ng}, {key: a100.key, "count": nf}],
                           assumptions=ps.a, search=ps)
    homo = evaluate_pool(ps.w, ps.catalog, [{key: a100.key, "count": ng + nf}], assumptions=ps.a, search=ps)
    saving = homo["tco_chf"] - hybrid["tco_chf"]
    months = ps.w.horizon_months
    best_tco = best.gpu_cost + best.train_monthly * months
    gpus = sum(n for _, n, *_ in best.groups)
    need_gb = sum(p.memory_gb * p.tp * p.replicas for *_, agents, plans in best.groups for i, p in plans.items()
                  if i in agents)
    have_gb = sum(n * next(iter(plans.values())).limit_gb for _, n, _, _, plans in best.groups if plans)
    mem = "/".join(sorted({f"{s.gpu.memory_gb:g}" for s, *_ in best.groups}))
    cheaper = best_tco < hybrid["tco_chf"] - 0.01
    places = {"rented" if r.where == "rented" else "idle" for r in option_runs(ps, best) if r.where != "none"}
    training = "mixed" if len(places) > 1 else (places.pop() if places else "none")
    text = {}
    for lang in ("en", "de"):
        text[lang] = t("configurator.pool.document", lang, ng=ng, nf=nf, l40s=l40s.gpu.id, a100=a100.gpu.id,
                       l40s_key=where_words(l40s, lang), a100_key=where_words(a100, lang), hybrid_chf=grouped(hybrid["tco_chf"]), total=ng + nf,
                       homo_chf=grouped(homo["tco_chf"]), months=months, saving_chf=grouped(saving))
        if cheaper:
            text[lang] += t("configurator.pool.document.cheaper", lang, pool=describe(best, lang), best_chf=grouped(best_tco),
                            agents=len(ps.ws), need_gb=f"{need_gb:.0f}", have_gb=f"{have_gb:.0f}", gpus=gpus,
                            mem=mem, total=ng + nf,
                            training=t(f"configurator.pool.document.training.{training}", lang)
                            if training != "none" else "")
    return {"hybrid": hybrid, "homogeneous": homo, "saving_chf": round(saving, 2), "text": text}
