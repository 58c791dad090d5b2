"""Evaluation through the facade: chaining trace, findings in both languages, determinism."""

from __future__ import annotations

import json

import pytest

from expert.engine import Evaluation, evaluate, prepare
from expert.engine.loader import parse_pack
from expert.errors import EngineError, InputError

AUDIT_ORDER = [
    "usecase-conversational", "data-regulated", "growth-expected", "high-end-gpu",
    "underprovisioned-latency", "finetuning-underestimated", "storage-bottleneck",
    "cpu-bottleneck", "data-abroad", "no-monitoring", "missing-certification",
    "overprovisioned-high-end", "recommend-rightsizing", "multi-gpu-needed", "growth-no-headroom",
    "pcie-multi-gpu", "recommend-quantization", "rent-vs-buy",
]


def inline(*rules: dict):
    """A RuleBase from rule dicts (title/texts/source filled in when absent)."""
    full = [{"title": {"en": "t", "de": "t"}, "category": "operations",
             "source": {"document": "000", "section": "s"},
             "explanation": {"en": "e", "de": "e"}, "advice": {"en": "a", "de": "a"}, **rule}
            for rule in rules]
    return prepare([parse_pack({"pack": "inline", "rules": full}, "inline")])


def test_chaining_three_levels_in_firing_order(rulebase) -> None:
    result = evaluate(rulebase("chain"), [{"t": "input", "name": "job-1"}])
    assert [f.as_dict() for f in result.fired] == [
        {"rule_id": "chain-a", "matched": {"i": {"t": "input", "name": "job-1"}},
         "derived": [{"t": "stage", "step": 1, "origin": "job-1"}]},
        {"rule_id": "chain-b", "matched": {"a": {"t": "stage", "step": 1, "origin": "job-1"}},
         "derived": [{"t": "stage", "step": 2, "origin": "job-1"}]},
        {"rule_id": "chain-c", "matched": {"b": {"t": "stage", "step": 2, "origin": "job-1"}},
         "derived": [{"t": "done", "from": "job-1"}]},
    ]
    assert result.derived == [{"t": "stage", "step": 1, "origin": "job-1"},
                              {"t": "stage", "step": 2, "origin": "job-1"},
                              {"t": "done", "from": "job-1"}]
    # chain-c is a recommendation and the others classifications: no findings
    assert result.findings == []


def test_audit_fires_the_expected_rules_in_order(twenty, audit_facts) -> None:
    result = evaluate(twenty, audit_facts)
    assert result.fired_ids() == AUDIT_ORDER
    silent = {"usecase-conversational", "data-regulated", "growth-expected", "high-end-gpu",
              "recommend-rightsizing", "multi-gpu-needed"}
    assert [f.rule_id for f in result.findings] == [r for r in AUDIT_ORDER if r not in silent]


def test_findings_are_rendered_in_english_and_german(twenty, audit_facts) -> None:
    en = {f.rule_id: f for f in evaluate(twenty, audit_facts, lang="en").findings}
    de = {f.rule_id: f for f in evaluate(twenty, audit_facts, lang="de").findings}
    idle = en["overprovisioned-high-end"]
    assert idle.as_dict() == {
        "rule_id": "overprovisioned-high-end", "category": "overprovisioning",
        "severity": "warning", "title": "High-end GPU runs mostly idle",
        "explanation": "h100-sxm runs at 35 % mean utilisation, under the 40 % measured for "
                       "idle high-end GPUs.",
        "advice": "Move to a smaller GPU class or consolidate workloads.",
        "source": {"document": "000", "section": "Die zu vermeidenden Fehler / Fehler 1"},
        "facts": {"s.utilization_mean": 0.35, "s.gpu": "h100-sxm"},
    }
    assert de["overprovisioned-high-end"].title == "High-End-GPU läuft meist im Leerlauf"
    assert en["rent-vs-buy"].explanation == \
        "Renting costs 2 310 CHF a month over 36 months (1.8× the purchase)."
    assert de["rent-vs-buy"].explanation == \
        "Miete kostet 2 310 CHF pro Monat über 36 Monate (1,8× des Kaufs)."
    assert de["underprovisioned-latency"].explanation == \
        "Gemessene p95-Latenz 2,50 s übersteigt das Ziel 2,00 s."
    assert de["recommend-quantization"].explanation.startswith("60,5 GB pro GPU")
    # without an explicit `facts` list, the finding shows the values its texts use
    assert en["growth-no-headroom"].facts == {"z.headroom": 0.1, "g.to_b": 70}


