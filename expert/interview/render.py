"""Writing the clarification sentence of document 000 back with the parts known so far and
`[X]`-style blanks (`render_sentence`). Apart from its parser (`sentence`), so that every report,
which shows the sentence, does not load the interview's recognisers."""

from __future__ import annotations

from expert.messages import t as say

from . import numbers as nb
from .workload_describe import FREQUENCIES as _FREQUENCIES, method_word


def _fine_tuning(value: object, lang: str) -> str:
    """`yes (monthly, LoRA)` / `ja (monatlich, volles Fine-Tuning)` / `nein` for the fine-tuning blank."""
    if value in (None, "none"):
        return say("interview.sentence.no", lang)
    freq = value.get("frequency") if isinstance(value, dict) else value
    method = value.get("method") if isinstance(value, dict) else None
    freq = say(f"interview.word.{freq}", lang) if freq in _FREQUENCIES else freq
    method = method_word(method, lang) if method else None
    detail = ", ".join(str(x) for x in (freq, method) if x)
    if not detail:
        return say("interview.sentence.yes", lang)
    return say("interview.sentence.yes_detail", lang, detail=detail)


def render_sentence(workload: dict, lang: str = "en") -> str:
    """The clarification sentence with the known parts filled in and `[X]`-style blanks."""
    w = workload or {}
    x = w.get("model") or (f"{w['params_b']:g}B" if isinstance(w.get("params_b"), (int, float))
                           else "[X]")
    per_day = w.get("requests_per_day")
    if per_day is None and isinstance(w.get("requests_per_second"), (int, float)):
        per_day = w["requests_per_second"] * 86400
    y = nb.fmt(round(per_day), lang) if isinstance(per_day, (int, float)) else "[Y]"
    ft = (_fine_tuning(w["fine_tuning"], lang) if "fine_tuning" in w
          else say("interview.sentence.yes_no_blank", lang))
    data = w.get("data")
    data = say(f"interview.sentence.{data}" if data in ("sensitive", "non_sensitive")
               else "interview.sentence.data_blank", lang)
    text = say("interview.sentence.text", lang, x=x, y=y, ft=ft, data=data)
    growth = w.get("growth_params_b")
    if isinstance(growth, (int, float)) and not isinstance(growth, bool):  # a stated growth is said (000 M5)
        text += " " + say("interview.sentence.growth", lang, n=nb.fmt(growth, lang))
    return text
