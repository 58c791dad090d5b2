"""The interview as a pure, UI-free state machine.

`Interview(lang)` asks the four parts of the clarification sentence first (skipping those already
filled, e.g. by one whole-sentence answer), then only the follow-ups that change the answer. Every
question accepts `skip` / `überspringen` / `default` (the default applies) and `?` (a short help).

    iv = Interview("en")
    while (q := iv.next_question()) is not None:
        reply = iv.answer(input(q.text + " "))
    expert.advise(iv.workload())
"""

from __future__ import annotations

from dataclasses import replace

from expert.messages import has as has_msg, t as msg

from . import agent_followups as af, aliases, followups, lexicon as lx, numbers as nb, parse as p, polarity
from . import fine_tuning
from .dataset import nest, parse_dataset
from .negation import guarded
from .precision import parse_precision
from .workload_describe import DEFAULTS, describe, describe_field, method_word
from .questions import ORDER, Question, question
from .reply import Reply, help_reply
from .turns import Turns
from .sentence import PARTS, found_parts, parse_sentence, render_sentence

FIELDS: dict[str, tuple[str, ...]] = {
    **PARTS, "latency": ("latency_target_s",), "context": ("context_tokens",), "sector": ("sector",),
    "hosting": ("hosting",), "budget": ("budget",), "horizon": ("horizon_months",),
    "growth": ("growth_params_b",), "site_country": ("site_country",),
    "precision": ("precision", "allow_quantization", "allow_int4"), "agent_availability": ("high_availability",),
}
"""The workload fields each question fills."""

WORKLOAD_FIELDS = (
    "model", "params_b", "precision", "requests_per_day", "requests_per_second", "peak_to_average",
    "latency_target_s", "prompt_tokens", "output_tokens", "context_tokens", "inference_time_s",
    "target_utilization", "fine_tuning", "data", "sector", "hosting", "deployment", "budget",
    "horizon_months", "growth_params_b", "team_hourly_rate_chf", "site_country", "agent", "high_availability",
    "allow_quantization", "allow_int4")
"""Every workload field of CONTRACT.md, in the contract's order (also the order of `workload()`);
`site_country` (the organisation's own site, issue 13) is asked when sensitive or regulated data
may go onto bought hardware, and can be set with `/set site_country CH`; the `agent:` block of an agent that uses tools;
`high_availability` (asked of an agent, issue 31); `allow_quantization` and `allow_int4` (issue 22: the precision question, asked last)."""
AGENT_QUESTIONS = {"agent_steps": "steps_mean", "agent_tool_time": "tool_time_s", "agent_users": "concurrent_users",
                   "agent_fan_out": "fan_out", "agent_final": "final_latency_target_s"}
"""Asked only when the user's description mentions tools (then `agent` is in the answers), with
`agent_availability` (the workload's `high_availability`, issue 31)."""

REGULATED = ("finance", "health", "public")
_EXCLUSIVE = {"model": "params_b", "params_b": "model",
              "requests_per_day": "requests_per_second", "requests_per_second": "requests_per_day"}
_PARSERS = {"model": p.parse_model, "volume": p.parse_volume, "fine_tuning": p.parse_fine_tuning,
            "data": p.parse_data, "latency": p.parse_latency, "context": p.parse_context,
            "fine_tuning_frequency": p.parse_fine_tuning, "fine_tuning_method": p.parse_fine_tuning,
            "sector": p.parse_sector, "hosting": p.parse_hosting_place, "budget": p.parse_budget,
            "horizon": p.parse_horizon, "growth": p.parse_growth,
            "site_country": p.parse_site_country, "dataset": parse_dataset, "agent_steps": followups.parse_agent_steps, "agent_tool_time": followups.parse_tool_time,
            "agent_users": af.parse_agent_users, "agent_fan_out": af.parse_fan_out,
            "agent_final": af.parse_final, "agent_availability": af.parse_availability,
            "precision": parse_precision}



