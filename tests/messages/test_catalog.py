"""Issue 17: one message catalog behind one function, every key in both languages."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from expert.messages import MESSAGES, has, severity, t, value_word

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("key", sorted(MESSAGES))
def test_every_key_has_english_and_german(key):
    en, de = MESSAGES[key]
    assert en.strip() and de.strip(), key
    # the same placeholders in both languages: a value never goes missing in one of them
    assert set(re.findall(r"\{(\w+)\}", en)) == set(re.findall(r"\{(\w+)\}", de)), key


def test_t_fills_in_values_and_falls_back_to_english():
    assert t("chat.saved", "de", path="s.yaml") == "gespeichert in s.yaml"
    assert t("chat.saved", "fr", path="s.yaml") == "saved to s.yaml"
    with pytest.raises(KeyError):
        t("chat.no-such-key", "en")


def test_severity_and_value_words():
    assert severity("warning", "de") == "▲ WARNUNG" and severity("odd", "en") == "ODD"
    assert value_word("data", "sensitive", "de") == "sensibel"
    assert value_word("data", "sensitive", "en") is None      # English values are English words
    assert value_word("gpu", "h100-sxm", "de") is None         # ids are never translated


CONVERTED = [ROOT / "expert/report/render.py", ROOT / "expert/report/explain.py",
             ROOT / "expert/configurator/explain.py", ROOT / "expert/configurator/sensitivity.py",
             ROOT / "expert/configurator/pool_view.py", ROOT / "expert/configurator/pool_document.py",
             ROOT / "expert/configurator/training_view.py", ROOT / "expert/configurator/configure.py",
             ROOT / "expert/configurator/agents.py", ROOT / "expert/configurator/training_plan.py",
             ROOT / "expert/configurator/candidates.py", ROOT / "expert/configurator/enumeration.py",
             ROOT / "expert/engine/templates.py", *sorted(ROOT.glob("expert/interview/*.py"))]
"""Modules whose words all come from the catalog (besides the chat in `tui/`)."""

KEY_ARG = {"t": 0, "msg": 0}
"""Functions that take a catalog key, and the position of the key: `t`/`msg` (`expert.messages.t`)."""
PARSER_KEY_ARG = {**KEY_ARG, "say": 0, "fail": 2}
"""In the interview: also the parsers' `say(key, lang)` and `fail(qid, lang, key)`
(`expert.interview.result`; the chat's `say(kind, text)` is another function)."""


def _key_parts(node: ast.expr) -> list[ast.expr]:
    """A key argument's possible values: the key itself, or both sides of `a if … else b`."""
    return _key_parts(node.body) + _key_parts(node.orelse) if isinstance(node, ast.IfExp) else [node]


def _keys_used() -> set[str]:
    """Every literal key passed to `t(...)` (or `say`, `fail`) in the chat, the report and the
    converted modules."""
    used = set()
    for path in {*ROOT.glob("tui/**/*.py"), *ROOT.glob("expert/report/*.py"), *CONVERTED}:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            takes = PARSER_KEY_ARG if path.parent.name == "interview" else KEY_ARG
            at = takes.get(getattr(node.func, "id", None) or getattr(node.func, "attr", None))
            if at is not None and len(node.args) > at:
                used |= {k.value for k in _key_parts(node.args[at]) if isinstance(k, ast.Constant)}
    return used


def test_every_key_the_code_uses_is_in_the_catalog():
    used = _keys_used()
    assert len(used) > 200                                     # the scan does find the calls
    assert {"interview.reply.empty", "interview.note.range_upper", "interview.describe.setup.cores"} <= used
    assert sorted(k for k in used if not has(k)) == []


def test_no_key_is_defined_twice():
    """The tables are merged into one dict: a key in two tables would silently shadow one text."""
    from expert.messages import _TABLES

    assert sum(len(table) for table in _TABLES) == len(MESSAGES)


def test_no_language_branches_left_in_the_chat_and_the_report_words():
    """The UI and report words come from the catalog, not from `if lang == "de"` branches or
    per-module word tables."""
    for path in [*ROOT.glob("tui/**/*.py"), *CONVERTED]:
        text = path.read_text(encoding="utf-8")
        # `"de" if lang == "de" else "en"` only normalizes the language, `text.replace(".", ",") if
        # lang == "de" else text` writes a decimal comma; words are never chosen so
        assert not re.search(r'if (lang [=!]= "(de|en)"|(not )?de)( else (?!"en"|text\b)|:)', text), path
        assert not re.search(r"^_?(LABELS|WORDS|T|\w+_DE|\w+_EN) = \{", text, re.M), path
        # no inline pair of texts either: `{"en": f"...", "de": f"..."}`, `"en": ("...", …)`
        assert not re.search(r'"en": \(?f?"[^"]*[A-Za-z]+ [A-Za-z]+', text), path


def test_the_interview_says_its_words_by_key():
    """`say` and `fail` in the interview take a catalog key, never two texts: `say(lang, "…", "…")`
    would raise in a parser, and the parser's guard would hide it as "Could not read that."."""
    for path in ROOT.glob("expert/interview/*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            func = node.func if isinstance(node, ast.Call) else None
            name = func and (getattr(func, "id", None) or getattr(func, "attr", None))
            if name in ("say", "fail"):
                at = PARSER_KEY_ARG[name]
                key = node.args[at] if len(node.args) > at else None
                where = f"{path.name}:{node.lineno}"
                assert len(node.args) == {"say": 2, "fail": 3}[name], where   # (key, lang), (qid, lang, key)
                for part in _key_parts(key):
                    assert isinstance(part, (ast.Constant, ast.JoinedStr)), where
                    if isinstance(part, ast.Constant):
                        assert re.fullmatch(r"interview\.[a-z0-9_.]+", part.value), where


def test_explain_names_the_severity_in_german():
    # `gpu-expert explain RULE --lang de` once printed "Schweregrad warning"
    from expert.engine.rule_base import load_rule_packs
    from expert.report.explain import explain_rule

    rules = {r.severity: r for pack in load_rule_packs(()) for r in pack.rules}
    text = explain_rule(rules["warning"], "de")
    assert "Schweregrad Warnung" in text and "warning" not in text.splitlines()[1]
    assert "severity warning" in explain_rule(rules["warning"], "en")


def test_the_interview_keys_built_at_run_time_exist():
    """Keys the interview builds from a value (`question.{qid}.text`, `interview.word.{freq}`): the
    scan above cannot see them, so every value they are built from is tried here."""
    from expert.interview.workload_describe import FREQUENCIES, _PLAIN
    from expert.interview.parse import _FREQ
    from expert.interview.questions import ORDER
    from expert.interview.setup_questions import SETUP_ORDER

    keys = [f"question.{q}.{part}" for q in (*ORDER, *SETUP_ORDER) for part in ("text", "example", "help")]
    keys += [f"interview.describe.{name}" for name in _PLAIN] + [f"interview.word.{f}" for f in FREQUENCIES]
    keys += [f"interview.note.fine_tuning.{said}" for _, said, _ in _FREQ if said]
    keys += [f"interview.describe.setup.{name}_{answer}" for name in ("monitoring", "backups")
             for answer in ("yes", "no")]
    keys += ["value.bool.true", "value.bool.false"]
    keys += [f"interview.describe.allow_quantization_{v}" for v in ("true", "false")]
    assert len(keys) > 90 and [k for k in keys if not has(k)] == []


def test_no_key_binding_in_the_chat_has_a_literal_description():
    """Textual shows binding descriptions in the footer and the key panel: an English literal in
    `Binding(keys, action, "Close")` would stay English in a German chat (issue 17)."""
    literal = []
    for path in ROOT.glob("tui/**/*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Binding":
                described = node.args[2:3] + [k.value for k in node.keywords if k.arg == "description"]
                literal += [f"{path.name}:{node.lineno}" for d in described
                            if isinstance(d, ast.Constant) and d.value]
    assert literal == []
    from tui.bindings import lang_bindings

    assert [(b.action, b.description) for b in lang_bindings("y", "choose(True)", "key.resume")] == [
        ("choose(True,'en')", "Resume"), ("choose(True,'de')", "Fortsetzen")]
