"""German texts render German values (issue 14: «sensitive», «other», "any", "monthly", "Schweregrad
warning" stood in German findings). One table, the message catalog's `value.FIELD.VALUE`
(expert/messages/values.py), serves every rule text and `gpu-expert explain`."""

from __future__ import annotations

import typing

from expert.inputs.agent_block import AgentLoop
from expert.engine.rulepack import CATEGORIES
from expert.engine.templates import render
from expert.messages import has
from expert.inputs.setup_file import Setup, Storage
from expert.inputs.workload import FineTuning, Workload

#: Values that read the same in German: precisions, engine and product names.
SAME_IN_GERMAN = {"fp32", "bf16", "fp16", "fp8", "int8", "int4", "mxfp4", "vllm", "tensorrt-llm", "sglang", "tgi",
                  "transformers"}


#: Input fields whose fact field has another name (expert/facts/input_facts.py).
FACT_FIELD = {(Storage, "type"): "storage_type", (FineTuning, "method"): "finetune_method",
              (FineTuning, "frequency"): "fine_tuning"}


def _literal_values(model) -> set[tuple[str, str]]:
    """(fact field, value) of every string Literal of `model`."""
    values: set[tuple[str, str]] = set()
    for name, field in model.model_fields.items():
        for arg in (field.annotation, *typing.get_args(field.annotation)):
            for inner in (arg, *typing.get_args(arg)):
                if typing.get_origin(inner) is typing.Literal:
                    values |= {(FACT_FIELD.get((model, name), name), v)
                               for v in typing.get_args(inner) if isinstance(v, str)}
    return values


def test_every_enum_value_of_the_input_files_has_a_german_word():
    values = set().union(*map(_literal_values, (Workload, Setup, Storage, FineTuning, AgentLoop)))
    assert ("kind", "coding") in values and ("routing", "round-robin") in values    # agents are covered
    assert ("training_gpus", "separate") in values and ("engine", "sglang") in values
    missing = sorted(f"value.{f}.{v}" for f, v in values if v not in SAME_IN_GERMAN and not has(f"value.{f}.{v}"))
    assert not missing, f"no German word for {missing}"


def test_every_category_and_severity_has_a_german_word():
    missing = [f"value.category.{c}" for c in CATEGORIES if not has(f"value.category.{c}")]
    missing += [f"severity.word.{s}" for s in ("info", "warning", "critical") if not has(f"severity.word.{s}")]
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
    from expert.engine.rule_base import load_rule_packs
    from expert.report.explain import explain_rule

    rule = next(r for p in load_rule_packs() for r in p.rules if r.id == "m4-regulated-data-hosted-abroad")
    assert "Kategorie Datensouveränität, Schweregrad kritisch" in explain_rule(rule, "de")
