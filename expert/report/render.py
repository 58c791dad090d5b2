"""Rendering a report as plain text, Markdown or byte-stable JSON."""

from __future__ import annotations

from expert.fileio import dumps_json
from expert.numbers import chf, dec
from expert.report.models import Choice, Report

LABELS = {
    "en": {"advice": "Advice", "audit": "Audit", "sentence": "Clarification", "memory": "Memory",
           "capacity": "Capacity", "recommendation": "Recommendation", "alternatives": "Alternatives",
           "findings": "Findings", "trace": "Rules fired (in order)", "none": "none",
           "nothing": "Nothing fits", "document": "The documents recommend", "sensitivity": "Sensitivity",
           "advice_label": "Advice", "source": "Source", "month": "month", "over": "over",
           "months": "months", "weights": "weights", "kv": "KV cache", "overhead": "overhead",
           "total": "total", "finetune": "fine-tuning", "reserve": "reserve", "avg": "average",
           "peak": "peak", "conc": "concurrent inferences (000 D3)", "gpus": "GPUs needed",
           "headroom": "headroom", "p95": "p95 latency", "agent": "Agent loop", "training": "Fine-tuning plan",
           "pool": "Pool of agents", "slo": "Latency targets",
           "ttft": "first words (TTFT, p95, queueing included) within", "tpot": "time per output token within",
           "e2e": "complete answer within", "no_slo": "none (not streamed, no target: sized for throughput)",
           "basis": {"rate": "the given rate is the peak (no peak factor)",
                     "rate × peak_to_average": "the given rate × peak_to_average",
                     "daily volume × peak_to_average": "daily volume / 86 400 s × peak_to_average"},
           "factor": "factor", "tol": "met within", "first": "first words", "per_token": "ms/token",
           "whole": "complete answer"},
    "de": {"advice": "Empfehlung", "audit": "Audit", "sentence": "Bedarfsklärung", "memory": "Speicher",
           "capacity": "Kapazität", "recommendation": "Empfehlung", "alternatives": "Alternativen",
           "findings": "Befunde", "trace": "Ausgelöste Regeln (in Reihenfolge)", "none": "keine",
           "nothing": "Nichts passt", "document": "Die Dokumente empfehlen", "sensitivity": "Sensitivität",
           "advice_label": "Rat", "source": "Quelle", "month": "Monat", "over": "über",
           "months": "Monate", "weights": "Gewichte", "kv": "KV-Cache", "overhead": "Overhead",
           "total": "gesamt", "finetune": "Fine-Tuning", "reserve": "Reserve", "avg": "Mittel",
           "peak": "Spitze", "conc": "gleichzeitige Inferenzen (000 D3)", "gpus": "GPUs nötig",
           "headroom": "Reserve", "p95": "P95-Latenz", "agent": "Agentenschleife", "training": "Fine-Tuning-Plan",
           "pool": "Agenten-Pool", "slo": "Latenzziele",
           "ttft": "erste Wörter (TTFT, P95, mit Warteschlange) innert", "tpot": "Zeit pro Ausgabe-Token innert",
           "e2e": "vollständige Antwort innert",
           "no_slo": "keine (nicht gestreamt, kein Ziel: auf Durchsatz ausgelegt)",
           "basis": {"rate": "die angegebene Rate ist die Spitze (kein Spitzenfaktor)",
                     "rate × peak_to_average": "die angegebene Rate × peak_to_average",
                     "daily volume × peak_to_average": "Tagesvolumen / 86 400 s × peak_to_average"},
           "factor": "Faktor", "tol": "erfüllt innerhalb", "first": "erste Wörter", "per_token": "ms/Token",
           "whole": "vollständige Antwort"},
}


def render(report: Report, fmt: str) -> str:
    """The report in `fmt` (text | markdown | json)."""
    if fmt == "json":
        return dumps_json(report.model_dump(mode="json"))
    return _document(report, markdown=(fmt == "markdown"))