def test_trace_shows_chained_facts_and_fact_id(twenty, audit_facts) -> None:
    fired = {f.rule_id: f for f in evaluate(twenty, audit_facts).fired}
    assert fired["growth-expected"].matched["m"] == {"t": "model", "fact_id": "llama-3.1-8b",
                                                     "params_b": 8}
    assert fired["recommend-rightsizing"].matched == {
        "f": {"t": "flag", "name": "overprovisioned", "gpu": "h100-sxm"}}
    assert fired["recommend-rightsizing"].derived == [
        {"t": "recommendation", "action": "rightsize", "gpu": "h100-sxm"}]
    # unaliased patterns appear under their fact kind
    assert set(fired["data-abroad"].matched) == {"flag", "s"}


def test_healthy_setup_fires_the_negated_rule(twenty, healthy_facts) -> None:
    result = evaluate(twenty, healthy_facts)
    assert result.fired_ids() == ["usecase-batch", "utilisation-healthy"]
    assert result.findings[0].explanation == "l40s at 72 % mean utilisation."


def test_any_matching_through_two_branches_fires_once(twenty, audit_facts) -> None:
    # the workload is both sensitive and in the health sector: both branches of the `any` match
    assert evaluate(twenty, audit_facts).fired_ids().count("data-regulated") == 1


def test_a_rule_fires_once_per_distinct_combination_of_facts() -> None:
    base = inline({"id": "each-gpu", "when": [{"fact": "gpu", "as": "g"}]})
    result = evaluate(base, [{"t": "gpu", "name": "a"}, {"t": "gpu", "name": "b"}])
    assert [f.matched["g"]["name"] for f in result.fired] == ["a", "b"]


def test_join_reports_one_finding_for_all_firings_in_both_languages() -> None:
    # `then.join`: one finding at the first firing's place; the joined values are listed once each, in firing
    # order, written with the value words of the language ("large-model" -> "grosses Modell" in German)
    rule = {"id": "premium", "when": [{"fact": "flag", "as": "f", "where": {"name": "justified"}}],
            "then": {"join": ["f.reason"]},
            "explanation": {"en": "Justified by: {f.reason}.", "de": "Gerechtfertigt durch: {f.reason}."}}
    facts = [{"t": "flag", "name": "justified", "reason": r} for r in ("finetuning", "large-model")]
    base = inline({"id": "first", "when": [{"fact": "flag", "as": "f"}], "priority": 0,
                   "explanation": {"en": "{f.reason}", "de": "{f.reason}"}}, {**rule, "priority": 1})
    en = evaluate(base, facts, lang="en")
    assert en.fired_ids() == ["first", "premium", "first", "premium"]
    assert [f.rule_id for f in en.findings] == ["first", "premium", "first"]
    assert en.findings[1].explanation == "Justified by: fine-tuning, a large model."
    assert en.findings[1].facts == {"f.reason": ["finetuning", "large-model"]}
    de = evaluate(base, facts, lang="de")
    assert de.findings[1].explanation == "Gerechtfertigt durch: Fine-Tuning, grosses Modell."


def test_join_lists_a_value_shared_by_several_firings_once() -> None:
    rule = {"id": "per-gpu", "when": [{"fact": "gpu", "as": "g"}], "then": {"join": ["g.family"]},
            "explanation": {"en": "{g.family}", "de": "{g.family}"}}
    facts = [{"t": "gpu", "name": n, "family": f} for n, f in (("a", "h100"), ("b", "l40s"), ("c", "h100"))]
    result = evaluate(inline(rule), facts)
    assert [f.explanation for f in result.findings] == ["h100, l40s"]


def test_join_lists_list_values_too() -> None:
    rule = {"id": "certs", "when": [{"fact": "site", "as": "s"}], "then": {"join": ["s.certs"]},
            "explanation": {"en": "{s.certs}", "de": "{s.certs}"}}
    facts = [{"t": "site", "name": n, "certs": c} for n, c in (("a", ["iso27001"]), ("b", ["soc2"]), ("c", ["iso27001"]))]
    assert evaluate(inline(rule), facts).findings[0].facts == {"s.certs": [["iso27001"], ["soc2"]]}


