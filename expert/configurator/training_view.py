"""The fine-tuning plan of a recommendation as the answer shows it (issue 12, points 2-4): the job,
where its GPUs come from (all three options, cheapest first), full / LoRA / QLoRA side by side, and the
cost lines with the ranking objective stated. English and German lines; numbers stay structured."""

from __future__ import annotations

from expert.configurator.idle_nights import gpu_hour_chf
from expert.configurator.objective import gpu_cost
from expert.configurator.training_plan import TrainingOption, TrainingPlanner
from expert.messages import provider_name, t as msg
from expert.report.numbers import dec, grouped, number
from expert.sizing.finetune import checkpoint_gb
from expert.sizing.ft_job import FABRIC, plan_job
from expert.sizing.constants import resolve

METHODS = ("full", "lora", "qlora")
FAR_MORE = 2.0  # own threshold: "costs far more" = more than twice the LoRA run
QUALITY = {m: {lang: msg(f"configurator.training.quality.{m}", lang) for lang in ("en", "de")} for m in METHODS}
"""What each method means for quality, in both languages (the report's `methods[].quality`)."""
REASON_FIELD = {"en": "reason", "de": "reason_de"}
BILLING_SHOWN = ("en",)
"""The offer's billing term is English data: the English lines show it, the German ones not."""



def _count(noun: str, n: float, lang: str) -> str:
    """`1 epoch`, `2 epochs`, `1 Lauf`, `12 Läufe`, `1 Nacht`: the number with its noun in the right form."""
    return msg(f"configurator.training.{noun}.{'one' if n == 1 else 'other'}", lang, n=f"{n:g}")

def _size(gb: float, lang: str) -> str:
    """A checkpoint's size: two decimals below 10 GB (an adapter is a fraction of one), else whole GB."""
    return dec(gb, lang, 2) if gb < 10 else grouped(gb)


def _r(x, d=2):
    return None if x is None else round(x, d)


def option_dict(o: TrainingOption) -> dict:
    """A `TrainingOption` as plain data (rounded)."""
    return {"kind": o.kind, "fits": o.fits, "gpu": o.gpu, "gpus": o.gpus, "nodes": o.nodes, "sharding": o.sharding,
            "memory_per_gpu_gb": _r(o.memory_per_gpu_gb), "host_ram_gb": _r(o.host_ram_gb),
            "server_ram_gb": _r(o.server_ram_gb), "hours_per_run": _r(o.hours_per_run),
            "elapsed_hours_per_run": _r(o.elapsed_hours_per_run), "billed_hours_per_run": _r(o.billed_hours_per_run),
            "cost_per_run_chf": _r(o.cost_per_run_chf), "cost_horizon_chf": _r(o.cost_horizon_chf),
            "team_horizon_chf": _r(o.team_horizon_chf), "offer": o.offer, "provider": o.provider,
            "billing": o.billing, "interconnect": o.interconnect, "reason": o.reason,
            "instance_ram_gb": _r(o.instance_ram_gb), "degraded_nights_per_run": o.degraded_nights_per_run,
            "degraded_nights_per_month": _r(o.degraded_nights_per_month),
            "degraded_hours_per_run": _r(o.degraded_hours_per_run), "degraded_chf_per_run": _r(o.degraded_chf_per_run),
            "degraded_horizon_chf": _r(o.degraded_horizon_chf), "saving_per_run_chf": _r(o.saving_per_run_chf),
            "min_saving_per_run_chf": _r(o.min_saving_per_run_chf), "saving_against": o.saving_against,
            "declined": o.declined}


def option_line(o: TrainingOption, lang: str, months: int) -> str:
    """One source of the run's GPUs in one line: where, sharding, memory, hours, cost; the idle nights and
    host RAM where they apply; or why it is not possible."""
    word = msg(f"configurator.training.kind.{o.kind}", lang)
    if not o.fits:
        reason = (getattr(o, REASON_FIELD[lang]) or o.reason) or ""
        return msg("configurator.training.not_possible", lang, kind=word, reason=reason)
    where = f"{o.gpus}× {o.gpu}" + (msg("configurator.training.nodes", lang, nodes=o.nodes) if o.nodes > 1 else "")
    if o.offer:                          # the provider, never the offer id (docs/chat.md)
        where += f", {provider_name(o.provider, lang) if o.provider else o.offer}"
    sharding = "" if o.sharding == "single-gpu" else ", " + msg(f"configurator.training.sharding.{o.sharding}", lang)
    text = msg("configurator.training.option", lang, kind=word, where=where, sharding=sharding,
             memory=dec(o.memory_per_gpu_gb, lang), hours=dec(o.hours_per_run, lang),
             run_chf=grouped(o.cost_per_run_chf), horizon_chf=grouped(o.cost_horizon_chf), months=months)
    if o.kind == "serving-idle" and o.degraded_nights_per_run:
        text += _nights(o, lang)
    if o.host_ram_gb > 0:
        text += msg("configurator.training.host_ram", lang, host=grouped(o.host_ram_gb))
        if o.server_ram_gb is not None:
            text += msg("configurator.training.server_ram" + (".stated" if o.server_ram_stated else ""), lang,
                        ram=grouped(o.server_ram_gb))
        elif o.kind == "rented-per-run" or o.billing == "rented monthly":
            text += (msg("configurator.training.instance_ram", lang, ram=grouped(o.instance_ram_gb))
                     if o.instance_ram_gb is not None else msg("configurator.training.instance_ram.unknown", lang))
    if o.billed_hours_per_run is not None:
        text += msg("configurator.training.billed", lang, hours=dec(o.billed_hours_per_run, lang, 2))
    if o.interconnect:
        text += msg("configurator.training.needs", lang, fabric=FABRIC[lang])
    if o.billing and lang in BILLING_SHOWN:
        text += f"; {o.billing}"
    return text


