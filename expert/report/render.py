"""Rendering a report as plain text, Markdown or byte-stable JSON."""

from __future__ import annotations

from expert._plumbing.fileio import dumps_json
from expert.report.numbers import chf, dec, rate
from expert.messages import has as has_msg, provider_name, t as msg, value_word
from expert.report.capacity_lines import capacity_lines
from expert.report.memory_line import copies_part, per_gpu_part
from expert.report.models import Choice, Report

class _Labels:
    """`labels["memory"]`: the report's words in one language, from the message catalog."""

    def __init__(self, lang: str) -> None:
        self.lang = lang

    def __getitem__(self, key: str) -> str:
        return msg(f"report.{key}", self.lang)


def render(report: Report, fmt: str) -> str:
    """The report in `fmt` (text | markdown | json)."""
    if fmt == "json":
        return dumps_json(report.model_dump(mode="json"))
    return _document(report, markdown=(fmt == "markdown"))


def purchase_words(choice: Choice, lang: str) -> str | None:
    """`purchase, used` (or `, new`, `, refurbished`) for a bought configuration whose offer key names its
    condition (`purchase:<gpu>:<condition>`, issue 33); None otherwise."""
    if choice.source != "purchase" or not choice.offer or choice.offer.count(":") != 2:
        return None
    key = f"configurator.purchase.{choice.offer.rsplit(':', 1)[1]}"
    return msg(key, lang) if has_msg(key) else None


def place(choice: Choice, where: str | None, lang: str) -> str:
    """`RunPod, US`, or for an audited setup priced at an offer elsewhere `US; priced at Hikube, CH` (the
    offer's country left out where unknown); an audited setup the catalog does not price (`where` None):
    its country only, or ""."""
    if not where:
        return choice.country or ""
    if not choice.priced_elsewhere:
        return f"{where}{', ' + choice.country if choice.country else ''}"
    priced = msg("report.priced_at", lang, where=where + (", " + choice.price_country if choice.price_country else ""))
    return f"{choice.country}; {priced}" if choice.country else priced


def precisions(choice: Choice) -> str:
    """The choice's precision as written: a pool's mixed precisions "fp16/fp8" (the JSON's "fp16,fp8")."""
    return choice.precision.replace(",", "/")


def choice_line(choice: Choice, lang: str, pool: bool = False) -> str:
    """One line describing a configuration; `pool`: a pool of agents (its TPOT is the slowest agent's)."""
    t = _Labels(lang)
    where = (msg("report.package", lang, id=choice.package) if choice.package
             else (choice.provider and provider_name(choice.provider, lang)) or purchase_words(choice, lang)
             or choice.source)
    notes = ([msg("report.kernel", lang, kernel=choice.kernel)] if choice.kernel else []) + (
        [msg("report.kv_at", lang, precision=choice.kv_cache_precision)]
        if choice.kv_cache_precision and choice.kv_cache_precision != choice.precision.split(",")[0] else [])
    kernel = " (" + ", ".join(notes) + ")" if notes else ""
    # an audited setup the catalog does not price (Gaudi2, A100 40 GB PCIe) has no cost to print
    cost = (msg("report.unpriced", lang) if choice.monthly_cost_chf is None else
            f"{chf(choice.monthly_cost_chf)}/{t['month']}, {chf(choice.tco_chf)} {t['over']} {choice.horizon_months} "
            f"{t['months']}")
    placed = place(choice, where, lang)
    groups = getattr(choice, "pool_groups", None) or []   # an alternative pool of several groups (QA 47 #13)
    head = msg("report.pool_head", lang, groups=" + ".join(groups)) if len(groups) > 1 else \
        f"{choice.count}× {choice.gpu}{f' ({placed})' if placed else ''}"
    line = f"{head}, {precisions(choice)}{kernel}, {cost}"
    if choice.ttft_p95_s is not None and choice.tpot_ms is not None and choice.latency_p95_s is not None:
        regime = "" if choice.tpot_rate_rps is None else " (" + (
            msg("report.regime_idle", lang) if choice.tpot_rate_rps <= 0 else  # no volume: no peak to speak of
            msg("report.regime_pool" if pool else "report.regime", lang, rate=rate(choice.tpot_rate_rps, lang),
                unit=msg(f"report.unit.{choice.rate_unit or 'req/s'}", lang),
                batch=dec(choice.tpot_batch or 0, lang, 1))) + ")"
        # an agent's figures are one LLM step's (a batch's steps have no reader and no first words)
        step = ".step" if choice.rate_unit == "steps/s" else ""
        line += (f", {t['first' + step]} {dec(choice.ttft_p95_s, lang, 2)} s (p95), {dec(choice.tpot_ms, lang)} "
                 f"{t['per_token']}{regime}, {t['whole' + step]} {dec(choice.latency_p95_s, lang, 2)} s")
    elif choice.latency_p95_s is not None:
        line += f", {t['p95']} {dec(choice.latency_p95_s, lang, 2)} s"
    return line


