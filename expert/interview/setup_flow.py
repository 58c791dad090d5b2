"""The audit interview: the questions about a setup someone already runs, for when there is no
setup file (`/audit` alone in the chat).

Same shape as `Interview` (`answer`, `next_question`, `set`, `sentence`, `done`), so the chat
drives either one. The answers build the setup file of CONTRACT.md; the workload that runs on the
GPUs is asked as document 000's clarification sentence and read by `parse_sentence`.
"""

from __future__ import annotations

import re

from . import aliases, lexicon as lx, numbers as nb
from . import setup_parse as sp
from .setup_describe import describe_setup, render_setup
from .flow import Reply, help_reply
from .questions import Question, question
from .result import Parsed, say
from .sentence import parse_sentence
from .setup_questions import SETUP_ORDER

SETUP_FIELDS: dict[str, tuple[str, ...]] = {
    "gpu": ("gpu", "count"), "ownership": ("ownership",), "workload": ("workload",),
    "utilization": ("utilization",), "latency_p95": ("latency_p95_s",), "location": ("hosting",),
    "interconnect": ("interconnect",), "operations": ("monitoring", "backups"),
    "host": ("cpu_cores", "ram_gb", "storage"),
}
"""The setup fields each question fills."""

CONTRACT_ORDER = ("name", "gpu", "count", "interconnect", "ownership", "cpu_cores", "ram_gb", "storage",
                  "network_gbps", "hosting", "utilization", "latency_p95_s", "tensor_parallel",
                  "monitoring", "backups", "deployment_months", "usage_pattern", "inference_engine",
                  "quantization_validated", "workload")
"""Setup fields in the contract's order (the order of `setup()`)."""

_PARSERS = {"ownership": sp.parse_ownership, "utilization": sp.parse_utilization,
            "latency_p95": sp.parse_latency_p95, "location": sp.parse_location,
            "interconnect": sp.parse_interconnect, "operations": sp.parse_operations,
            "host": sp.parse_host}


class SetupInterview:
    """The audit interview's state: the setup answered so far, and which questions are done."""

    def __init__(self, lang: str = "en", models: dict[str, str] | None = None,
                 gpus: dict[str, str] | None = None) -> None:
        self.lang = "de" if lang == "de" else "en"
        self.models = models or aliases.DEFAULT_MODEL_ALIASES
        self.gpus = gpus or sp.DEFAULT_GPU_ALIASES
        self.answers: dict = {}
        self.done: set[str] = set()

    def _applies(self, qid: str) -> bool:
        if qid in self.done:
            return False
        if qid == "workload":
            w = self.answers.get("workload") or {}
            return "model" not in w and "params_b" not in w
        if qid == "gpu":  # the count alone (after `/unset gpu`) does not answer it
            return "gpu" not in self.answers
        count = self.answers.get("count", 1)
        if qid == "interconnect" and not (isinstance(count, int) and count >= 2):
            return False
        return not any(f in self.answers for f in SETUP_FIELDS[qid])

    def next_question(self) -> Question | None:
        """The next question in `self.lang`, or None when every applicable one is answered."""
        qid = next((q for q in SETUP_ORDER if self._applies(q)), None)
        return question(qid, self.lang) if qid else None

    def answer(self, text: str) -> Reply:
        """Take the answer to the current question and move on."""
        q = self.next_question()
        t = nb.normalize(text)
        lang = lx.detect_lang(t, self.lang)
        if q is None:
            return Reply("unclear", None, reason=say(   # the session's language, as the frame around it
                "interview.setup.all_answered", self.lang),
                example="/set latency_p95_s 0.8")
        if lx.asks_help(t):
            return help_reply(q, self.lang)
        if lx.skips(t):
            return self._skip(q)
        got = self._parse(q.id, text, lang)
        if not got.ok:
            return Reply("unclear", q.id, reason=got.reason, example=got.example or q.example)
        fields = {**got.fields, **self._also_said(q.id, text, lang)}
        changed = self._merge(fields)
        self.done.add(q.id)
        return Reply("answer", q.id, describe_setup(fields, self.lang), changed, note=got.note)

    def _also_said(self, qid: str, text: str, lang: str) -> dict:
        """What an answer about the GPUs says besides (`2 H100 rented from AWS in Frankfurt`):
        ownership and location, read by their own parsers, which need a clear word or a place
        name (not a two-letter code)."""
        if qid != "gpu":
            return {}
        extra = {}
        for other in ("ownership", "location"):
            # a place only by its name: "us" and "de" are words too ("serving us", "de facto")
            said = re.sub(r"(?<![\w])\w{1,2}(?![\w])", " ", text) if other == "location" else text
            got = _PARSERS[other](said, lang)
            if got.ok and self._applies(other):
                extra.update(got.fields)
                self.done.add(other)
        return extra

    def _parse(self, qid: str, text: str, lang: str) -> Parsed:
        if qid == "gpu":
            return sp.parse_gpu(text, lang, gpus=self.gpus)
        if qid == "workload":
            got = parse_sentence(text, lang, models=self.models)
            if got.ok and not {"model", "params_b"} & got.fields.keys():
                self._merge({"workload": got.fields})  # kept; the model is asked for again
                return Parsed({}, False, say("interview.setup.which_model", lang),
                              "Llama 3.1 8B", lang=lang)
            return Parsed({"workload": got.fields}, lang=lang, note=got.note) if got.ok else got
        return _PARSERS[qid](text, lang)

    def _merge(self, fields: dict) -> dict:
        changed = {}
        for name, value in fields.items():
            if name == "workload":
                value = {**(self.answers.get("workload") or {}), **value}
                for a, b in (("model", "params_b"), ("requests_per_day", "requests_per_second")):
                    if b in fields["workload"]:
                        value.pop(a, None)
                    elif a in fields["workload"]:
                        value.pop(b, None)
            if self.answers.get(name) != value:
                changed[name] = value
            self.answers[name] = value
        return changed

    def _skip(self, q: Question) -> Reply:
        if not q.skippable:
            return Reply("unclear", q.id, reason=say("interview.setup.gpu_needed", self.lang),
                         example=q.example)
        self.done.add(q.id)
        return Reply("skip", q.id, say("interview.setup.skipped", self.lang))

    def set(self, name: str, value: object) -> dict:
        """Edit one setup field (`None` removes it and its question comes back)."""
        if value is None:  # any field present may go, even one the schema does not know
            self.done -= {q for q, names in SETUP_FIELDS.items() if name in names}
            return {name: None} if self.answers.pop(name, None) is not None else {}
        if name not in CONTRACT_ORDER:
            raise ValueError(f"unknown setup field {name!r}; allowed: {', '.join(CONTRACT_ORDER)}")
        return self._merge({name: value})

    def replace(self, setup: dict) -> None:
        """Take a whole setup mapping (a loaded file, or one edited with `/set`)."""
        self.answers = dict(setup)

    def setup(self) -> dict:
        """The answers as a CONTRACT setup mapping, in the contract's order."""
        known = [k for k in CONTRACT_ORDER if k in self.answers]
        return {k: self.answers[k] for k in known + [k for k in self.answers if k not in known]}

    def sentence(self) -> str:
        """One line describing the setup so far, `[…]` blanks for what is still open."""
        return render_setup(self.answers, self.lang, self.done)
