"""A pool of agents in plain lines for the answer (issue 12, point 5): each group with its agents,
each fine-tuned agent's run, the cost lines with the ranking objective, and the comparisons with the
best homogeneous/hybrid pools and with document 000's R3/T3 pools."""

from __future__ import annotations

from expert.configurator.explain import where_words
from expert.messages import has, t
from expert.report.numbers import dec, grouped

LANGS = ("en", "de")


def _role(role: str, lang: str) -> str:
    key = f"configurator.pool.role.{role}"
    return t(key, lang) if has(key) else role


def _where(run, role: str, months: int, lang: str) -> str:
    """Where an agent's runs go: around the clock (a train-only group), the serving GPUs' idle nights with
    their degraded service (nights and CHF, as a single plan's line), or GPUs rented for the run's hours."""
    if not run.here:
        return t("configurator.pool.rented", lang)
    if role == "train":
        return t("configurator.pool.around_the_clock", lang)
    return t("configurator.pool.idle_nights", lang, nights=dec(run.nights, lang, 0),
             per_month=dec(run.degraded_nights_per_month, lang), chf=grouped(run.degraded_horizon_chf), months=months)


def pool_lines(ps, best, comparison: dict | None) -> dict[str, list[str]]:
    """The pool in plain lines: each group with its agents (precision, TP, replicas), the cost lines,
    and the homogeneous/hybrid and document comparisons."""
    return {lang: _lines(ps, best, comparison, lang) for lang in LANGS}


def _lines(ps, best, comparison: dict | None, lang: str) -> list[str]:
    months = ps.w.horizon_months
    names = [wi.name for wi in ps.ws]
    out = []
    for s, n, role, agents, plans in best.groups:
        who = ", ".join(f"{names[i]} ({plans[i].precision}, TP {plans[i].tp}, {plans[i].replicas}×)" for i in agents)
        out.append(f"{n}× {s.gpu.id} ({where_words(s, lang)}), {_role(role, lang)}: "
                   f"{who or t('configurator.pool.training_only', lang)}")
    train_group = best.groups[-1] if len(best.groups) > 1 else best.groups[0]
    from expert.configurator.pool_runs import pool_run
    for i in ps.tuned:
        ctx, (s, n, role, *_) = ps.ctxs[i], train_group
        tune = ctx.tuning
        run = pool_run(ctx, s, n, role == "train", ps.a, months)  # as the search priced it (pool_runs.py)
        lay = run.layout
        where = _where(run, role, months, lang)
        out.append(t("configurator.pool.run", lang, name=names[i], method=t(f"configurator.pool.method.{tune.method}", lang),
                     freq=t(f"configurator.pool.freq.{tune.frequency}", lang),
                     tokens=f"{ctx.planner().tokens / 1e6:.0f}",
                     assumed=t("configurator.pool.assumed", lang) if tune.dataset_tokens is None else "",
                     memory=dec(lay.memory_per_gpu_gb, lang), hours=dec(lay.hours, lang), count=n, gpu=s.gpu.id,
                     where=where))
    tco = best.gpu_cost + best.train_monthly * months
    team = best.team_monthly * months
    out.append(t("configurator.pool.costs", lang, months=months, gpu_chf=grouped(best.gpu_cost),
                 runs_chf=grouped(best.train_monthly * months), tco_chf=grouped(tco),
                 team=f"{grouped(team)} CHF" if team else t("configurator.pool.team.none", lang),
                 objective_chf=grouped(best.objective)))
    if comparison and "text" in comparison:
        out.append(comparison["text"][lang])
    if comparison and "document" in comparison:
        out.append(comparison["document"]["text"][lang])
    return out