def agent_lines(g, lang: str) -> list[str]:
    """The agent loop's figures: per step, per task, sessions and KV, targets, retention, cost."""
    def n(value: float, places: int = 1) -> str:
        return dec(value, lang, places)

    lines = [
        msg("report.agent.step", lang, steps=n(g.steps_mean), p90=n(g.steps_p90, 0), tokens=n(g.input_tokens_per_step, 0),
            branches=msg("report.agent.branches", lang, n=g.fan_out) if g.fan_out > 1 else "",
            prefilled=n(g.prefill_tokens_per_step, 0), hit=f"{g.cache_hit_rate:.0%}", ttft=n(g.ttft_step_s, 2),
            uncached=n(g.ttft_step_uncached_s, 2), step=n(g.step_latency_s, 2)),
        msg("report.agent.task", lang, task=n(g.task_latency_s), p90=n(g.task_latency_p90_s), tools=f"{g.tool_share:.0%}"),
        msg("report.agent.sessions", lang, sessions=n(g.sessions_peak), p95=n(g.sessions_p95 or g.sessions_peak),
            on_gpu=n(g.sessions_on_gpu_peak), per_session=n(g.kv_per_session_gb), shared=_shared(g, lang),
            total=n(g.kv_sessions_gb), p95_total=n(g.kv_sessions_p95_gb if g.kv_sessions_p95_gb is not None
                                                    else g.kv_sessions_gb), held=_held(g, lang)),
    ]
    if g.batch and g.step_latency_target_s is not None:   # nobody reads a batch's answer: no final line
        lines.append(msg("report.agent.targets_batch", lang, step=n(g.step_latency_s, 2),
                         internal=_target(g.step_latency_target_s, lang)))
    elif not g.batch and (g.step_latency_target_s is not None or g.final_latency_target_s is not None):
        lines.append(msg("report.agent.targets", lang, step=n(g.step_latency_s, 2), final=n(g.final_step_latency_s, 2),
                         internal=_target(g.step_latency_target_s, lang), final_target=_target(g.final_latency_target_s, lang)))
    if g.cache_hit_rate_lost_to_retention > 0.0005:
        lines.append(msg("report.agent.retention", lang, lost=f"{g.cache_hit_rate_lost_to_retention:.0%}"))
    if g.replica_steps_max is not None and g.replicas:
        lines.append(_compute(g, lang))
    if g.cost_per_task_chf is not None:
        lines.append(msg("report.agent.cost", lang, per_1000=chf(g.cost_per_1000_tasks_chf),
                         per_task=dec(g.cost_per_task_chf, lang, 3)))
    return lines


def _compute(g, lang: str) -> str:
    """The line that names what sets the replicas (QA 44 D9): one replica's compute, D3's utilisation, the
    replicas the peak needs for compute and the pick's."""
    return msg("report.agent.compute", lang, replica=g.replica_gpus or "", top=dec(g.replica_steps_max, lang, 2),
               util=round(g.utilization * 100), carried=dec(g.replica_steps_max * g.utilization, lang, 2),
               peak=dec(g.peak_steps_per_s, lang, 2), replicas=g.replicas,
               needed=msg("report.agent.compute.replicas" + (".one" if g.replicas_for_compute == 1 else ""), lang,
                          n=g.replicas_for_compute),
               why=msg("report.agent.compute.more", lang) if g.replicas > g.replicas_for_compute else "")


def _held(g, lang: str) -> str:
    """`: 8 × 30.7 GB, the memory section's KV cache per replica`: what the p95 figure counts, so that it
    and the memory section read as one figure (or say where copies make them differ)."""
    if not g.replicas or g.kv_sessions_p95_gb is None:
        return ""
    copied = g.kv_shared_copies > 1.0 + 1e-9 or g.kv_session_copies > 1.0 + 1e-9
    return msg("report.agent.held_copies" if copied else "report.agent.held", lang, replicas=g.replicas,
               per_replica=dec(g.kv_sessions_p95_gb / g.replicas, lang, 1))


