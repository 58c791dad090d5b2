"""Writing the clarification sentence of document 000 back with the parts known so far and
`[X]`-style blanks (`render_sentence`). Apart from its parser (`sentence`), so that every report,
which shows the sentence, does not load the interview's recognisers."""

from __future__ import annotations

from expert.messages import t as say
from expert.report.numbers import dec

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


def _closed_loop(agent: dict, cycle: tuple[float, float] | None, lang: str) -> str:
    """` (a cycle of 219.3 s: a task 159.3 s and 60 s of thought, 0.456 tasks per second)` for a closed
    loop whose task time R and rate X = N / (R + Z) are known (`cycle` = (R, X)); its think time alone
    before that; "" when neither is known."""
    think = agent.get("think_time_s")
    if cycle is not None:
        task, rate = cycle
        think = think if isinstance(think, (int, float)) else 0.0
        return say("interview.sentence.cycle", lang, cycle=dec(task + think, lang), task=dec(task, lang),
                   think=nb.fmt(think, lang), rate=dec(rate, lang, 3))
    return say("interview.sentence.think", lang, think=nb.fmt(think, lang)) if isinstance(think, (int, float)) else ""


def render_sentence(workload: dict, lang: str = "en", cycle: tuple[float, float] | None = None,
                    blanks: bool = True) -> str:
    """The clarification sentence with the known parts filled in and `[X]`-style blanks. A closed loop
    (`agent.concurrent_users`) is stated as its users and their cycle (`cycle`: the task's time in the
    system and the task rate at the fixed point, when the advice has them), not as a daily volume.
    An agent's volume is its `agent.tasks_per_day` where no requests per day are given.
    `blanks` False (an audit, which asks nothing back): an unstated volume reads "an unstated number of"."""
    w = workload or {}
    x = w.get("model") or (f"{w['params_b']:g}B" if isinstance(w.get("params_b"), (int, float))
                           else "[X]")
    agent = w.get("agent") if isinstance(w.get("agent"), dict) else {}
    per_day = w.get("requests_per_day")
    if per_day is None and isinstance(w.get("requests_per_second"), (int, float)):
        per_day = w["requests_per_second"] * 86400
    if per_day is None:  # an agent's volume is counted in tasks, as the advice says it
        per_day = agent.get("tasks_per_day")
    y = (nb.fmt(round(per_day), lang) if isinstance(per_day, (int, float))
         else "[Y]" if blanks else say("interview.sentence.unstated_count", lang))
    ft = (_fine_tuning(w["fine_tuning"], lang) if "fine_tuning" in w
          else say("interview.sentence.yes_no_blank", lang))
    data = w.get("data")
    data = say(f"interview.sentence.{data}" if data in ("sensitive", "non_sensitive")
               else "interview.sentence.data_blank", lang)
    if agent.get("concurrent_users") is not None:
        text = say("interview.sentence.closed", lang, x=x, n=nb.fmt(agent["concurrent_users"], lang),
                   cycle=_closed_loop(agent, cycle, lang), ft=ft, data=data)
    else:
        text = say("interview.sentence.text", lang, x=x, y=y, ft=ft, data=data)
    growth = w.get("growth_params_b")
    if isinstance(growth, (int, float)) and not isinstance(growth, bool):  # a stated growth is said (000 M5)
        text += " " + say("interview.sentence.growth", lang, n=nb.fmt(growth, lang))
    return text
