"""A pool of agents in plain lines for the answer (issue 12, point 5): each group with its agents,
each fine-tuned agent's run, the cost lines with the ranking objective, and the comparisons with the
best homogeneous/hybrid pools and with document 000's R3/T3 pools."""

from __future__ import annotations

from expert.configurator.training_view import FREQ_DE, METHOD_DE, dec1
from expert.numbers import grouped

ROLE_DE = {"serve+train": "Inferenz + Training", "inference": "Inferenz", "train": "nur Training"}
def pool_lines(ps, best, comparison: dict | None) -> dict[str, list[str]]:
    """The pool in plain lines: each group with its agents (precision, TP, replicas), the cost lines,
    and the homogeneous/hybrid and document comparisons."""
    months = ps.w.horizon_months
    names = [wi.name for wi in ps.ws]
    out = {"en": [], "de": []}
    for s, n, role, agents, plans in best.groups:
        who = ", ".join(f"{names[i]} ({plans[i].precision}, TP {plans[i].tp}, {plans[i].replicas}×)" for i in agents)
        out["en"].append(f"{n}× {s.gpu.id} ({s.key}), {role}: {who or 'training only'}")
        out["de"].append(f"{n}× {s.gpu.id} ({s.key}), {ROLE_DE.get(role, role)}: {who or 'nur Training'}")
    train_group = best.groups[-1] if len(best.groups) > 1 else best.groups[0]
    from expert.sizing.ft_job import layout_on
    for i in ps.tuned:
        ctx, (s, n, role, *_) = ps.ctxs[i], train_group
        t = ctx.tuning
        lay = layout_on(ctx.model, s.gpu, t.method, n, ctx.planner().tokens, t.epochs, ps.a)
        where = "idle hours" if role != "train" else "around the clock"
        where_de = "Leerlaufstunden" if role != "train" else "rund um die Uhr"
        out["en"].append(f"{names[i]}: {t.method} fine-tuning {t.frequency}, {ctx.planner().tokens / 1e6:.0f} M tokens"
                         f"{' (assumed)' if t.dataset_tokens is None else ''}, {lay.memory_per_gpu_gb:.1f} GB per GPU, "
                         f"{lay.hours:.1f} h per run on {n}× {s.gpu.id} ({where})")
        out["de"].append(f"{names[i]}: {METHOD_DE[t.method]}Fine-Tuning {FREQ_DE[t.frequency]}, "
                         f"{ctx.planner().tokens / 1e6:.0f} Mio. Tokens"
                         f"{' (angenommen)' if t.dataset_tokens is None else ''}, {dec1(lay.memory_per_gpu_gb)} GB "
                         f"pro GPU, {dec1(lay.hours)} h pro Lauf auf {n}× {s.gpu.id} ({where_de})")
    tco = best.gpu_cost + best.train_monthly * months
    team = best.team_monthly * months
    out["en"].append(f"cost lines over {months} months: pool GPUs (000 T1) {grouped(best.gpu_cost)} CHF + runs rented for "
                     f"their hours {grouped(best.train_monthly * months)} CHF = TCO {grouped(tco)} CHF; team time "
                     + (f"{grouped(team)} CHF" if team else "not counted (opt-in)")
                     + f"; ranked by TCO + team time = {grouped(best.objective)} CHF")
    out["de"].append(f"Kostenzeilen über {months} Monate: Pool-GPUs (000 T1) {grouped(best.gpu_cost)} CHF + stundenweise "
                     f"gemietete Läufe {grouped(best.train_monthly * months)} CHF = TCO {grouped(tco)} CHF; Teamzeit "
                     + (f"{grouped(team)} CHF" if team else "nicht gezählt (Opt-in)")
                     + f"; Rangfolge nach TCO + Teamzeit = {grouped(best.objective)} CHF")
    for key in ("text",):
        if comparison and key in comparison:
            out["en"].append(comparison[key]["en"])
            out["de"].append(comparison[key]["de"])
    if comparison and "document" in comparison:
        out["en"].append(comparison["document"]["text"]["en"])
        out["de"].append(comparison["document"]["text"]["de"])
    return out