def _shared(g, lang: str) -> str:
    """`5.6 GB of shared prefix per replica (0.7 GB once on each of its 8 GPUs)`: the figure and its label
    agree where a replica holds several copies (DP attention, an MLA latent under TP)."""
    if g.kv_shared_copies > 1.0 + 1e-9:
        return msg("report.agent.shared_copies", lang, shared=dec(g.kv_shared_gb, lang, 1),
                   once=dec(g.kv_shared_gb / g.kv_shared_copies, lang, 1), n=f"{g.kv_shared_copies:g}")
    return msg("report.agent.shared", lang, shared=dec(g.kv_shared_gb, lang, 1))


def _target(value: float | None, lang: str) -> str:
    """'target 5.00 s', or 'no target given' where the agent states none."""
    return msg("report.agent.no_target", lang) if value is None else msg("report.agent.target", lang,
                                                                         value=dec(value, lang, 2))


def layout_lines(choice: Choice, lang: str) -> list[str]:
    """The attention layout of an MLA model and the failure domains of a highly available pick."""
    lines = []
    if choice.attention:
        lines.append(msg(f"report.attention.{choice.attention}", lang, tp=choice.tensor_parallel))
    if choice.failure_domains:
        sizes = " + ".join(d.split(": ", 1)[1].split(" × ")[0] for d in choice.failure_domains)
        kind = msg(f"report.domains.{choice.failure_domains[0].split(' ')[0]}", lang)
        lines.append(msg("report.domains", lang, count=len(choice.failure_domains), kind=kind, sizes=sizes))
    return lines


def system_line(choice: Choice, lang: str) -> str:
    """What a bought configuration is: a complete system, paid up front, sold at the end (issue 13)."""
    power = f"{choice.system_power_w:,.0f} W".replace(",", " ") if choice.system_power_w else "?"
    return msg("report.system", lang, chassis=choice.chassis, power=power, upfront=chf(choice.upfront_chf),
               resale=chf(choice.resale_chf or 0), months=choice.horizon_months, bom=_bom_command(choice))


def _bom_command(choice: Choice) -> str:
    """The command that prints the bought system's bill of materials and reproduces its figures: the
    horizon and the condition the advice priced (`purchase:<gpu>:<condition>`; QA 46 #5: without it,
    `cost` priced a used pick new)."""
    if choice.package:
        return "gpu-expert catalog packages"
    command = f"gpu-expert cost --gpu {choice.gpu} --count {choice.count} --mode buy --months {choice.horizon_months}"
    if choice.offer and choice.offer.startswith("purchase:") and choice.offer.count(":") == 2:
        command += f" --condition {choice.offer.rsplit(':', 1)[1]}"
    return command


def slo_lines(report: Report) -> list[str]:
    """The latency targets the sizing used, each with its source (docs/slo.md)."""
    t, s, lang = _Labels(report.lang), report.slo, report.lang
    lines = []
    for key, value, unit in (("ttft", s.ttft_target_s, "s"), ("tpot", s.tpot_target_ms, "ms"),
                             ("e2e", s.e2e_target_s, "s")):
        if value is not None:
            lines.append(f"{t[key]} {dec(value, lang, 2 if unit == 's' else 0)} {unit} — {s.sources.get(key, '')}")
    if not lines:  # no target: no tolerance to state either (QA 45 nit)
        return [t["no_slo"]]
    lines.append(f"{t['tol']} {round(s.tolerance * 100)} % {t['tol_above']}")
    return lines


def audit_section(report: Report, head, item) -> None:
    """An audit's setup against the configurator's optimum: both lines and the saving."""
    t, a, lang = _Labels(report.lang), report.audit, report.lang
    head(t["setup"])
    mine = f"{t['setup_line']}: {choice_line(a.setup, lang)}"
    if a.meets_targets is not None:
        mine += f" — {t['meets.' + (a.missed or str(a.meets_targets))]}"
    item(mine)
    if a.optimum is not None and not a.is_optimum:
        item(f"{t['optimum_line']}: {choice_line(a.optimum, lang)}")
    item(a.summary)


