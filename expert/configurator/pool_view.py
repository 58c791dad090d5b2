"""A pool of agents in plain lines for the answer (issue 12, point 5): each group with its agents,
each fine-tuned agent's run, the cost lines with the ranking objective, and the comparisons with the
best homogeneous/hybrid pools and with document 000's R3/T3 pools."""

from __future__ import annotations

from expert.configurator.explain import where_words
from expert.configurator.pool_runs import option_runs
from expert.sizing.finetune import checkpoint_gb
from expert.messages import has, t
from expert.report.numbers import dec, grouped

LANGS = ("en", "de")


def _role(role: str, lang: str) -> str:
    key = f"configurator.pool.role.{role}"
    return t(key, lang) if has(key) else role


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
    out += [_run_line(ps, run, names[run.agent], lang) for run in option_runs(ps, best)]
    tco = best.gpu_cost + best.train_monthly * months
    team = best.team_monthly * months
    out.append(t("configurator.pool.costs", lang, months=months, gpu_chf=grouped(best.gpu_cost),
                 runs_chf=grouped(best.train_monthly * months), tco_chf=grouped(tco),
                 team=f"{grouped(team)} CHF" if team else t("configurator.pool.team.none", lang),
                 objective_chf=grouped(best.objective)))
    degraded = [r for r in option_runs(ps, best) if r.where == "idle"]
    if degraded:
        out.append(t("configurator.pool.degraded", lang, months=months,
                     per_month=dec(sum(r.nights_per_month for r in degraded), lang),
                     chf=grouped(sum(r.degraded_chf_per_run * ps.ctxs[r.agent].tuning.runs_per_year * months / 12
                                     for r in degraded))))
    if comparison and "text" in comparison:
        out.append(comparison["text"][lang])
    if comparison and "document" in comparison:
        out.append(comparison["document"]["text"][lang])
    return out


def _run_line(ps, run, name: str, lang: str) -> str:
    """One fine-tuned agent's runs: the job, where they go (the group's idle nights with their degraded
    service, around the clock, or GPUs rented for the run's hours) and the checkpoint to keep."""
    ctx = ps.ctxs[run.agent]
    tune = ctx.tuning
    line = t("configurator.pool.run", lang, name=name, method=t(f"configurator.pool.method.{tune.method}", lang),
             freq=t(f"configurator.pool.freq.{tune.frequency}", lang), tokens=f"{ctx.planner().tokens / 1e6:.0f}",
             assumed=t("configurator.pool.assumed", lang) if tune.dataset_tokens is None else "",
             memory=dec(run.memory_gb, lang), hours=dec(run.hours, lang), count=run.count, gpu=run.gpu,
             where=t(f"configurator.pool.where.{run.where}", lang))
    if run.where == "idle":
        line += t("configurator.pool.nights", lang, nights=run.nights, per_month=dec(run.nights_per_month, lang),
                  chf=grouped(run.degraded_chf_per_run))
    elif run.where == "rented":
        line += t(f"configurator.pool.rented.{run.rented_because}", lang, provider=run.provider or "",
                  chf=grouped(run.rented_chf_per_run))
    _, size = checkpoint_gb(ctx.model, tune.method, ps.a)
    return line + t("configurator.pool.checkpoint", lang, size=dec(size, lang, 2))
