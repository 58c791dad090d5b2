"""The interview's questions, with an example answer and a short help, in the chosen language.

The words are in the message catalog (`question.<id>.text|example|help`, in
`expert.messages.questions` and `expert.messages.setup_questions`); here are the order and the
`Question` shown. The ids are the flow's step names.
"""

from __future__ import annotations

from dataclasses import dataclass

from expert.messages import t


@dataclass(frozen=True)
class Question:
    """One question as shown to the user, already in the chosen language."""

    id: str
    text: str
    example: str
    help: str
    skippable: bool = True


ORDER = ("model", "volume", "fine_tuning", "data", "latency", "context", "agent_steps", "agent_tool_time",
         "agent_users", "agent_fan_out", "agent_final", "agent_availability",
         "fine_tuning_frequency", "fine_tuning_method", "dataset", "sector", "hosting", "budget", "horizon", "site_country",
         "growth", "precision")
"""Every question id, in interview order (the flow skips those that do not apply)."""


def question(qid: str, lang: str = "en") -> Question:
    """The question `qid` in `lang` (`en` or `de`, anything else falls back to English); the audit
    interview's questions (`setup_questions`) too."""
    return Question(qid, t(f"question.{qid}.text", lang), t(f"question.{qid}.example", lang),
                    t(f"question.{qid}.help", lang), skippable=qid not in ("model", "gpu"))


def example(qid: str, lang: str = "en") -> str:
    """The example answer of question `qid` in `lang`."""
    return question(qid, lang).example