def _document(report: Report, markdown: bool) -> str:
    t = _Labels(report.lang)
    out: list[str] = []

    def head(text: str, level: int = 2) -> None:
        out.append(("#" * level + " " + text) if markdown else f"\n{text.upper() if level == 1 else text}")
        if not markdown and level > 1:
            out.append("-" * len(text))

    def item(text: str) -> None:
        out.append(f"- {text}")

    head(t[report.kind], 1)
    out.append(("> " if markdown else "") + report.clarification)
    if report.memory:
        m = report.memory
        head(t["memory"])
        lang = report.lang
        parts = [f"{t['weights']} {dec(m.weights_gb, lang)} GB", f"{t['kv']} {dec(m.kv_cache_gb, lang)} GB",
                 per_gpu_part(t['overhead'], m.overhead_gb, m.overhead_gpus, lang),
                 *copies_part(m.copies_gb, lang), f"{t['total']} {dec(m.total_gb, lang)} GB"]
        if m.fine_tuning_gb:
            # a run's memory over the serving GPUs: the sum and each GPU's share (QA 46 nit: beside the plan's
            # "GB per GPU")
            gpus = m.fine_tuning_gpus or 1
            parts.append(per_gpu_part(t['finetune'], m.fine_tuning_gb / gpus, gpus, lang))
        if m.reserve_ratio is not None:
            parts.append(f"{t['reserve']} {m.reserve_ratio:.0%}")
        # an audited setup of several replicas: the totals are one replica's (a pool's agents each have their own)
        copy = report.audit.setup if report.audit and not (report.capacity and report.capacity.worst_agent) else None
        per_copy = (" " + msg("report.memory.per_copy", lang, replicas=copy.replicas, tp=copy.tensor_parallel)
                    if copy is not None and copy.replicas > 1 else "")
        item(", ".join(parts) + per_copy)
        if m.used_per_gpu_gb is not None and m.usable_per_gpu_gb:
            item(f"{t['used']} {dec(m.used_per_gpu_gb, lang)} GB {t['of']} {dec(m.usable_per_gpu_gb, lang)} GB "
                 f"{t['usable']}" + (f", {t['reserve']} {m.reserve_ratio:.0%}" if m.reserve_ratio is not None else ""))
    if report.capacity:
        head(t["capacity"])
        for line in capacity_lines(report.capacity, report.lang):
            item(line)
    if report.audit:
        audit_section(report, head, item)
    if report.slo:
        head(t["slo"])
        for line in slo_lines(report):
            item(line)
    if report.agent:
        head(t["agent"])
        for line in agent_lines(report.agent, report.lang):
            item(line)
    if report.recommendation or report.nothing_fits:
        head(t["recommendation"])
        if report.recommendation:
            item(choice_line(report.recommendation, report.lang, pool=bool(report.pool)))
            if report.near_tie:
                item(report.near_tie)
            if report.recommendation.upfront_chf:
                item(system_line(report.recommendation, report.lang))
            for line in layout_lines(report.recommendation, report.lang):
                item(line)
        if report.nothing_fits:  # the reason says "nothing fits: ..." itself: no second label (issue 34)
            item(report.nothing_fits[:1].upper() + report.nothing_fits[1:])
        if report.document_recommendation:
            item(f"{t['document']}: {report.document_recommendation}")
        for line in report.sensitivity:
            item(f"{t['sensitivity']}: {line}")
    if report.growth:
        head(t["growth"])
        item(report.growth.summary)
    plans = [p for p in (report.training_plan, report.fine_tuning_plan) if p] + list(report.fine_tuning_plans)
    if plans:
        head(t["training"])
        for line in (line for plan in plans for line in plan.lines):
            item(line)
    if report.alternatives:
        head(t["alternatives"])
        for alt in report.alternatives:
            item(f"{choice_line(alt, report.lang, pool=bool(report.pool))} — {alt.why_not}")
    if report.quantised_alternatives:
        head(t["quantised"])
        for alt in report.quantised_alternatives:
            item(f"{choice_line(alt, report.lang, pool=bool(report.pool))} — {alt.why_not}")
    if report.pool:
        head(t["pool"])
        for line in report.pool:
            item(line)
    head(t["findings"])
    if not report.findings:
        item(t["none"])
    for f in report.findings:
        title = f"**{f.title}**" if markdown else f.title
        level = msg(f"severity.word.{f.severity}", report.lang) if has_msg(f"severity.word.{f.severity}") else f.severity
        category = value_word("category", f.category, report.lang) or f.category
        item(f"[{level}] {title} ({f.rule_id}, {category})")
        out.append(f"  {f.explanation}")
        out.append(f"  {t['advice_label']}: {f.advice}")
        out.append(f"  {t['source']}: {f.source.document}, {f.source.section}")
    head(t["trace"])
    for fired in report.fired_rules:
        derived = "; ".join(", ".join(f"{k}={v}" for k, v in d.items()) for d in fired.derived)
        item(f"{fired.rule_id}" + (f" → {derived}" if derived else ""))
    return "\n".join(out).lstrip("\n") + "\n"
