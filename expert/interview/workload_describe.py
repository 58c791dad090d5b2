"""Workload fields in plain words, for telling the user what was understood.

`describe({"requests_per_day": 20000}, "de")` → `20 000 Anfragen pro Tag`. `DEFAULTS` are the
values assumed when a question is skipped (the workload schema's defaults). The words are in the
message catalog (`interview.describe.*`, `interview.word.*`).
"""

from __future__ import annotations

from expert.inputs.slo import DEFAULT_TTFT_S
from expert.messages import has, t

from .numbers import fmt

DEFAULTS: dict[str, object] = {
    "latency_target_s": None, "context_tokens": 1750, "fine_tuning": "none", "data": "non_sensitive",
    "sector": "other", "hosting": "any", "budget": "opex", "horizon_months": 36,
    "fine_tuning_method": "lora",
}
"""What a skipped question falls back to, as shown to the user: the workload schema's defaults
(`expert.inputs.workload`; `context_tokens` is its default prompt + output tokens). Written out rather
than read from the schema, so the chat starts without loading pydantic;
tests/interview/test_interview_defaults.py keeps the two equal."""

_PLAIN = ("model", "params_b", "precision", "requests_per_day", "requests_per_second", "tpot_target_ms", "context_tokens",
          "horizon_months", "dataset_tokens", "epochs", "site_country", "growth_params_b", "peak_to_average")
"""Fields said by one catalog text each (`interview.describe.<name>`)."""

FREQUENCIES = ("weekly", "monthly", "quarterly", "yearly")
"""The fine-tuning frequencies of the contract."""


def word(value: object, lang: str, default: object = None) -> str:
    """An enumerated value in plain words (`sensitive` → `sensible Daten`), else `default`."""
    key = f"interview.word.{value}"
    return t(key, lang) if has(key) else default


def method_word(method: object, lang: str) -> str:
    """A fine-tuning method in words (`full` → `full fine-tuning` / `volles Fine-Tuning`, `lora` →
    `LoRA`); an id the catalog has no words for stays as it is."""
    key = f"interview.method.{method}"
    return t(key, lang) if has(key) else str(method)


def _fine_tuning(value: object, lang: str) -> str:
    """`fine-tuning monthly (LoRA), 20 000 000 tokens per fine-tuning run, 2 epochs` / `Fine-Tuning
    monatlich (LoRA)` / `no fine-tuning`; of a part of the mapping only the keys it names
    (`{method: qlora}` → `fine-tuning (QLoRA)`, `{epochs: 2}` → `2 epochs`)."""
    if value == "none":
        return word("none", lang)
    ft = value if isinstance(value, dict) else {"frequency": value}
    freq, method = ft.get("frequency"), ft.get("method")
    parts = []
    if freq or method:
        head = (t("interview.describe.fine_tuning", lang, freq=word(freq, lang, str(freq))) if freq
                else t("interview.describe.fine_tuning_partial", lang))
        parts.append(head + (f" ({method_word(method, lang)})" if method else ""))
    parts += [describe_field(k, ft[k], lang) for k in ("dataset_tokens", "epochs") if ft.get(k)]
    return ", ".join(parts)


def describe_field(name: str, value: object, lang: str = "en") -> str:
    """One field in plain words."""
    num = fmt(value, lang) if isinstance(value, (int, float)) else str(value)
    if name == "fine_tuning":
        return _fine_tuning(value, lang)
    if name == "agent" and isinstance(value, dict):
        return _agent(value, lang)
    if name == "latency_target_s" and value is None:
        return t("interview.describe.no_latency_target", lang, s=fmt(DEFAULT_TTFT_S, lang))  # what advise applies
    if name in ("latency_target_s", "ttft_target_s"):
        return t("interview.describe.first_words", lang, n=num)
    if name == "streaming":
        return t("interview.describe.streamed" if value else "interview.describe.not_streamed", lang)
    if name == "sector":
        return t("interview.describe.sector", lang, word=word(value, lang, value))
    if name in _PLAIN:
        return t(f"interview.describe.{name}", lang, value=value, n=num)
    if name == "allow_quantization" and isinstance(value, bool):
        return t(f"interview.describe.allow_quantization_{str(value).lower()}", lang)
    if name == "high_availability" and isinstance(value, bool):
        return t(f"interview.describe.high_availability_{str(value).lower()}", lang)
    if name == "allow_int4" and value is True:
        return t("interview.describe.allow_int4", lang)
    if name == "hosting" and value == "any":
        return t("interview.describe.hosting_any", lang)
    return word(value, lang, f"{name}: {value}")


_AGENT_PARTS = (("concurrent_users", "agent_users"), ("think_time_s", "agent_think"), ("fan_out", "agent_fan_out"),
                ("final_latency_target_s", "agent_final"), ("step_latency_target_s", "agent_step"))
"""The issue-31 fields of the `agent:` block said in words ."""


def _agent(value: dict, lang: str) -> str:
    """`an agent using tools (coding), 8 steps per task (up to 20), 2 s per tool call`."""
    parts = [t("interview.describe.agent", lang) + (f" ({value['kind']})" if "kind" in value else "")]
    if "steps_mean" in value:
        n = fmt(value["steps_mean"], lang)
        parts.append(t("interview.describe.agent_steps_p90", lang, n=n, top=fmt(value["steps_p90"], lang))
                     if "steps_p90" in value else t("interview.describe.agent_steps", lang, n=n))
    if "tool_time_s" in value:
        parts.append(t("interview.describe.agent_tool_time", lang, n=fmt(value["tool_time_s"], lang)))
    for field, key in _AGENT_PARTS:
        if field in value:
            key = "agent_fan_out_one" if field == "fan_out" and value[field] == 1 else key
            parts.append(t(f"interview.describe.{key}", lang, n=fmt(value[field], lang)))
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
    key = "interview.describe.first_words" if streaming else "interview.describe.complete_answer"
    return t(key, lang, n=fmt(value, lang))
