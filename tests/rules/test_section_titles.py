"""Every section title a rule or the documents' pick cites is the documents' own heading, word for
word (issue 14: U1 was cited as "Konversationeller RAG-Agent", a heading that does not exist)."""

from __future__ import annotations

from pathlib import Path

import pytest

from expert.engine import load_packs

ROOT = Path(__file__).resolve().parents[2]
SEEDS = ROOT / "docs" / "sources"   # the two source documents (German originals)
TEXTS = {path.name[:3]: path.read_text(encoding="utf-8") for path in SEEDS.glob("*.txt")}
RULES = [rule for pack in load_packs([ROOT / "rules"]) for rule in pack.rules]


def _in_document(doc: str, title: str) -> bool:
    # 004 writes its questions over two lines: "Frage 1" / "Gebraucht oder neu?"
    pieces = title.split(": ", 1) if title.startswith("Frage ") else [title]
    return all(piece in TEXTS[doc] for piece in pieces)


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.id)
def test_every_cited_section_is_a_heading_of_the_document(rule):
    for part in rule.source.section.split(" / "):
        assert _in_document(rule.source.document, part.strip()), f"{rule.id}: {part!r} is not in {rule.source.document}"


def test_the_documents_pick_cites_real_headings():
    from expert.configurator.document import document_recommendation

    for workload in ({"model": "llama-3.1-8b"}, {"model": "llama-3.1-8b", "fine_tuning": "monthly"},
                     {"model": "qwen2.5-32b", "fine_tuning": "quarterly"}, {"model": "llama-3.1-70b"},
                     {"params_b": 50}, {"model": "llama-3.1-8b", "latency_target_s": 0.3}):
        text = document_recommendation(workload)
        titles = [piece.split('"')[1] for piece in text.split(" — ", 1)[1].split("; ")]
        assert titles and all(_in_document("000", t) for t in titles), text
    assert "Konversationeller" not in document_recommendation({"model": "llama-3.1-8b"})
    assert '"Konversationsagent mit RAG (Modell 7-13B)"' in document_recommendation({"model": "llama-3.1-8b"})