def choice_line(choice: Choice, lang: str) -> str:
    """One line describing a configuration."""
    t = LABELS[lang]
    where = choice.package and f"package {choice.package}" or choice.provider or choice.source
    if lang == "de" and choice.package:
        where = f"Paket {choice.package}"
    line = (f"{choice.count}× {choice.gpu} ({where}{', ' + choice.country if choice.country else ''}), "
            f"{choice.precision}, {chf(choice.monthly_cost_chf)}/{t['month']}, "
            f"{chf(choice.tco_chf)} {t['over']} {choice.horizon_months} {t['months']}")
    if choice.ttft_p95_s is not None and choice.tpot_ms is not None and choice.latency_p95_s is not None:
        line += (f", {t['first']} {dec(choice.ttft_p95_s, lang, 2)} s (p95), {dec(choice.tpot_ms, lang)} "
                 f"{t['per_token']}, {t['whole']} {dec(choice.latency_p95_s, lang, 2)} s")
    elif choice.latency_p95_s is not None:
        line += f", {t['p95']} {choice.latency_p95_s:.2f} s".replace(".", "," if lang == "de" else ".")
    return line


def agent_lines(g, lang: str) -> list[str]:
    """The agent loop's figures as four lines (per step, per task, sessions and KV, cost)."""
    def n(value: float, places: int = 1) -> str:
        return dec(value, lang, places)

    de = lang == "de"
    lines = [
        (f"{n(g.steps_mean)} Schritte je Aufgabe (P90 {n(g.steps_p90, 0)}), {n(g.input_tokens_per_step, 0)} "
         f"Eingabe-Tokens je Schritt, davon {n(g.prefill_tokens_per_step, 0)} neu berechnet "
         f"(Cache-Trefferquote {g.cache_hit_rate:.0%}), TTFT {n(g.ttft_step_s, 2)} s "
         f"(ohne Cache {n(g.ttft_step_uncached_s, 2)} s), Schritt {n(g.step_latency_s, 2)} s") if de else
        (f"{n(g.steps_mean)} steps per task (p90 {n(g.steps_p90, 0)}), {n(g.input_tokens_per_step, 0)} input "
         f"tokens per step, {n(g.prefill_tokens_per_step, 0)} of them prefilled (cache hit rate "
         f"{g.cache_hit_rate:.0%}), TTFT {n(g.ttft_step_s, 2)} s (uncached {n(g.ttft_step_uncached_s, 2)} s), "
         f"step {n(g.step_latency_s, 2)} s"),
        (f"Aufgabe {n(g.task_latency_s)} s im Mittel, {n(g.task_latency_p90_s)} s bei P90-Schrittzahl, "
         f"davon Werkzeuge {g.tool_share:.0%}") if de else
        (f"task {n(g.task_latency_s)} s mean, {n(g.task_latency_p90_s)} s at the p90 step count, "
         f"tools {g.tool_share:.0%} of it"),
        (f"{n(g.sessions_peak)} Sitzungen zur Spitzenzeit, {n(g.sessions_on_gpu_peak)} davon mit KV auf der GPU, "
         f"{n(g.kv_per_session_gb)} GB KV je Sitzung, {n(g.kv_sessions_gb)} GB gesamt") if de else
        (f"{n(g.sessions_peak)} sessions at the peak, {n(g.sessions_on_gpu_peak)} with their KV on the GPUs, "
         f"{n(g.kv_per_session_gb)} GB KV per session, {n(g.kv_sessions_gb)} GB in all"),
    ]
    if g.cost_per_task_chf is not None:
        lines.append(f"{chf(g.cost_per_1000_tasks_chf)} " + ("je 1000 Aufgaben" if de else "per 1000 tasks")
                     + f" ({dec(g.cost_per_task_chf, lang, 3)} CHF " + ("je Aufgabe)" if de else "per task)"))
    return lines


