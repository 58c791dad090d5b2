"""German texts render German values (issue 14: «sensitive», «other», "any", "monthly", "Schweregrad
warning" stood in German findings). One table, expert.vocabulary.VALUE_WORDS, serves every rule text."""

from __future__ import annotations

import typing

from expert.engine.rulepack import CATEGORIES
from expert.engine.templates import render
from expert.setup import Setup, Storage
from expert.vocabulary import VALUE_WORDS
from expert.workload import Workload

#: Values that read the same in German: precisions, engine and product names.
SAME_IN_GERMAN = {"fp32", "bf16", "fp16", "fp8", "int8", "int4", "vllm", "tensorrt-llm", "sglang", "tgi",
                  "transformers"}


def _literal_values(model) -> set[str]:
    values: set[str] = set()
    for field in model.model_fields.values():
        for arg in (field.annotation, *typing.get_args(field.annotation)):
            if typing.get_origin(arg) is typing.Literal:
                values |= {v for v in typing.get_args(arg) if isinstance(v, str)}
    return values


def test_every_enum_value_of_the_input_files_has_a_german_word():
    values = _literal_values(Workload) | _literal_values(Setup) | _literal_values(Storage)
    from expert.workload import FineTuning

    values |= _literal_values(FineTuning)
    missing = sorted(values - set(VALUE_WORDS["de"]) - SAME_IN_GERMAN)
    assert not missing, f"no German word for {missing}"


def test_every_category_and_severity_has_a_german_word():
    missing = [c for c in (*CATEGORIES, "classification", "recommendation", "info", "warning", "critical")
               if c not in VALUE_WORDS["de"]]
    assert not missing


def test_rule_texts_render_values_in_the_texts_language():
    fact = {"w": {"data": "sensitive", "sector": "other", "hosting": "any", "fine_tuning": "monthly",
                  "model": "llama-3.1-8b"}}
    text = "Daten «{w.data}» des Sektors «{w.sector}», Hosting {w.hosting}, Fine-Tuning {w.fine_tuning}, {w.model}"
    assert render(text, fact, "de") == ("Daten «sensibel» des Sektors «andere», Hosting keine Vorgabe, "
                                        "Fine-Tuning monatlich, llama-3.1-8b")
    assert render("{w.fine_tuning}, {w.data}", {"w": {"fine_tuning": "monthly", "data": "non_sensitive"}},
                  "en") == "monthly, non-sensitive"


def test_explain_in_german_names_category_and_severity_in_german():
    from expert.knowledge import load_rule_packs
    from expert.report.explain import explain_rule

    rule = next(r for p in load_rule_packs() for r in p.rules if r.id == "m4-regulated-data-hosted-abroad")
    assert "Kategorie Datensouveränität, Schweregrad kritisch" in explain_rule(rule, "de")
