"""Rendering a report as plain text, Markdown or byte-stable JSON."""

from __future__ import annotations

from expert.fileio import dumps_json
from expert.numbers import chf, dec
from expert.messages import t as msg
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


def choice_line(choice: Choice, lang: str) -> str:
    """One line describing a configuration."""
    t = _Labels(lang)
    where = (msg("report.package", lang, id=choice.package) if choice.package
             else choice.provider or choice.source)
    line = (f"{choice.count}× {choice.gpu} ({where}{', ' + choice.country if choice.country else ''}), "
            f"{choice.precision}, {chf(choice.monthly_cost_chf)}/{t['month']}, "
            f"{chf(choice.tco_chf)} {t['over']} {choice.horizon_months} {t['months']}")
    if choice.latency_p95_s is not None:
        line += f", {t['p95']} {dec(choice.latency_p95_s, lang, 2)} s"
    return line


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
    if report.recommendation or report.nothing_fits:
        head(t["recommendation"])
        if report.recommendation:
            item(choice_line(report.recommendation, report.lang))
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