def system_line(choice: Choice, lang: str) -> str:
    """What a bought configuration is: a complete system, paid up front, sold at the end (issue 13)."""
    power = f"{choice.system_power_w:,.0f} W".replace(",", " ") if choice.system_power_w else "?"
    if lang == "de":
        return (f"Komplettsystem ({choice.chassis}, {power}): {chf(choice.upfront_chf)} im Voraus, "
                f"Wiederverkauf {chf(choice.resale_chf or 0)} nach {choice.horizon_months} Monaten; "
                f"Stückliste: {_bom_command(choice)}")
    return (f"Complete system ({choice.chassis}, {power}): {chf(choice.upfront_chf)} up front, resale "
            f"{chf(choice.resale_chf or 0)} after {choice.horizon_months} months; bill of materials: "
            f"{_bom_command(choice)}")


def _bom_command(choice: Choice) -> str:
    if choice.package:
        return "gpu-expert catalog packages"
    return f"gpu-expert cost --gpu {choice.gpu} --count {choice.count} --mode buy"


def slo_lines(report: Report) -> list[str]:
    """The latency targets the sizing used, each with its source (docs/slo.md)."""
    t, s, lang = LABELS[report.lang], report.slo, report.lang
    lines = []
    for key, value, unit in (("ttft", s.ttft_target_s, "s"), ("tpot", s.tpot_target_ms, "ms"),
                             ("e2e", s.e2e_target_s, "s")):
        if value is not None:
            lines.append(f"{t[key]} {dec(value, lang, 2 if unit == 's' else 0)} {unit} — {s.sources.get(key, '')}")
    if not lines:
        lines.append(t["no_slo"])
    lines.append(f"{t['tol']} {round(s.tolerance * 100)} %")
    return lines


def _document(report: Report, markdown: bool) -> str:
    t = LABELS[report.lang]
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
                 f"{t['overhead']} {dec(m.overhead_gb, lang)} GB", f"{t['total']} {dec(m.total_gb, lang)} GB"]
        if m.fine_tuning_gb:
            parts.append(f"{t['finetune']} {dec(m.fine_tuning_gb, lang)} GB")
        if m.reserve_ratio is not None:
            parts.append(f"{t['reserve']} {m.reserve_ratio:.0%}")
        item(", ".join(parts))
    if report.capacity:
        c = report.capacity
        head(t["capacity"])
        item(f"{t['avg']} {dec(c.average_rps, report.lang, 2)} req/s, {t['peak']} {dec(c.peak_rps, report.lang, 2)} "
             f"req/s, {t['conc']} {dec(c.concurrent_inferences, report.lang)}, {t['gpus']} {c.gpus_needed}")
        if c.peak_basis:
            item(f"{t['peak']}: {t['basis'].get(c.peak_basis, c.peak_basis)} ({t['factor']} "
                 f"{dec(c.peak_factor or 1.0, report.lang)})")
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
            item(choice_line(report.recommendation, report.lang))
            if report.recommendation.upfront_chf:
                item(system_line(report.recommendation, report.lang))
        if report.nothing_fits:
            item(f"{t['nothing']}: {report.nothing_fits}")
        if report.document_recommendation:
            item(f"{t['document']}: {report.document_recommendation}")
        for line in report.sensitivity:
            item(f"{t['sensitivity']}: {line}")
    if report.alternatives:
        head(t["alternatives"])
        for alt in report.alternatives:
            item(f"{choice_line(alt, report.lang)} — {alt.why_not}")
    if report.pool:
        head(t["pool"])
        for line in report.pool:
            item(line)
    if report.training_plan:
        head(t["training"])
        for line in report.training_plan.lines:
            item(line)
    head(t["findings"])
    if not report.findings:
        item(t["none"])
    for f in report.findings:
        title = f"**{f.title}**" if markdown else f.title
        item(f"[{f.severity}] {title} ({f.rule_id}, {f.category})")
        out.append(f"  {f.explanation}")
        out.append(f"  {t['advice_label']}: {f.advice}")
        out.append(f"  {t['source']}: {f.source.document}, {f.source.section}")
    head(t["trace"])
    for fired in report.fired_rules:
        derived = "; ".join(", ".join(f"{k}={v}" for k, v in d.items()) for d in fired.derived)
        item(f"{fired.rule_id}" + (f" → {derived}" if derived else ""))
    return "\n".join(out).lstrip("\n") + "\n"
