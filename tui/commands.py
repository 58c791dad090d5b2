"""Slash commands (`/set latency 0.4`, `/save s.yaml`, …) and free-text what-if edits. No Textual.

`parse_command` splits a prompt line into a `Command`; `field_edit` turns `/set NAME VALUE` into
workload fields, reading the value with the interview's own parser where there is one (so
`/set fine_tuning monthly` and `/set latency 300 ms` work like answers). A free-text change typed
after the interview ("latency 0.3 s", "buy instead") is the interview's own (`expert.interview.whatif`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import yaml

from expert.interview import whatif
from expert.messages import t
from expert.interview.flow import WORKLOAD_FIELDS

from .set_errors import check_setup_field, check_workload_field, check_workload_path

COMMANDS = {
    "set": "/set FIELD VALUE",
    "unset": "/unset FIELD",
    "audit": "/audit [FILE.yaml]",
    "load": "/load FILE.yaml",
    "save": "/save FILE.yaml",
    "export": "/export FILE.md|.json",
    "lang": "/lang en|de",
    "cost": "/cost",
    "why": "/why",
    "explain": "/explain RULE-ID",
    "new": "/new",
    "help": "/help",
    "quit": "/quit",
}
"""Command name → usage, in the order the help screen lists them (what each does:
`chat.cmd.NAME` in `expert.messages`)."""

ALIASES: dict[str, tuple[str, str | None]] = {
    "model": ("model", "model"), "params": ("params_b", "model"), "params_b": ("params_b", "model"),
    "size": ("params_b", "model"), "requests": ("requests_per_day", "volume"),
    "volume": ("requests_per_day", "volume"), "requests_per_day": ("requests_per_day", "volume"),
    "rps": ("requests_per_second", None), "latency": ("latency_target_s", "latency"),
    "context": ("context_tokens", "context"), "fine_tuning": ("fine_tuning", "fine_tuning"),
    "finetuning": ("fine_tuning", "fine_tuning"), "ft": ("fine_tuning", "fine_tuning"),
    "data": ("data", "data"), "sector": ("sector", "sector"), "hosting": ("hosting", "hosting"),
    "deployment": ("deployment", "deployment"), "budget": ("budget", "budget"),
    "horizon": ("horizon_months", "horizon"), "growth": ("growth_params_b", "growth"),
    "site": ("site_country", "site_country"), "site_country": ("site_country", "site_country"),
}
"""Short names for `/set` → (workload field, interview question whose parser reads the value)."""

PARSERS = whatif.PARSERS
"""The parser of each interview question, shared with the interview's what-if reader."""


@dataclass(frozen=True)
class Command:
    """A parsed prompt line: `name` (without the slash) and the rest as `arg`."""

    name: str
    arg: str = ""


def parse_command(text: str) -> Command | None:
    """`/set latency 0.4` → Command("set", "latency 0.4"); None for an ordinary answer."""
    text = text.strip()
    if not text.startswith("/") or len(text) < 2:
        return None
    name, _, arg = text[1:].partition(" ")
    return Command(name.lower(), arg.strip())


def field_edit(arg: str, lang: str = "en") -> dict:
    """The workload fields for `/set NAME VALUE`; raises ValueError with a one-line reason. A dotted
    name sets one key of a section (`/set fine_tuning.epochs 2`, `/set ft.method qlora`)."""
    name, _, value = arg.strip().partition(" ")
    if not name or not value.strip():
        raise ValueError(t("chat.usage_example", lang, usage="/set FIELD VALUE", example="/set latency 0.4"))
    head, _, sub = name.lower().partition(".")
    field, qid = ALIASES.get(head, (head, None))
    if field not in WORKLOAD_FIELDS:
        raise ValueError(t("chat.set.unknown_field", lang, name=repr(name), names=", ".join(sorted(ALIASES))))
    if sub:
        return {field: _dotted(field, sub.split("."), value, lang)}
    if field == "site_country" and re.fullmatch(r"[A-Za-z]{2}", value.strip()):
        return {field: value.strip().upper()}   # an ISO code stays text (`NO` is Norway, not "no")
    if qid in PARSERS:
        # the interview's parser decides: what it refuses is refused here too (never set as text)
        got = PARSERS[qid](value, lang)
        if got.ok and got.fields:
            return dict(got.fields)
        if got.ok:
            return {field: None}    # "no requirement": the default applies
        raise ValueError(t("chat.set.refused", lang, reason=got.reason or t("chat.set.not_understood", lang),
                           name=name, example=got.example))
    try:
        got = yaml.safe_load(value)
    except yaml.YAMLError:
        got = value.strip()
    check_workload_field(field, got, lang)
    return {field: got}


def _dotted(field: str, path: list[str], value: str, lang: str) -> dict:
    """`/set fine_tuning.epochs 2` → `{epochs: 2}` (the part of `field` it changes; the interview
    merges it key by key), checked against the workload schema (QA 46 #3)."""
    try:
        got = yaml.safe_load(value)
    except yaml.YAMLError:
        got = value.strip()
    check_workload_path((field, *path), got, lang)
    for part in reversed(path[1:]):
        got = {part: got}
    return {path[0]: got}


what_if = whatif.what_if
"""A free-text change after the interview: `expert.interview.whatif.what_if` (kept here by name)."""


SETUP_ALIASES = {"precision": "workload.precision", "model": "workload.model",
                 "requests": "workload.requests_per_day", "engine": "inference_engine",
                 "utilization": "utilization.mean", "latency": "latency_p95_s"}
"""Short names for `/set` in an audit → the setup field (dotted path) they change."""


def setup_name(name: str) -> str:
    """The setup field path a `/set` name stands for (`precision` → `workload.precision`; `engine`
    → the setup's `engine` field where the schema has one, else `inference_engine`)."""
    from expert.inputs.setup_file import Setup

    if name == "engine" and "engine" in Setup.model_fields:
        return "engine"
    return SETUP_ALIASES.get(name, name)


def setup_edit(setup: dict, arg: str, lang: str = "en") -> dict:
    """`/set count 2` or `/set utilization.mean 0.6` on a setup mapping; returns the new mapping.
    An unknown field or a value of the wrong type raises ValueError naming the field."""
    from expert.interview.setup_flow import CONTRACT_ORDER

    name, _, value = arg.strip().partition(" ")
    if not name or not value.strip():
        raise ValueError(t("chat.usage_example", lang, usage="/set FIELD VALUE", example="/set count 2"))
    name = setup_name(name.lower())
    node, *path = name.split(".")
    from expert.inputs.setup_file import Setup

    if node not in CONTRACT_ORDER and node not in Setup.model_fields:
        raise ValueError(t("chat.set.unknown_setup_field", lang, name=repr(node),
                           names=", ".join(CONTRACT_ORDER)))
    out = yaml.safe_load(yaml.safe_dump(setup))
    target = out
    for part in [node, *path][:-1]:
        target = target.setdefault(part, {})
        if not isinstance(target, dict):
            raise ValueError(t("chat.set.not_a_mapping", lang, name=name))
    try:
        target[name.split(".")[-1]] = yaml.safe_load(value)
    except yaml.YAMLError:
        target[name.split(".")[-1]] = value.strip()
    check_setup_field(out, node, lang)
    return out
