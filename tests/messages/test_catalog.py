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
             ROOT / "expert/configurator/candidates.py", ROOT / "expert/configurator/search.py"]
"""Modules whose words all come from the catalog (besides the chat in `tui/`)."""


def _keys_used() -> set[str]:
    """Every literal key passed to `t(...)` in the chat, the report and the converted modules."""
    used = set()
    for path in [*ROOT.glob("tui/**/*.py"), *ROOT.glob("expert/report/*.py"), *CONVERTED]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and getattr(node.func, "id", None) in ("t", "msg")
                    and node.args and isinstance(node.args[0], ast.Constant)):
                used.add(node.args[0].value)
    return used


def test_every_key_the_code_uses_is_in_the_catalog():
    used = _keys_used()
    assert len(used) > 40                                      # the scan does find the calls
    assert sorted(k for k in used if not has(k)) == []


def test_no_language_branches_left_in_the_chat_and_the_report_words():
    """The UI and report words come from the catalog, not from `if lang == "de"` branches or
    per-module word tables."""
    for path in [*ROOT.glob("tui/**/*.py"), *CONVERTED]:
        text = path.read_text(encoding="utf-8")
        # `"de" if lang == "de" else "en"` only normalizes the language; words are never chosen so
        assert not re.search(r'if (lang == "de"|de)( else (?!"en")|:)', text), path
        assert not re.search(r"^(LABELS|WORDS|_T) = \{", text, re.M), path
        # no inline pair of texts either: `{"en": f"...", "de": f"..."}`
        assert not re.search(r'"en": f?"[^"]*[A-Za-z]+ [A-Za-z]+', text), path


def test_explain_names_the_severity_in_german():
    # `gpu-expert explain RULE --lang de` once printed "Schweregrad warning"
    from expert.knowledge import load_rule_packs
    from expert.report.explain import explain_rule

    rules = {r.severity: r for pack in load_rule_packs(()) for r in pack.rules}
    text = explain_rule(rules["warning"], "de")
    assert "Schweregrad Warnung" in text and "warning" not in text.splitlines()[1]
    assert "severity warning" in explain_rule(rules["warning"], "en")
