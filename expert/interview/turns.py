"""The lines that are not a plain answer to the question asked: an answer to another question, a
correction of the previous answer, a vague answer offered the documents' default (and its
acceptance), a change after the interview. A mixin of `flow.Interview`, which supplies the state
(`answers`, `done`, `last`, `pending`), `_parse`, `_merge`, `next_question` and `set`.
"""

from __future__ import annotations

from expert.messages import t as msg

from . import polarity
from .questions import Question
from .render import render_sentence
from .reply import Reply
from .result import Parsed
from .workload_describe import describe


class Turns:
    """`_elsewhere`, `_correction`, `_what_if`, `_take`, the note that says where an answer went and
    the words for a change (`change_text`)."""

    def _elsewhere(self, q: Question, t: str, lang: str, got: Parsed) -> Reply:
        """The current parser failed: an answer to another question is taken for that one (and
        `q` asked again); a vague one gets the documents' default to accept; else not understood.
        (Imported here: the first question must not wait for these patterns to compile.)"""
        from .proposals import propose
        from .redirect import other_question

        refused: list[Parsed] = []

        def parse(qid: str, text: str, lang: str) -> Parsed:   # keeps a "not X" another question refused
            got = self._parse(qid, text, lang)
            if got.negated:
                refused.append(got)
            return got

        other = other_question(q.id, t, lang, parse)
        if other is None and refused and not got.negated:
            got = refused[0]        # "nicht in den USA" at the sector question: say why, not "which sector?"
        if other is not None:
            oid, parsed = other
            changed = self._merge(oid, parsed.fields)
            self.done.add(oid)
            said = describe(self._applied, self.lang) or parsed.note or ""
            return Reply("answer", q.id, said, changed, note=self._taken_note(oid, q.id), redirected=oid)
        offer = propose(q.id, t, lang)
        if offer is not None:
            self.pending = offer
            return Reply("propose", q.id, offer.text)
        return Reply("unclear", q.id, reason=got.reason, example=got.example, note=got.note)

    def _taken_note(self, oid: str, qid: str | None) -> str:
        """What an answer taken for question `oid` while `qid` was asked says: a correction of the
        previous answer, an answer asked again, or one taken for a question now settled."""
        topic = lambda x: msg(f"interview.topic.{x}", self.lang)  # noqa: E731
        if oid == self.last:
            return msg("interview.corrected", self.lang, taken=topic(oid))
        q = self.next_question()
        if qid is not None and q is not None and q.id == qid:
            return msg("interview.redirected", self.lang, taken=topic(oid), asked=topic(qid))
        return msg("interview.taken_for", self.lang, taken=topic(oid))

    def _correction(self, q: Question | None, t: str, lang: str) -> Reply | None:
        """A correction of the previous answer ("nein, mieten! nicht kaufen", "no, it's just our
        own source code, nothing personal", "sorry, I meant 70B"): opened by a correction word,
        understood by the previous question's parser and — after a plain `no`/`nein` — not an
        answer to the question asked. None otherwise."""
        rest, last = polarity.correction(t), self.last
        if rest is None or last is None or (q is not None and q.id == last):
            return None
        if q is not None and not polarity.refers_back(t):
            now = self._parse(q.id, rest, lang)
            if now.ok and now.fields:
                return None
        got = self._parse(last, rest, lang)
        if not (got.ok and got.fields):
            return None
        changed = self._merge(last, got.fields)
        self.done.add(last)
        said = describe(self._applied, self.lang) or got.note or ""
        return Reply("answer", q.id if q else None, said, changed, note=self._taken_note(last, None),
                     redirected=last)

    def _what_if(self, text: str, lang: str) -> Reply:
        """A change typed after the interview, in plain words ("actually under half a second")."""
        from .whatif import read_what_if

        got = read_what_if(text, lang)
        if not got.ok:               # a refused "not X" says why; else the sentence to edit
            return Reply("unclear", None, reason=got.reason or msg("interview.all_answered", lang),
                         example=got.example if got.reason else render_sentence(self.answers, lang))
        changed: dict = {}
        for name, value in got.fields.items():
            changed.update(self.set(name, value))
        note = msg("interview.what_if", self.lang)
        return Reply("answer", None, self.change_text(got.fields, changed), changed,
                     note=f"{note}; {got.note}" if got.note else note)

    def change_text(self, said: dict, changed: dict) -> str:
        """What a change made of the answers, in words: each field it named or changed with its
        whole new value ("eigentlich QLoRA" → `Fine-Tuning wöchentlich (QLoRA), 20 000 000 Tokens
        pro Fine-Tuning-Lauf`: the frequency and dataset it kept are said too, QA 46 #2); a field
        the change cleared on the side (an old peak factor) is not."""
        fields = {**said, **{k: v for k, v in changed.items() if v is not None}}
        return describe({k: self.answers.get(k, v) for k, v in fields.items()}, self.lang)

    def _take(self, offer) -> Reply:
        """The user accepted the default offered for a vague answer."""
        changed = self._merge(offer.qid, offer.fields)
        self.done.add(offer.qid)
        return Reply("answer", offer.qid, describe(self._applied, self.lang), changed)
