"""What the user types that is not a command: an answer to the interview (advice or audit),
or a change after it: a mixin of `ChatScreen`.

The interview understands the line (`Interview.answer`: an answer, a correction of the previous
one, a confirmation, a change after the interview such as "actually under half a second"); this
screen only shows what it understood. Each answer is autosaved before anything is computed.
"""

from __future__ import annotations

from expert.messages import t

from .. import commands as cmd


class AnswersMixin:
    """`answer` and `apply`; uses the screen's `session`, `report`, `say`, `ask`, `autosave`,
    `compute` and the app's `advisor`."""

    def know_models(self) -> None:
        """Once the pipeline is loaded, understand every model and GPU name of the catalog (the
        organisation's own from `--catalog-dir` too), not only the built-in lists."""
        if self.session.models is None or self.session.gpus is None:
            advisor = self.app.advisor
            models = getattr(advisor, "model_aliases", lambda: None)()
            gpus = getattr(advisor, "gpu_aliases", lambda: None)()
            if models or gpus:
                self.session.use_names(models, gpus)

    def follow_language(self, text: str) -> None:
        """The first German answer in a session whose language was not chosen (no `--lang`, no
        `/lang`) switches the chat to German, and says so."""
        from expert.interview import lexicon, numbers

        s = self.session
        if s.lang_fixed or s.lang == "de":
            return
        s.lang_fixed = True         # only the first answer decides
        if lexicon.detect_lang(numbers.normalize(text), "en") == "de":
            s.set_lang("de")
            self.relabel()
            self.say("info", t("chat.lang_switched", "de"))

    def answer(self, text: str) -> None:
        """Give `text` to the interview; fall back to a keyword what-if after the interview."""
        import copy

        self.follow_language(text)
        iv = self.session.interview
        advice = self.session.mode == "advice"
        before = (copy.deepcopy(iv.answers), set(iv.done), set(iv.provisional)) if advice else None
        reply = iv.answer(text)
        if not reply.ok and self.report is not None and self.session.mode == "advice":
            fields = cmd.what_if(text, self.lang)   # the audit interview reads no what-ifs itself
            if fields:
                self.apply(fields, text)
                return
        if advice and reply.kind == "answer" and reply.question_id is None and self.report is not None:
            self._undo = before                  # a change after the interview can be undone
        if reply.kind == "partial":
            self.say("understood", reply.understood)
            return
        if reply.kind == "unclear":
            self.say("unclear", reply.reason or "", reply.example)
            self.ask()
            return
        if reply.kind == "help":
            self.say("help", reply.help or "")
            return
        if reply.kind == "propose":
            self.say("propose", reply.understood)
            return
        kind = "skip" if reply.kind == "skip" else "understood"
        note = reply.note if reply.note and reply.note not in reply.understood else None
        self.say(kind, (reply.understood or reply.note or "") + (f" ({note})" if note and reply.understood else ""))
        self.autosave()
        more = self.ask()
        if not more and self.report is None:
            self.say("info", t("chat.complete", self.lang))
        if (not more or self.report is not None) and (reply.changed or self.report is None
                                                      or (self.stale and not more)):
            self.compute()

    def apply(self, fields: dict, said: str = "") -> None:
        """A what-if edit of workload fields: set them, say so, recompute."""
        import copy

        iv = self.session.interview
        self._undo = (copy.deepcopy(iv.answers), set(iv.done), set(iv.provisional))
        changed: dict = {}
        for name, value in fields.items():
            changed.update(iv.set(name, value))
        self.say("understood", iv.change_text(fields, changed) or said)
        self.autosave()
        self.ask()
        if changed and (self.report is not None or self.session.complete):
            self.compute()