class Interview(Turns):
    """The interview state: the answers so far as a workload dict, and which questions are done."""

    def __init__(self, lang: str = "en", models: dict[str, str] | None = None) -> None:
        self.lang = "de" if lang == "de" else "en"
        self.models = models or aliases.DEFAULT_MODEL_ALIASES
        self.answers: dict = {}
        self.done: set[str] = set()
        self.provisional: set[str] = set()   # e.g. a fine-tuning frequency assumed after a bare "yes"
        self._applied: dict = {}
        self.pending = None
        """A `proposals.Proposal`: a default offered for a vague answer, taken on `yes` or `ok`;
        kept until the next answer is understood."""
        self.last: str | None = None
        """The question answered last: a correction typed at the next question goes there."""
        self.partial: str | None = None
        """What was understood of an incomplete answer ("10'000 Dokumente"), read with the rest."""

    def _ft(self) -> tuple[str | None, str | None]:
        """(frequency, method) of the fine-tuning answer; (None, None) if none or unanswered."""
        v = self.answers.get("fine_tuning")
        if v in (None, "none"):
            return None, None
        return (v.get("frequency"), v.get("method")) if isinstance(v, dict) else (v, None)

    def _applies(self, qid: str) -> bool:
        """Whether question `qid` still needs asking."""
        a, freq = self.answers, self._ft()[0]
        if qid in self.done or any(f in a for f in FIELDS.get(qid, ())):
            return False
        if qid == "fine_tuning_frequency":
            return freq is not None and "fine_tuning_frequency" in self.provisional
        if qid == "fine_tuning_method":
            return freq is not None and self._ft()[1] is None
        if qid == "dataset":  # tokens per run: the hours of every run (issue 12)
            ft = a.get("fine_tuning")
            return freq is not None and not (isinstance(ft, dict) and "dataset_tokens" in ft)
        if qid == "sector":
            return a.get("data") == "sensitive"
        if qid == "hosting":
            return a.get("data") == "sensitive" or a.get("sector") in REGULATED
        if qid == "horizon":
            return a.get("budget") in ("capex", "any")
        if qid == "site_country":  # own site of bought hardware, for the sovereignty rules (issue 13)
            protected = a.get("data") == "sensitive" or a.get("sector") in REGULATED
            return protected and (a.get("deployment") == "on_premise" or a.get("budget") in ("capex", "any"))
        if qid == "volume" and isinstance(a.get("agent"), dict) and "concurrent_users" in a["agent"]:
            return False  # a closed loop's load follows from its users (X = N / (R + Z)): no daily volume
        if qid in AGENT_QUESTIONS:
            return isinstance(a.get("agent"), dict) and AGENT_QUESTIONS[qid] not in a["agent"]
        if qid == "agent_availability":
            return isinstance(a.get("agent"), dict)
        if qid == "context" and "agent" in a:
            return False  # an agent's context grows step by step: the loop sizes it
        return True

    def order(self) -> tuple[str, ...]:
        """The questions in the order asked: `ORDER`, but for an agent (`agent` in the answers) who waits
        for its tasks is asked before the volume, which a closed loop's users make unnecessary."""
        if not isinstance(self.answers.get("agent"), dict):
            return ORDER
        rest = tuple(q for q in ORDER if q != "agent_users")
        at = rest.index("volume")
        return rest[:at] + ("agent_users",) + rest[at:]

    def progress(self) -> tuple[int, int]:
        """(number of the next question, questions in all) as things stand: the questions settled
        (answered, skipped, or filled by a whole sentence) and those still to ask; a question that
        no longer applies counts in neither."""
        settled = [q for q in self.order() if not self._applies(q) and (
            q in self.done or any(f in self.answers for f in FIELDS.get(q, ())))]
        open_ = [q for q in self.order() if self._applies(q)]
        return len(settled) + 1, len(settled) + len(open_)

    def next_question(self) -> Question | None:
        """The next question to ask in `self.lang`, or None when the interview is complete."""
        qid = next((q for q in self.order() if self._applies(q)), None)
        return question(qid, self.lang) if qid else None

    def _merge(self, qid: str | None, fields: dict) -> dict:
        """Apply parsed fields (fine-tuning frequency and method merge); return what changed."""
        fields = nest(dict(fields))   # the dataset size and epochs belong to the fine-tuning mapping
        said = dict(fields)  # what this answer said (the agent block and fine-tuning before merging)
        if "fine_tuning" in fields:   # key by key: a new method keeps the frequency and dataset (QA 46 #2)
            fields["fine_tuning"], assumed = fine_tuning.merge(self.answers.get("fine_tuning"), fields["fine_tuning"])
            if assumed:
                self.provisional.add("fine_tuning_frequency")
        changed = {}
        self._applied = said
        if isinstance(fields.get("agent"), dict) and isinstance(self.answers.get("agent"), dict):
            fields["agent"] = {**self.answers["agent"], **fields["agent"]}  # one agent block, answered in parts
        if any(n in fields for n in PARTS["volume"]) and "peak_to_average" not in fields:
            fields["peak_to_average"] = None    # the office hours of an earlier volume answer no longer hold
        for name, value in fields.items():
            if name in _EXCLUSIVE:
                self.answers.pop(_EXCLUSIVE[name], None)
            if value is None and name == "peak_to_average":
                if self.answers.pop(name, None) is not None:
                    changed[name] = None
                continue
            if self.answers.get(name) != value:
                changed[name] = value
            self.answers[name] = value
        return changed

    def answer(self, text: str) -> Reply:
        """Take the user's answer to the current question (or a whole sentence, a correction of
        the previous answer, a change after the interview) and move on."""
        pending, partial = self.pending, self.partial
        self.pending = self.partial = None
        reply = self._answer(text, pending, partial)
        if reply.kind in ("unclear", "help") and self.pending is None:
            self.pending = pending           # a suggestion stays open until it is answered
        if reply.kind == "answer":
            self.last = reply.redirected or reply.question_id or self.last
        return reply

    def _answer(self, text: str, pending, partial: str | None) -> Reply:
        """`answer` without the bookkeeping of the pending suggestion and the last question."""
        q = self.next_question()
        qid = q.id if q else None
        t = nb.normalize(text)
        lang = lx.detect_lang(t, self.lang)
        if q and lx.asks_help(t):
            self.partial = partial
            return help_reply(q, self.lang)
        if pending is not None and pending.qid == qid and polarity.confirms(t):
            return self._take(pending)
        if q and lx.skips(t):
            return self._skip(q, lang, t)
        if partial and qid == "dataset":
            text = t = partial + ", " + t
        whole = parse_sentence(text, lang, models=self.models)
        sentence = whole.ok and len(found_parts(whole.fields)) >= 2   # a new sentence, after the interview too
        fixed = None if sentence or q is None else self._correction(q, t, lang)   # after it: a what-if
        if fixed is not None:
            return fixed
        if sentence:
            got, parts = self._with_unread(whole, lang), found_parts(whole.fields)
        elif qid is None:                  # a change, read part by part ("eigentlich 32B, Server in CH")
            return self._what_if(text, lang)
        else:
            got, parts = self._parse(qid, text, lang), [qid]
        if not got.ok and qid == "dataset" and got.fields.get("documents"):
            self.partial = t               # "10'000 Dokumente": kept, only the length is asked
            return Reply("partial", qid, msg("interview.partial.dataset", self.lang,
                                             docs=nb.fmt(got.fields["documents"], self.lang)))
        if not got.ok and qid is not None:
            return self._elsewhere(q, t, lang, got)
        if not got.ok:
            return Reply("unclear", qid, reason=got.reason, example=got.example, note=got.note)
        if "agent" not in self.answers and followups.mentions_tools(t):  # an agent that uses tools
            got.fields.setdefault("agent", {"kind": followups.agent_kind(t)})
        changed = self._merge(qid, got.fields)
        self.done.update(parts)
        follow_up_q = qid in ("fine_tuning_frequency", "fine_tuning_method")
        note = None if follow_up_q and got.follow_up else got.note
        if got.follow_up == "fine_tuning_frequency" and not follow_up_q:
            self.provisional.add("fine_tuning_frequency")
        elif "fine_tuning" in got.fields and qid != "fine_tuning_method":
            self.provisional.discard("fine_tuning_frequency")
        said = describe(self._applied, self.lang) or note or ""
        return Reply("answer", qid, said, changed, note=note)

    def _with_unread(self, whole: p.Parsed, lang: str) -> p.Parsed:
        """A whole sentence with the clauses no part of it took (`whole.unread`) read as answers to
        other questions ("servers in Switzerland": the hosting); the note names each clause still
        not understood, and says of a refused "not in the US" to say what is wanted instead."""
        from .whatif import read_parts

        fields, missed = read_parts(list(whole.unread), lang)
        notes = [whole.note] if whole.note else []
        negated = [part for part, got in missed if got.negated]
        unknown = [part for part, got in missed if not got.negated]
        notes += [msg("interview.note.negated", self.lang, said=part) for part in negated]
        if unknown:
            notes.append(msg("interview.note.not_understood", self.lang,
                             parts=", ".join(f"«{part}»" for part in unknown)))
        extra = {k: v for k, v in fields.items() if k not in whole.fields}   # the sentence's own parts win
        return replace(whole, fields={**whole.fields, **extra}, note="; ".join(notes) or None)

    def _parse(self, qid: str, text: str, lang: str) -> p.Parsed:
        """Run the parser of question `qid`; a fine-tuning follow-up needs what it asked for."""
        if qid in ("model", "growth"):
            kw: dict = {"models": self.models}
            if qid == "growth":
                kw["current_params_b"] = self.answers.get("params_b") or aliases.params_of(
                    str(self.answers.get("model", "")))
            got = guarded(qid, _PARSERS[qid], text, lang, **kw)
        elif qid == "site_country":
            got = guarded(qid, _PARSERS[qid], text, lang, hosting=self.answers.get("hosting"))
        else:
            got = guarded(qid, _PARSERS[qid], text, lang)
        if got.ok and qid == "fine_tuning_frequency" and got.follow_up:
            return p.fail(qid, got.lang, "interview.reply.fine_tuning_frequency")
        ft = got.fields.get("fine_tuning")   # "doch kein Fine-Tuning" retracts it: "none" answers both
        if got.ok and qid == "fine_tuning_method" and not isinstance(ft, dict) and ft != "none":
            return p.fail(qid, got.lang, "interview.reply.fine_tuning_method")
        return got

    def _skip(self, q: Question, lang: str, t: str = "") -> Reply:
        """Skip question `q`: its default applies (the model cannot be skipped: the documents'
        default is offered instead)."""
        from .proposals import propose

        offer = propose(q.id, t, lang) if not q.skippable else None
        if offer is not None:
            self.pending = offer
            return Reply("propose", q.id, offer.text)
        if not q.skippable:
            return Reply("unclear", q.id, reason=msg("interview.model_needed", lang), example=q.example)
        self.done.add(q.id)
        self.provisional.discard(q.id)
        shown = [describe_field(f, DEFAULTS[f], self.lang) for f in FIELDS.get(q.id, ()) if f in DEFAULTS]
        if q.id == "fine_tuning_frequency":
            shown = [describe_field("fine_tuning", self.answers["fine_tuning"], self.lang)]
        elif has_msg(f"interview.skip.{q.id}"):
            method = method_word(DEFAULTS["fine_tuning_method"], self.lang)
            shown = [msg(f"interview.skip.{q.id}", self.lang, method=method)]
        text = (msg("interview.skipped", self.lang, shown=", ".join(shown)) if shown
                else msg("interview.skipped_standard", self.lang))
        return Reply("skip", q.id, text)

    def set(self, name: str, value: object) -> dict:
        """What-if edit of one workload field (`None` removes it); returns the changed fields. A
        `fine_tuning` mapping changes only the keys it names (`{"epochs": 2}`)."""
        if name not in WORKLOAD_FIELDS:
            raise ValueError(f"unknown workload field {name!r}; allowed: {', '.join(WORKLOAD_FIELDS)}")
        if value is None:  # removed: its question comes back
            self.done -= {q for q, names in FIELDS.items() if name in names}
            return {name: None} if self.answers.pop(name, None) is not None else {}
        if name == "fine_tuning" and (isinstance(value, str) or "frequency" in value):
            self.provisional.discard("fine_tuning_frequency")   # a frequency named: no longer assumed
        return self._merge(None, {name: value})

    def workload(self) -> dict:
        """The answers as a CONTRACT workload dict: only answered fields, in contract order."""
        return {k: self.answers[k] for k in WORKLOAD_FIELDS if k in self.answers}

    def sentence(self) -> str:
        """The clarification sentence with the parts known so far and `[X]`-style blanks."""
        return render_sentence(self.answers, self.lang)