def _nights(o: TrainingOption, lang: str) -> str:
    """The idle nights' degraded service and whether they save enough (`idle_nights.py`)."""
    text = msg("configurator.training.nights", lang, nights=_count("nights", o.degraded_nights_per_run, lang),
               per_month=dec(o.degraded_nights_per_month or 0, lang), chf=grouped(o.degraded_chf_per_run or 0))
    if o.saving_per_run_chf is not None:
        per_night = (o.min_saving_per_run_chf or 0) / o.degraded_nights_per_run
        # a negative saving: the nights cost more (their degraded service) than the other source
        key = "saves" if not o.declined else "dearer" if o.saving_per_run_chf <= -0.5 else "declined"
        text += msg("configurator.training.idle." + key, lang,
                    saving=grouped(abs(round(o.saving_per_run_chf))), minimum=grouped(o.min_saving_per_run_chf or 0),
                    other=msg(f"configurator.training.kind.{o.saving_against}", lang),
                    nights=o.degraded_nights_per_run, per_night=grouped(per_night))
    return text


def job_line(tuning, model, tokens: float, assumed: bool, lang: str) -> str:
    """`job: lora fine-tuning of 70B on 100 M tokens × 1 epoch, 12 runs a year; dataset …`."""
    return msg("configurator.training.job", lang, method=msg(f"configurator.pool.method.{tuning.method}", lang),
               params=number(model.params_b, 2, lang, group=False, trim=True), tokens=f"{tokens / 1e6:,.0f}", epochs=_count("epochs", tuning.epochs, lang),
               runs=_count("runs", tuning.runs_per_year, lang),
               dataset=msg("configurator.training.dataset." + ("assumed" if assumed else "given"), lang))


def checkpoint_line(method: str, trainable: float, ckpt_gb: float, kept: int, a, lang: str) -> str:
    """One checkpoint's size and what it holds, and the storage of the `kept` ones (`finetune.checkpoint_gb`);
    `a`: the resolved assumptions."""
    what = (msg("configurator.training.checkpoint.full", lang, bytes=f"{a.checkpoint_bytes.value:g}")
            if method == "full" else msg("configurator.training.checkpoint.adapter", lang,
                                         trainable=dec(trainable / 1e6, lang), bytes=f"{a.checkpoint_bytes.value:g}"))
    return msg("configurator.training.checkpoint", lang, size=_size(ckpt_gb, lang), what=what, kept=kept,
               storage=_size(ckpt_gb * kept, lang))


def _method_row(r: dict, lang: str) -> str:
    """One method of the side-by-side comparison."""
    name = msg(f"configurator.training.name.{r['method']}", lang)
    if not r["fits"]:
        return msg("configurator.training.row.none", lang, name=name)
    return msg("configurator.training.row", lang, name=name, gpus=r["gpus"], gpu=r["gpu"],
               memory=dec(r["memory_per_gpu_gb"], lang), hours=dec(r["hours_per_run"], lang),
               chf=grouped(r["cost_per_run_chf"]),
               source=f" ({msg('configurator.training.kind.' + r['source'], lang)})")


def methods_side_by_side(planner: TrainingPlanner, gpu, count: int, gpu_hour: float | None = None) -> list[dict]:
    """Full, LoRA and QLoRA for the same data: where each would run (`TrainingPlanner.choose`, point 4); the
    workload's own method is `planner` itself; `gpu_hour`: the serving GPUs' own cost per GPU-hour."""
    rows = []
    for m in METHODS:
        p = planner if m == planner.t.method else TrainingPlanner(
            planner.w, planner.model, planner.t.model_copy(update={"method": m}), planner.catalog, planner.a,
            planner.sources, planner.tokens)
        opts = [o for o in p.options_for(gpu, count, gpu_hour) if o.fits and not o.declined]
        best = opts[0] if opts else None
        rows.append({"method": m, "fits": best is not None, "source": best and best.kind,
                     "gpu": best and best.gpu, "gpus": best and best.gpus, "nodes": best and best.nodes,
                     "memory_per_gpu_gb": best and _r(best.memory_per_gpu_gb),
                     "hours_per_run": best and _r(best.hours_per_run),
                     "cost_per_run_chf": best and _r(best.cost_per_run_chf), "quality": QUALITY[m]})
    return rows


