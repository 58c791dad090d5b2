"""Workload fields in plain words, for telling the user what was understood.

`describe({"requests_per_day": 20000}, "de")` → `20 000 Anfragen pro Tag`. `DEFAULTS` are the
values assumed when a question is skipped (the workload schema's defaults).
"""

from __future__ import annotations

from .numbers import fmt

DEFAULTS: dict[str, object] = {
    "latency_target_s": None, "context_tokens": 1750, "fine_tuning": "none", "data": "non_sensitive",
    "sector": "other", "hosting": "any", "budget": "opex", "horizon_months": 36,
    "fine_tuning_method": "lora",
}
"""What a skipped question falls back to, as shown to the user: the workload schema's defaults
(`expert.workload`; `context_tokens` is its default prompt + output tokens). Written out rather
than read from the schema, so the chat starts without loading pydantic;
tests/interview/test_interview_defaults.py keeps the two equal."""

_WORDS = {
    "en": {"sensitive": "sensitive data", "non_sensitive": "non-sensitive data",
           "health": "health", "finance": "finance", "public": "public administration",
           "other": "another sector", "ch": "servers in Switzerland only", "eu": "servers in the EU",
           "any": "no requirement", "cloud": "in the cloud", "on_premise": "on your own premises",
           "opex": "rent (monthly cost)", "capex": "buy (one-off investment)",
           "none": "no fine-tuning", "weekly": "weekly", "monthly": "monthly",
           "quarterly": "quarterly", "yearly": "yearly", "full": "full", "lora": "LoRA",
           "qlora": "QLoRA"},
    "de": {"sensitive": "sensible Daten", "non_sensitive": "nicht sensible Daten",
           "health": "Gesundheit", "finance": "Finanzen", "public": "öffentliche Verwaltung",
           "other": "andere Branche", "ch": "Server nur in der Schweiz", "eu": "Server in der EU",
           "any": "keine Vorgabe", "cloud": "in der Cloud", "on_premise": "im eigenen Rechenzentrum",
           "opex": "mieten (monatliche Kosten)", "capex": "kaufen (einmalige Investition)",
           "none": "kein Fine-Tuning", "weekly": "wöchentlich", "monthly": "monatlich",
           "quarterly": "quartalsweise", "yearly": "jährlich", "full": "volles", "lora": "LoRA",
           "qlora": "QLoRA"},
}


def _fine_tuning(value: object, w: dict[str, str], de: bool) -> str:
    """`fine-tuning monthly (LoRA)` / `Fine-Tuning monatlich (LoRA)` / `no fine-tuning`."""
    if value == "none":
        return w["none"]
    freq = value.get("frequency") if isinstance(value, dict) else value
    method = value.get("method") if isinstance(value, dict) else None
    text = ("Fine-Tuning " if de else "fine-tuning ") + w.get(str(freq), str(freq))
    text += f" ({w.get(method, method)})" if method else ""
    if isinstance(value, dict) and value.get("dataset_tokens"):
        text += ", " + describe_field("dataset_tokens", value["dataset_tokens"], "de" if de else "en")
    return text


def describe_field(name: str, value: object, lang: str = "en") -> str:
    """One field in plain words."""
    de = lang == "de"
    w = _WORDS["de" if de else "en"]
    num = (lambda v: fmt(v, lang)) if isinstance(value, (int, float)) else str
    texts = {
        "model": (f"model {value}", f"Modell {value}"),
        "params_b": (f"a model with {num(value)} billion parameters",
                     f"ein Modell mit {num(value)} Milliarden Parametern"),
        "requests_per_day": (f"{num(value)} requests per day", f"{num(value)} Anfragen pro Tag"),
        "requests_per_second": (f"{num(value)} requests per second", f"{num(value)} Anfragen pro Sekunde"),
        "latency_target_s": (f"the first words within {num(value)} s", f"die ersten Wörter innert {num(value)} s")
        if value is not None else ("no latency target", "kein Latenzziel"),
        "ttft_target_s": (f"the first words within {num(value)} s", f"die ersten Wörter innert {num(value)} s"),
        "tpot_target_ms": (f"{num(value)} ms per output token", f"{num(value)} ms pro Ausgabe-Token"),
        "streaming": ("answers streamed as they are written", "Antworten laufend gestreamt") if value
        else ("answers used whole (not streamed)", "Antworten als Ganzes verwendet (nicht gestreamt)"),
        "context_tokens": (f"up to {num(value)} tokens of text at once",
                           f"bis {num(value)} Tokens Text auf einmal"),
        "sector": (f"sector: {w.get(str(value), value)}", f"Branche: {w.get(str(value), value)}"),
        "horizon_months": (f"over {num(value)} months", f"über {num(value)} Monate"),
        "dataset_tokens": (f"{num(value)} tokens per fine-tuning run", f"{num(value)} Tokens pro Fine-Tuning-Lauf"),
        "site_country": (f"own site in {value}", f"eigener Standort in {value}"),
        "growth_params_b": (f"growing to {num(value)} billion parameters",
                            f"wächst auf {num(value)} Milliarden Parameter"),
    }
    if name == "fine_tuning":
        return _fine_tuning(value, w, de)
    if name == "agent" and isinstance(value, dict):
        return _agent(value, lang)
    if name in texts:
        return texts[name][1 if de else 0]
    if name == "hosting" and value == "any":
        return "servers anywhere" if not de else "Serverstandort egal"
    return w.get(str(value), f"{name}: {value}")


def _agent(value: dict, lang: str) -> str:
    """`an agent using tools (coding), 8 steps per task (up to 20), 2 s per tool call`."""
    de = lang == "de"
    parts = [("ein Agent mit Werkzeugen" if de else "an agent using tools")
             + (f" ({value['kind']})" if "kind" in value else "")]
    if "steps_mean" in value:
        parts.append(f"{fmt(value['steps_mean'], lang)} " + ("Schritte pro Aufgabe" if de else "steps per task")
                     + (f" ({'bis' if de else 'up to'} {fmt(value['steps_p90'], lang)})" if "steps_p90" in value
                        else ""))
    if "tool_time_s" in value:
        parts.append(f"{fmt(value['tool_time_s'], lang)} s " + ("pro Werkzeugaufruf" if de else "per tool call"))
    return ", ".join(parts)


def describe(fields: dict, lang: str = "en") -> str:
    """Several fields in plain words, joined with commas (`` for none). A latency target of an answer
    that is not streamed is the complete answer (docs/slo.md)."""
    out = []
    for k, v in fields.items():
        if k == "latency_target_s" and v is not None and fields.get("streaming") is False:
            out.append(latency_clause(v, False, lang))
        else:
            out.append(describe_field(k, v, lang))
    return ", ".join(out)


def latency_clause(value: float, streaming: bool, lang: str = "en") -> str:
    """'the first words within 2 s' (streamed) / 'the complete answer within 2 s' (not streamed)."""
    n = fmt(value, lang)
    if lang == "de":
        return f"die ersten Wörter innert {n} s" if streaming else f"die vollständige Antwort innert {n} s"
    return f"the first words within {n} s" if streaming else f"the complete answer within {n} s"
