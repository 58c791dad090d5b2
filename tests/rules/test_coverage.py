"""Every claim and every section of the two source documents is cited by a rule or a catalog entry.

A rule cites through `source` (document, section path, claim ids such as "M5, X4"); a catalog entry
(knowledge/*.yaml) cites in its text (claim ids such as "000 T1" or "G5-premium", section names).
The test fails when an inventory item of D, G, U, M, R, T, Q or C, or a section heading of document
000 or 004, is cited by nothing; when a rule cites an unknown claim id or a section that is not a
heading of its document; when a rule tests a fact field that `expert/facts/vocabulary.py` does not list;
and when docs/coverage.md no longer matches the rules or the trigger / near-miss table of
test_inventory_items.py. Regenerate that file with

    PYTHONPATH=. python tests/rules/test_coverage.py
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from expert.engine import load_packs  # noqa: E402
from expert.engine.checks import positive_aliases  # noqa: E402
from expert.engine.rulepack import AnyOf, Not, Pattern  # noqa: E402
from expert.engine.templates import placeholders  # noqa: E402
from expert.facts.vocabulary import INPUT_FACTS  # noqa: E402

RULES_DIR = ROOT / "rules"
KNOWLEDGE_DIR = ROOT / "knowledge"
COVERAGE_MD = ROOT / "docs" / "coverage.md"
SEEDS = ROOT / "docs" / "sources"   # the two source documents (German originals)

#: The inventory (docs/knowledge-inventory.md), one short line per item.
INVENTORY: dict[str, str] = {
    "D1": "Weights: 7B 14–16 GB FP16 / 7–8 GB INT8; 13B 26–28 GB; 34B > 68 GB → 80 GB; 70B > 140 GB → multi-GPU",
    "D2": "Inference vs fine-tuning: fine-tuning 3–4× memory, needs bandwidth",
    "D3": "Capacity = rps × inference time / target utilisation (50 × 0.8 / 0.7 ≈ 57 → 2–3 GPUs)",
    "D4": "Capex/opex, 350–700 W power and cooling, frameworks, Swiss hosting under revDSG",
    "D5": "The clarification sentence",
    "G1": "A100 specifications",
    "G2": "A100 positioning: 7–34B, inference + occasional fine-tuning, 1200–1800 CHF/month",
    "G3": "H100 specifications, Transformer Engine +30–60 % (20–50 % observed)",
    "G4": "H100 gains: 2.8× fine-tuning 70B, +40–60 % INT8 inference",
    "G5": "H100 justified: > 40B, monthly fine-tuning of complex models, < 500 ms; 1800–2400 CHF, +30–50 %",
    "G6": "L40S specifications, GDDR6 bandwidth",
    "G7": "L40S positioning: 7–20B inference, not intensive fine-tuning > 20B, 700–1000 CHF",
    "G8": "Energy: 350/400/700 W, 4× L40S = 2× H100, several thousand CHF over 36 months",
    "G9": "Comparison table = one Swiss provider's catalog prices (table missing)",
    "G10": "RTX A6000/A5000: workstations, prototyping; no NVLink (as stated)",
    "G11": "RTX 4090: no DC drivers, no ECC, limited warranty → not for critical production",
    "G12": "MI300X 192 GB, ROCm less mature; Gaudi for training; NVIDIA ~90 %",
    "G13": "Entry vs high-end: cost differences up to 3×",
    "U1": "Conversational RAG agent 7–13B: L40S for inference, A100 when retrained",
    "U2": "Analytical agent 13–34B: A100 80 GB vs H100 (2.8×, 150 CHF/h, 20 h)",
    "U3": "Multimodal 70B+: multi-GPU; H100 15 → 5 days; multi-A100 under budget pressure",
    "U4": "Multi-agent: homogeneous GPU pools",
    "M1": "Mistake 1: precautionary overprovisioning (< 40 %)",
    "M2": "Mistake 2: underestimating fine-tuning (L40S 3–4× slower, team time)",
    "M3": "Mistake 3: bottlenecks outside the GPU (32/64 cores, RAM 1:4, NVMe 3000 MB/s, 25/100 Gbps)",
    "M4": "Mistake 4: data sovereignty (location, ISO 27001, Swiss seat, clauses, HDS note)",
    "M5": "Mistake 5: model growth (30–50 % reserve, 24 GB instead of 16 GB)",
    "R1": "Phase 1: audit and needs, regulatory assessment, measure infrastructure",
    "R2": "Phase 2: proof of concept, 60–80 % target, 30 % unused, P95 over target, vLLM/INT8 ×2",
    "R3": "Phase 3: single GPU, homogeneous multi-GPU, hybrid 20–30 %, network 25/100 Gbps",
    "R4": "Phase 4: dashboards, < 50 % downgrade, > 85 % scale, day/night, VRAM 6 months ahead, 15–20 %",
    "T1": "TCO assumptions: 24/7, 0.18 CHF/kWh, PUE 1.5, +15 % infrastructure",
    "T2": "L40S TCO 48 % below A100, 61 % below H100 (pure inference)",
    "T3": "Hybrid 2× L40S + 2× A100 saves 57 572 CHF over 36 months",
    "T4": "Purchase prices and break-even months",
    "T5": "Buy ≥ 24 months at > 80 %; rent < 18 months or fluctuating; obsolescence, resale 30–40 %",
    "Q1": "Software optimisation 2–3× before premium hardware",
    "Q2": "Quantisation: INT8 < 3 %, INT4 5–8 % needs validation; VRAM ÷ 2–4",
    "Q3": "Data sovereignty favours Swiss hosting",
    "Q4": "Summary (L40S / A100 / H100) and disclaimer: have a cloud architect validate",
    "C1": "Eight packages; prices volatile, hardware net, build and operation separate",
    "C2": "Used A100 vs new RTX PRO 6000 (no NVLink)",
    "C3": "PCIe grows stepwise vs SXM4/HGX bought fully populated",
    "C4": "Total VRAM decides which models run",
    "C5": "Used A100 packages 1–4",
    "C6": "New RTX PRO 6000 packages N1–N4; no NVLink note",
    "C7": "Throughput by TP degree: TP4 gap 15–20 %, TP8 30–40 % (often not worth it)",
    "C8": "NVLink ~0.92×/card, PCIe 0.70–0.78×; 4-GPU PCIe benchmark 61–74 %",
    "C9": "TP is for fitting; throughput is the bonus; TP8 communication tax",
    "X1": "Missing tables in 000 and 004",
    "X2": "Provider prices derived from T2, T3, T4",
    "X3": "'2.15× the A100 80GB' is 1.64× (2.15× vs the 40 GB)",
    "X4": "'24 GB allows 13B' only with quantisation",
    "X5": "Flat 0.92/card vs the TP4/TP8 rows",
    "X6": "A6000 has a 2-card NVLink bridge",
}
REQUIRED_CLAIM_GROUPS = "DGUMRTQC"   # X items are handled honestly too, but not required here

#: Section headings of each document that must be cited, as written in the document.
HEADINGS: dict[str, list[str]] = {
    "000": [
        "Einleitung",
        "Den Bedarf vor der Hardware verstehen",
        "Die vier Dimensionen der GPU-Dimensionierung",
        "Erste Dimension: die Grösse des Sprachmodells",
        "Zweite Dimension: die vorgesehene Art der Operation",
        "Dritte Dimension: Anfragevolumen und Ziellatenz",
        "Vierte Dimension, die betrieblichen Vorgaben",
        "Methodik der Bedarfsklärung",
        "Technischer Blick auf die Rechenzentrums-GPUs",
        "NVIDIA A100, die vielseitige Referenz-GPU",
        "Technische Merkmale im Detail",
        "Optimale Anwendungsfälle",
        "NVIDIA H100: rohe Leistung für intensive Lasten",
        "Fortgeschrittene technische Merkmale",
        "Gemessene Leistungsgewinne",
        "Anwendungsfälle, welche die Investition rechtfertigen",
        "NVIDIA L40S: die auf Inferenz optimierte Alternative",
        "Besondere technische Merkmale",
        "Technische Positionierung",
        "Energetischer Vorteil",
        "Technische Vergleichstabelle",
        "Überblick über die GPU-Alternativen",
        "Professionelle NVIDIA-GPUs",
        "Consumer-GPUs der RTX-40-Reihe",
        "Alternativen von AMD und Intel",
        "Anwendungsfälle und wirtschaftliche Abwägungen",
        "Konversationsagent mit RAG (Modell 7-13B)",
        "Analytischer Agent (Modell 13-34B)",
        "Komplexer multimodaler Agent (Modell ab 70B)",
        "Multi-Agenten-Architektur",
        "Die zu vermeidenden Fehler",
        "Fehler 1, vorsorgliche Überdimensionierung",
        "Fehler 2: den Fine-Tuning-Bedarf unterschätzen",
        "Fehler 3, Engpässe ausserhalb der GPU ignorieren",
        "Fehler 4, die Datensouveränität vernachlässigen",
        "Fehler 5, die Entwicklung der Modelle vergessen",
        "Einführung im Unternehmen: praktischer Leitfaden",
        "Phase 1, Audit und Bedarfsklärung (2-4 Wochen)",
        "Phase 2, Proof of Concept und technische Validierung (2-4 Wochen)",
        "Phase 3: Einführung und Architektur (4-8 Wochen)",
        "Phase 4: Governance und laufende Optimierung",
        "TCO-Analyse und wirtschaftliche Überlegungen",
        "Gesamtbetriebskosten über 36 Monate",
        "Multi-GPU-Konfiguration: Kostenstrategien",
        "Break-even: mieten oder kaufen",
        "Folgen und Ausblick",
        "Was diese Abwägungen für Organisationen ändern",
        "Beobachtete Trends und erwartete Entwicklungen",
        "Erster Trend, die Software-Optimierung holt die Hardware ein",
        "Zweiter Trend: Quantisierung wird zum Standard",
        "Dritter Trend: die Datensouveränität setzt sich durch",
        "Fazit: ein unverzichtbar gewordener Beschleuniger",
    ],
    "004": [
        "Hardware-Empfehlung: Lokale KI-Infrastruktur",
        "1 · Die zentrale Entscheidung",
        "Drei Weichenstellungen vor der Paketauswahl",
        "Frage 1: Gebraucht oder neu?",
        "Frage 2 · bei gebrauchter Hardware: PCIe oder SXM4/HGX?",
        "Frage 3: Wie viele GPUs?",
        "2 · Überblick",
        "Paketvergleich",
        "3 · Stücklisten",
        "Pakete einzeln im Detail",
        "Hintergrund",
        "Durchsatz nach Server-Art",
    ],
}
#: Paragraph labels inside sections: allowed as the last part of a section path, not required.
LABELS: dict[str, list[str]] = {
    "000": [
        "Beobachtetes Symptom", "Gemessene Folge", "Folge", "Regulatorische Folge",
        "Empfohlene Lösung", "Lösung", "Empfohlene Mindestspezifikationen",
        "Empfohlene Konfigurationen", "Analyse", "Empfohlene Konfiguration nach Grösse",
        "Wirtschaftliche Analyse", "Typische Konfigurationen", "Empfehlung",
        "Beobachtete Strategien", "Die Anwendungsfälle erfassen",
        "Die regulatorischen Vorgaben beurteilen", "Die bestehende Infrastruktur prüfen",
        "Erwartete Ergebnisse", "Vorgehen", "Zu messende Kennzahlen", "Entscheid", "Gute Praxis",
        "Single-GPU-Architektur", "Homogene Multi-GPU-Architektur", "Hybride Architektur",
        "Empfehlung zum Netz", "Laufendes Monitoring", "Quartalsweise Überprüfung",
        "Entwicklung der Modelle", "Kostensteuerung", "Rechenannahmen",
        "Single-GPU-Konfiguration über 36 Monate",
        "Szenario, 4 GPUs für eine Multi-Agenten-Architektur", "Hybride Strategie im Detail",
        "Geschätzte Anschaffungskosten (nur Hardware)",
        "Ungefährer Break-even (ohne Infrastruktur-, Strom- und Wartungskosten)",
        "Vor dem Kauf zu bedenkende Faktoren", "Wichtiger Hinweis",
    ],
    "004": ["Gebrauchte Hardware · NVIDIA A100", "Neue Hardware · RTX PRO 6000 Blackwell, 96 GB"],
}

CLAIM_RE = re.compile(r"(?<![A-Za-z0-9])([DGUMRTQCX]\d{1,2})(?![0-9])")
# In catalog text an id counts only where it reads as a citation ("000 T1", "T2a:", "G5-premium",
# "(000 T1, T2, T3)", "inventory X6"), not as a product or a quarter ("Q1 2025").
CATALOG_CLAIM_RE = re.compile(
    r"(?:(?<=000 )|(?<=004 )|(?<=inventory )|(?<=, ))([DGUMRTQCX]\d{1,2})(?![0-9])"
    r"|(?<![A-Za-z0-9])([DGUMRTQCX]\d{1,2})(?=[ab]?[:)\-–,])")


# ------------------------------------------------------------------ collection
def rules():
    return [rule for pack in load_packs([RULES_DIR]) for rule in pack.rules]


def rule_claims(rule) -> list[str]:
    return CLAIM_RE.findall(rule.source.claim or "")


def section_parts(section: str) -> list[str]:
    return [part.strip().rstrip(".").strip() for part in section.split(" / ")]


def catalog_texts() -> dict[str, str]:
    return {path.name: path.read_text(encoding="utf-8")
            for path in sorted(KNOWLEDGE_DIR.glob("*.yaml"))}


def catalog_claims(text: str) -> set[str]:
    return {a or b for a, b in CATALOG_CLAIM_RE.findall(text)} & set(INVENTORY)


def claim_index() -> dict[str, tuple[list[str], list[str]]]:
    """Inventory id → (rule ids citing it, catalog files citing it)."""
    by_rule: dict[str, list[str]] = {item: [] for item in INVENTORY}
    for rule in rules():
        for item in rule_claims(rule):
            if item in by_rule and rule.id not in by_rule[item]:
                by_rule[item].append(rule.id)
    by_file = {item: [] for item in INVENTORY}
    for name, text in catalog_texts().items():
        for item in sorted(catalog_claims(text)):
            by_file[item].append(name)
    return {item: (by_rule[item], by_file[item]) for item in INVENTORY}


def heading_index() -> dict[tuple[str, str], tuple[list[str], list[str]]]:
    """(document, heading) → (rule ids citing it, catalog files naming it)."""
    texts = catalog_texts()
    out = {}
    all_rules = rules()
    for doc, headings in HEADINGS.items():
        for heading in headings:
            cited = [r.id for r in all_rules if r.source.document == doc
                     and heading in section_parts(r.source.section)]
            files = [name for name, text in texts.items() if heading in text]
            out[(doc, heading)] = (cited, files)
    return out


# ------------------------------------------------------------------ coverage.md
def render_coverage() -> str:
    lines = [
        "# Coverage of the source documents",
        "",
        "Generated by `tests/rules/test_coverage.py` (run `PYTHONPATH=. python "
        "tests/rules/test_coverage.py` after changing rules). Every item of the knowledge inventory "
        "and every section heading of documents 000 and 004 maps to the rules that cite it (their "
        "`source`) and to the catalog files (`knowledge/*.yaml`) whose text cites it. The test fails "
        "if an item of D, G, U, M, R, T, Q or C, or a heading, is cited by nothing. The catalog "
        "column is informative (colleagues edit those files); the rule column is checked.",
        "",
        "## Inventory items",
        "",
        "| item | claim | rules | catalog |",
        "|---|---|---|---|",
    ]
    for item, (cited, files) in claim_index().items():
        lines.append(f"| {item} | {INVENTORY[item]} | {_ids(cited)} | {', '.join(files) or '—'} |")
    lines += ["", "## Section headings", "", "| document | heading | rules | catalog |",
              "|---|---|---|---|"]
    for (doc, heading), (cited, files) in heading_index().items():
        lines.append(f"| {doc} | {heading} | {_ids(cited)} | {', '.join(files) or '—'} |")
    from test_inventory_items import INVENTORY_TESTS  # the trigger / near-miss table, tested there

    lines += ["", "## Trigger and near-miss tests", "",
              "Each item fires in one scenario of `tests/rules/test_rules_fire.py` and stays silent in the "
              "nearest one where the documents say it should not (`tests/rules/test_inventory_items.py`).",
              "", "| item | rule | fires in | silent in |", "|---|---|---|---|"]
    lines += [f"| {item} | `{rule}` | {fires} | {silent} |"
              for item, (rule, fires, silent) in INVENTORY_TESTS.items()]
    counts = {}
    for rule in rules():
        counts[rule.category] = counts.get(rule.category, 0) + 1
    lines += ["", "## Rules by category", "", "| category | rules |", "|---|---|"]
    lines += [f"| {cat} | {n} |" for cat, n in sorted(counts.items())]
    return "\n".join(lines) + "\n"


def _ids(ids: list[str]) -> str:
    return ", ".join(f"`{i}`" for i in ids) or "—"


def _rule_column(markdown: str) -> dict[str, set[str]]:
    """First column (item or 'doc heading') → the rule ids of the table row."""
    out = {}
    for line in markdown.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 4 and cells[0] not in ("item", "document", "---") and "`" not in cells[1]:
            key = cells[0] if cells[0] in INVENTORY else f"{cells[0]} {cells[1]}"
            out[key] = set(re.findall(r"`([a-z0-9-]+)`", cells[2]))
    return out


# ------------------------------------------------------------------ tests
def test_every_inventory_item_is_cited():
    missing = [item for item, (cited, files) in claim_index().items()
               if item[0] in REQUIRED_CLAIM_GROUPS and not cited and not files]
    assert not missing, f"inventory items cited by no rule or catalog entry: {missing}"


def test_every_required_item_has_a_rule():
    """Stricter than the contract: the rules alone cover D, G, U, M, R, T, Q and C (and X)."""
    missing = [item for item, (cited, _) in claim_index().items() if not cited]
    assert not missing, f"inventory items no rule cites: {missing}"


def test_every_heading_is_cited():
    missing = [f"{doc}: {heading}" for (doc, heading), (cited, files) in heading_index().items()
               if not cited and not files]
    assert not missing, f"section headings cited by no rule or catalog entry: {missing}"


def test_rule_sources_name_real_claims_and_sections():
    for rule in rules():
        source = rule.source
        assert source.document in HEADINGS, f"{rule.id}: unknown document {source.document}"
        claims = rule_claims(rule)
        assert claims, f"{rule.id}: source.claim names no inventory id"
        unknown = [c for c in claims if c not in INVENTORY]
        assert not unknown, f"{rule.id}: unknown claim ids {unknown}"
        assert claims[0][0] != "X", f"{rule.id}: the primary claim must be a document claim"
        known = set(HEADINGS[source.document]) | set(LABELS[source.document])
        parts = section_parts(source.section)
        strange = [p for p in parts if p not in known]
        assert not strange, f"{rule.id}: not a heading of {source.document}: {strange}"
        assert parts[0] in HEADINGS[source.document], f"{rule.id}: path must start at a heading"


def test_headings_are_quoted_from_the_documents():
    texts = {path.name[:3]: path.read_text(encoding="utf-8") for path in SEEDS.glob("*.txt")}
    assert sorted(texts) == ["000", "004"], sorted(texts)
    for doc in HEADINGS:
        for heading in HEADINGS[doc] + LABELS[doc]:
            # 004 writes its questions over two lines: "Frage 1" / "Gebraucht oder neu?"
            pieces = heading.split(": ", 1) if heading.startswith("Frage ") else [heading]
            for piece in pieces:
                assert piece in texts[doc], f"{doc}: not in the document: {piece!r}"


def test_rules_test_only_vocabulary_fields():
    for rule in rules():
        kinds: dict[str, str] = {}
        for cond in rule.when:
            patterns = [cond.not_] if isinstance(cond, Not) else (
                cond.any if isinstance(cond, AnyOf) else [cond])
            for pattern in patterns:
                alias = getattr(pattern, "as_", None)
                if alias:
                    kinds.setdefault(alias, pattern.fact)
                if pattern.fact not in INPUT_FACTS:
                    continue
                for field in pattern.where:
                    assert field in INPUT_FACTS[pattern.fact], \
                        f"{rule.id}: {pattern.fact}.{field} is not in expert/facts/vocabulary.py"
        for text in (rule.title, rule.explanation, rule.advice):
            for lang in ("en", "de"):
                for placeholder in placeholders(getattr(text, lang)):
                    kind = kinds.get(placeholder.alias)
                    if kind in INPUT_FACTS:
                        assert placeholder.field in INPUT_FACTS[kind], \
                            f"{rule.id}: {{{placeholder.path}}} is not in expert/facts/vocabulary.py"
        assert set(kinds) >= set(positive_aliases(rule))


def test_coverage_md_matches_the_rules():
    assert COVERAGE_MD.exists(), "docs/coverage.md is missing: run this file to generate it"
    written = _rule_column(COVERAGE_MD.read_text(encoding="utf-8"))
    expected = _rule_column(render_coverage())
    stale = sorted(key for key in expected if written.get(key) != expected[key])
    text = COVERAGE_MD.read_text(encoding="utf-8")
    new = render_coverage()
    tests_section = new[new.index("## Trigger and near-miss tests"):new.index("## Rules by category")]
    if tests_section not in text:
        stale.append("Trigger and near-miss tests")
    assert not stale, (f"docs/coverage.md is stale for {stale[:5]}…; regenerate with "
                       "`PYTHONPATH=. python tests/rules/test_coverage.py`")


if __name__ == "__main__":
    COVERAGE_MD.parent.mkdir(parents=True, exist_ok=True)
    COVERAGE_MD.write_text(render_coverage(), encoding="utf-8")
    print(f"wrote {COVERAGE_MD}")