def training_plan(ctx, cand) -> dict | None:
    """The plan of the recommended candidate `cand` (None without fine-tuning)."""
    if not ctx.tuned or cand is None:
        return None
    planner = ctx.planner()
    t, w, months = ctx.tuning, ctx.w, ctx.months
    gpu_hour = gpu_hour_chf(gpu_cost(cand.source, cand.count, months, ctx.a), cand.count, months, ctx.a)
    options = planner.options_for(cand.source.gpu, cand.count, gpu_hour)
    chosen = cand.ft_option
    a = resolve(ctx.a)
    assumed = t.dataset_tokens is None
    src = a.default_dataset_tokens
    ds = ("given in the workload" if not assumed else
          f"assumption {src.value / 1e6:.0f} M tokens (band {src.low / 1e6:.0f}-{src.high / 1e6:.0f} M): {src.source}; "
          f"{src.note}")
    methods = methods_side_by_side(planner, cand.source.gpu, cand.count, gpu_hour)
    full = next(r for r in methods if r["method"] == "full")
    lora = next(r for r in methods if r["method"] == "lora")
    on_serving = plan_job(ctx.model, cand.source.gpu, "full", planner.tokens, t.epochs, a=ctx.a).layout
    multi = on_serving is None or on_serving.nodes > 1 or bool(full["fits"] and (full["nodes"] or 1) > 1)
    far = bool(full["fits"] and lora["fits"] and (lora["cost_per_run_chf"] or 0) > 0
               and full["cost_per_run_chf"] > FAR_MORE * lora["cost_per_run_chf"])
    compare = t.method == "full" and (multi or far or not full["fits"])
    gpu_tco = cand.gpu_cost
    train = cand.train_monthly * months
    team = cand.team_monthly * months
    idle = chosen if chosen is not None and chosen.kind == "serving-idle" and chosen.fits else None
    degraded = idle.degraded_horizon_chf if idle is not None else 0.0
    trainable, ckpt = checkpoint_gb(ctx.model, t.method, ctx.a)
    kept = int(a.checkpoints_kept.value)
    lines = {}
    for lang in ("en", "de"):
        lines[lang] = [job_line(t, ctx.model, planner.tokens, assumed, lang)]
        for o in options:
            mark = "→ " if chosen is not None and o.kind == chosen.kind and o.fits else ""
            lines[lang].append(mark + option_line(o, lang, months))
        if compare:
            why = msg("configurator.training.compare." + ("multi" if multi else "far" if far else "none"), lang,
                      gpu=cand.source.gpu.id)
            lines[lang].append(msg("configurator.training.compare", lang, why=why,
                                   rows="; ".join(_method_row(r, lang) for r in methods)))
        lines[lang].append(msg("configurator.training.costs", lang, months=months, gpu_chf=grouped(gpu_tco),
                               train_chf=grouped(train), tco_chf=grouped(gpu_tco + train),
                               team=f"{grouped(team)} CHF" if team else msg("configurator.training.team.none", lang),
                               objective_chf=grouped(cand.objective)))
        if idle is not None:
            lines[lang].append(msg("configurator.training.degraded", lang, months=months, chf=grouped(degraded),
                                   per_month=dec(idle.degraded_nights_per_month or 0, lang)))
        lines[lang].append(checkpoint_line(t.method, trainable, ckpt, kept, a, lang))
    return {"method": t.method, "dataset_tokens": planner.tokens, "dataset_assumed": assumed, "dataset_source": ds,
            "epochs": t.epochs, "runs_per_year": t.runs_per_year,
            "chosen": None if chosen is None else chosen.kind,
            "options": [option_dict(o) for o in options], "methods": methods, "methods_compared": compare,
            "checkpoint_gb": round(ckpt, 3), "checkpoints_kept": kept, "checkpoint_storage_gb": round(ckpt * kept, 3),
            "cost_lines": {"gpu_tco_chf": round(gpu_tco, 2), "training_chf": round(train, 2),
                           "team_chf": round(team, 2), "tco_chf": round(gpu_tco + train, 2),
                           "degraded_service_chf": round(degraded, 2),
                           "objective_chf": round(cand.objective, 2),
                           "objective": "TCO (serving GPUs + fine-tuning GPUs) + team time (opt-in)"},
            "lines": lines}