def test_same_input_gives_identical_results_50_times(twenty, audit_facts) -> None:
    first = json.dumps(evaluate(twenty, audit_facts).as_dict(), sort_keys=True)
    for _ in range(50):
        assert json.dumps(evaluate(twenty, audit_facts).as_dict(), sort_keys=True) == first


def test_priority_orders_rules_matching_the_same_fact() -> None:
    rules = [{"id": f"p{n}", "priority": n, "when": [{"fact": "x"}]} for n in (3, 1, 2)]
    assert evaluate(inline(*rules), [{"t": "x"}]).fired_ids() == ["p1", "p2", "p3"]


def test_null_fields_are_absent() -> None:
    base = inline({"id": "no-growth", "when": [{"fact": "w", "where": {"growth": {"exists": False}}}]})
    assert evaluate(base, [{"t": "w", "growth": None}]).fired_ids() == ["no-growth"]
    assert evaluate(base, [{"t": "w", "growth": 70}]).fired_ids() == []


def test_packs_can_be_passed_uncompiled(twenty, audit_facts) -> None:
    assert evaluate(list(twenty.packs), audit_facts).fired_ids() == AUDIT_ORDER


def test_result_is_plain_json_data(twenty, audit_facts) -> None:
    result = evaluate(twenty, audit_facts)
    assert isinstance(result, Evaluation)
    data = json.loads(json.dumps(result.as_dict()))
    assert set(data) == {"lang", "fired", "findings", "derived"}
    assert set(data["fired"][0]) == {"rule_id", "matched", "derived"}
    text = json.dumps(data)
    assert '"_n"' not in text and '"sid"' not in text


@pytest.mark.parametrize(("fact", "reason"), [
    ({"name": "no kind"}, "needs a kind 't'"),
    ({"t": "Bad Kind"}, "needs a kind 't'"),
    ({"t": "phase", "name": "conclude"}, "needs a kind 't'"),
    ({"t": "x", "sid": "mine"}, "reserved key 'sid'"),
    ({"t": "x", "_n": 1}, "reserved key '_n'"),
    ({"t": "x", "id": 1, "fact_id": 2}, "both 'id' and 'fact_id'"),
    ({"t": "x", "v": float("nan")}, "not plain JSON data"),
    ({"t": "x", "v": object()}, "not plain JSON data"),
])
def test_malformed_facts_are_refused(twenty, fact: dict, reason: str) -> None:
    with pytest.raises(EngineError, match=reason):
        evaluate(twenty, [fact])


def test_unknown_language_is_bad_input(twenty) -> None:
    with pytest.raises(InputError, match="unknown language 'fr'"):
        evaluate(twenty, [], lang="fr")


@pytest.mark.parametrize(("test", "fact", "fires"), [
    ({"ne": "nvme"}, {"v": "hdd"}, True),
    ({"ne": "nvme"}, {"v": "nvme"}, False),
    ({"ne": "nvme"}, {}, False),  # documented: `ne` needs the field to exist
    ({"matches": "pcie.*"}, {"v": "pcie-bridge"}, True),
    ({"matches": "pcie"}, {"v": "pcie-bridge"}, False),  # whole value
    ({"matches": "PCIE.*"}, {"v": "pcie"}, False),  # case-sensitive
    ({"contains": "iso27001"}, {"v": ["soc2", "iso27001"]}, True),
    ({"contains": "iso27001"}, {"v": ["soc2"]}, False),
    ({"in": ["a", "b"]}, {"v": "b"}, True),
    ({"exists": True}, {"v": 0}, True),
    ({"exists": False}, {}, True),
    ({"gte": 2, "lt": 8}, {"v": 2.0}, True),
    ({"gte": 2, "lt": 8}, {"v": 8}, False),
    # engine quirks, documented in rules.md ("Keep types consistent"): loose comparisons
    ({"lt": 1}, {"v": "0"}, True),
    ({"gt": 1}, {"v": "abc"}, True),
    ("true", {"v": True}, True),
    (0, {"v": "0"}, False),
    (True, {"v": True}, True),
    (1, {"v": 1.0}, True),
])
def test_operator_semantics_documented_in_rules_md(test: object, fact: dict, fires: bool) -> None:
    base = inline({"id": "probe", "when": [{"fact": "x", "where": {"v": test}}]})
    assert evaluate(base, [{"t": "x", **fact}]).fired_ids() == (["probe"] if fires else [])
