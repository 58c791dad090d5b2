"""Issue 35 item 5: no English in German output, no offer id in a sentence. Every message key's German
text, and every line of the reports and chat cards rendered in German for the scenarios (advice, audit,
fine-tuning, agent loops, pools), is checked line by line against a stop-list of common English words
that are not German; the same lines in both languages name no offer id (docs/chat.md).

What is left out before the check: placeholders, code spans, URLs and DOIs, ids and field names
(`q4-have-sizing-validated`, `latency_target_s`), and the terms German text uses as they are (QUOTED).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from expert.messages import MESSAGES

ROOT = Path(__file__).resolve().parents[2]

STOP = frozenset("""
the and with without which within when where what this that these those from for of are be been not only
each per year years month months day days week weeks request requests answer answers first words complete
streamed as describes should must would could your you our their its at by to on or but if than then there
here has have had were can cannot does no yes default run runs
recommendation operations overprovisioning underprovisioning quantization classification cost homogeneous
""".split())
"""Common English words that are not German words ("in", "an", "so", "was", "will", "die" are), and the
rule categories' and pool kinds' English names."""
QUOTED = re.compile(r"Proof of Concept|Mixture-of-Experts")
"""English terms German text keeps as they are."""
SKIPPED = re.compile(r"gpu-expert [^;]*|\{[^}]*\}|`[^`]*`|https?://\S+|doi:\S+|\b[a-z0-9]+(?:[-_.:/][a-z0-9]+)+\b|\w+=[^,)]*|\w+…")


def english(line: str) -> list[str]:
    """The stop-list words in `line`, once ids, placeholders, URLs and quoted terms are left out."""
    clean = QUOTED.sub("", SKIPPED.sub("", line))
    return [w for w in re.findall(r"[^\W\d_]+", clean) if w in STOP]


def test_the_check_finds_english_and_passes_german():
    assert english("workload: latency_target_s (streamed: the first words)") == ["streamed", "the", "first", "words"]
    assert english("Hikube (as 000 describes the GPU)") == ["as", "describes", "the"]
    assert english("1 runs a year") == ["runs", "year"]
    assert english("Rat: fp8 an der eigenen Aufgabe prüfen; precision: fp16 festlegen (q2-int8-not-validated)") == []
    assert english("Quelle: 000, Phase 2, Proof of Concept") == []


@pytest.mark.parametrize("key", sorted(k for k, (en, de) in MESSAGES.items() if en != de))
def test_no_message_key_is_english_in_german(key):
    assert english(MESSAGES[key][1]) == [], MESSAGES[key][1]


def _inputs() -> list[tuple[str, str, dict]]:
    """(name, "advise" | "audit", input) of every scenario and example: advice, audit, fine-tuning,
    agent loops and pools."""
    out = []
    for path in sorted((ROOT / "tests" / "scenarios").glob("*.scenario.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        if "workload" in data and path.name.startswith("advise-"):
            out.append((path.name, "advise", data["workload"]))
        elif "setup" in data:
            out.append((path.name, "audit", data["setup"]))
    for path in sorted((ROOT / "examples").glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        out.append((path.name, "audit" if "gpu" in data else "advise", data))
    return out


def _lines(expert, kind: str, data: dict, lang: str = "de") -> list[str]:
    """Every line a user sees of one input in `lang`: the report as text and as Markdown (the chat's
    export), the chat's answer card, rule cards, cost summary and cost chart."""
    from expert.report.render import render
    from tui.costs import chart, summary
    from tui.widgets.cards import RuleCard
    from tui.widgets.recommendation import RecommendationCard

    report = getattr(expert, kind)(data, lang)
    lines = render(report, "text").splitlines() + render(report, "markdown").splitlines()
    lines += RecommendationCard.body(report, lang, changed=True).plain.splitlines()
    for finding in report.findings:
        lines += RuleCard.explanation(finding, report.fired_rules, lang).plain.splitlines()
    if report.recommendation is not None:
        lines += summary(report, lang).splitlines() + chart(report, lang).splitlines()
    return lines


def test_no_report_line_is_english_in_german():
    from expert.api import Expert

    expert = Expert()
    inputs = _inputs()
    assert {kind for _, kind, _ in inputs} == {"advise", "audit"} and len(inputs) > 100
    found = {}
    for name, kind, data in inputs:
        for line in _lines(expert, kind, data):
            if english(line):
                found.setdefault(line.strip()[:160], (name, english(line)))
    assert found == {}


def test_no_offer_id_in_a_sentence():
    """Sentences name an offer by its provider (`2× l40s (RunPod, fp8)`); the ids (`runpod-secure-l40s`)
    stay in the JSON. Once seen: sensitivity lines, pools, the fine-tuning plan, nothing-fits."""
    from expert.api import Expert

    expert = Expert()
    ids = sorted(expert.catalog.offers, key=len, reverse=True)
    offer_id = re.compile(r"(?<![\w:-])(" + "|".join(map(re.escape, ids)) + r")(?![\w-])")
    assert offer_id.search("1× l40s (runpod-secure-l40s, fp8)") and not offer_id.search("1× l40s (RunPod, fp8)")
    found = {}
    for name, kind, data in _inputs():
        for lang in ("en", "de"):
            for line in _lines(expert, kind, data, lang):
                if offer_id.search(line):
                    found.setdefault(line.strip()[:160], name)
    assert found == {}


def test_no_rule_listing_or_explanation_is_english_in_german(capsys):
    """`gpu-expert rules --lang de` (once "[operations, warning]") and `explain RULE --lang de` of every rule."""
    from expert.cli.main import main
    from expert.engine.rule_base import load_rule_packs
    from expert.report.explain import explain_rule

    assert main(["rules", "--lang", "de"]) == 0
    listing = capsys.readouterr().out.splitlines()
    assert len(listing) > 100 and "[Betrieb, Warnung]" in "\n".join(listing)
    lines = listing + [line.split(";")[0] if line.strip().startswith("Quelle:") else line   # a reference after
                       for pack in load_rule_packs(()) for rule in pack.rules                # ";" is cited as written
                       for line in explain_rule(rule, "de").splitlines()]
    assert {line.strip()[:160]: english(line) for line in lines if english(line)} == {}
