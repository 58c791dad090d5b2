"""What the interview answers to one line the user typed (`Reply`), and the help reply."""

from __future__ import annotations

from dataclasses import dataclass, field

from expert.messages import t as msg

from .questions import Question


@dataclass(frozen=True)
class Reply:
    """The answer to one user message.

    `kind` is `answer` (understood: `understood` in plain words, `changed` fields), `skip` (the
    default applies), `help` (`help` holds the explanation), `unclear` (`reason` and `example`),
    `propose` (a vague answer: `understood` offers the documents' default, taken on `yes`, `ok`,
    `passt` …) or `partial` (part of the answer noted; `understood` asks only for the rest).
    `redirected` names the other question an answer was taken for: a correction of the previous
    answer ("nein, mieten! nicht kaufen") or an answer to a question not yet asked; `question_id`
    is None for a change after the interview ("actually under half a second").
    """

    kind: str
    question_id: str | None
    understood: str = ""
    changed: dict = field(default_factory=dict)
    reason: str | None = None
    example: str | None = None
    note: str | None = None
    help: str | None = None
    redirected: str | None = None

    @property
    def ok(self) -> bool:
        """True unless the message was not understood."""
        return self.kind != "unclear"


def help_reply(q: Question, lang: str) -> Reply:
    """The explanation of question `q` and its example answer."""
    return Reply("help", q.id, help=f"{q.help}\n{msg('interview.example', lang)}: {q.example}")
