"""The rule-pack format: what loads, and every rejection naming file, rule id, field and reason."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any, Callable

import pytest
import yaml

from expert.engine import load_pack, load_packs
from expert.engine.rulepack import AnyOf, Not, Ops, Pattern, Ref
from expert.errors import InputError

BASE: dict[str, Any] = {
    "pack": "sample",
    "description": "A valid pack that each case breaks in one place.",
    "rules": [{
        "id": "idle-gpu",
        "title": {"en": "Idle GPU", "de": "GPU im Leerlauf"},
        "category": "overprovisioning",
        "severity": "warning",
        "source": {"document": "000", "section": "Fehler 1", "claim": "M1"},
        "priority": 2,
        "when": [
            {"fact": "workload", "as": "w"},
            {"fact": "setup", "as": "s", "where": {
                "utilization_mean": {"lt": 0.4}, "gpu": {"in": ["h100-sxm", "h100-pcie"]},
                "latency_p95_s": {"gt": {"ref": "w.latency_target_s"}}}},
            {"not": {"fact": "flag", "where": {"name": "well-sized"}}},
            {"any": [{"fact": "usecase", "as": "u", "where": {"class": "batch"}},
                     {"fact": "usecase", "as": "u", "where": {"class": "offline"}}]},
        ],
        "then": {"derive": [{"fact": "flag", "set": {"name": "idle", "gpu": {"ref": "s.gpu"}}}]},
        "explanation": {"en": "{s.gpu} at {s.utilization_mean|pct}.",
                        "de": "{s.gpu} mit {s.utilization_mean|pct}."},
        "advice": {"en": "Right-size.", "de": "Richtig dimensionieren."},
        "facts": ["s.gpu"],
    }],
}


def write(tmp_path: Path, data: Any, name: str = "pack.yaml") -> Path:
    path = tmp_path / name
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return path


def broken(tmp_path: Path, change: Callable[[dict], None]) -> InputError:
    """Apply `change` to a copy of BASE's rule, load it, and return the InputError raised."""
    data = copy.deepcopy(BASE)
    change(data["rules"][0])
    with pytest.raises(InputError) as info:
        load_pack(write(tmp_path, data))
    return info.value


def test_base_pack_loads_into_typed_rules(tmp_path: Path) -> None:
    pack = load_pack(write(tmp_path, BASE))
    rule = pack.rules[0]
    assert (pack.pack, rule.id, rule.category, rule.severity, rule.priority) == (
        "sample", "idle-gpu", "overprovisioning", "warning", 2)
    assert isinstance(rule.when[1], Pattern) and rule.when[1].as_ == "s"
    assert rule.when[1].where["utilization_mean"] == Ops(lt=0.4)
    assert rule.when[1].where["latency_p95_s"].gt == Ref(ref="w.latency_target_s")
    assert isinstance(rule.when[2], Not) and rule.when[2].not_.where == {"name": "well-sized"}
    assert isinstance(rule.when[3], AnyOf) and len(rule.when[3].any) == 2
    assert rule.then.derive[0].set["gpu"] == Ref(ref="s.gpu")
    assert rule.emits_finding is True
    assert rule.source.claim == "M1"


def test_classification_rules_emit_no_finding_by_default(tmp_path: Path) -> None:
    data = copy.deepcopy(BASE)
    data["rules"][0]["category"] = "classification"
    assert load_pack(write(tmp_path, data)).rules[0].emits_finding is False
    data["rules"][0]["then"]["finding"] = True
    assert load_pack(write(tmp_path, data)).rules[0].emits_finding is True


def _set(path: list, value: Any) -> Callable[[dict], None]:
    def change(rule: dict) -> None:
        target = rule
        for part in path[:-1]:
            target = target[part]
        if value is DELETE:
            del target[path[-1]]
        elif isinstance(target, list) and path[-1] == len(target):
            target.append(value)
        else:
            target[path[-1]] = value
    return change


DELETE = object()

CASES = [
    # (case id, change to the rule, field path expected, words the message must contain)
    ("unknown key in rule", _set(["colour"], "red"), "rules[0]", ["unknown key 'colour'"]),
    ("unknown key in pattern", _set(["when", 1, "alias"], "s2"), "rules[0].when[1]",
     ["unknown key 'alias'"]),
    ("unknown key in source", _set(["source", "page"], 3), "rules[0].source",
     ["unknown key 'page'"]),
    ("unknown category", _set(["category"], "speed"), "rules[0].category",
     ["unknown value 'speed'"]),
    ("unknown severity", _set(["severity"], "fatal"), "rules[0].severity",
     ["unknown value 'fatal'"]),
    ("unknown operator", _set(["when", 1, "where", "utilization_mean"], {"below": 0.4}),
     "rules[0].when[1].where.utilization_mean", ["unknown operator 'below'"]),
    ("list as bare value", _set(["when", 1, "where", "gpu"], ["a", "b"]),
     "rules[0].when[1].where.gpu", ["expected a text, number or true/false value"]),
    ("text for a comparison", _set(["when", 1, "where", "utilization_mean"], {"lt": "low"}),
     "rules[0].when[1].where.utilization_mean.lt", ["expected a number"]),
    ("undefined ref alias", _set(["when", 1, "where", "latency_p95_s"], {"gt": {"ref": "x.y"}}),
     "rules[0].when[1].where.latency_p95_s.gt.ref", ["alias 'x'", "not defined earlier"]),
    ("ref to a later alias", _set(["when", 1, "where", "latency_p95_s"], {"gt": {"ref": "u.y"}}),
     "rules[0].when[1].where.latency_p95_s.gt.ref", ["alias 'u'", "not defined earlier"]),
    ("ref to own alias", _set(["when", 1, "where", "latency_p95_s"], {"gt": {"ref": "s.y"}}),
     "rules[0].when[1].where.latency_p95_s.gt.ref", ["own alias"]),
    ("undefined derive ref", _set(["then", "derive", 0, "set", "gpu"], {"ref": "q.gpu"}),
     "rules[0].then.derive[0].set.gpu.ref", ["alias 'q'"]),
    ("undefined template placeholder", _set(["explanation", "de"], "{x.gpu} läuft."),
     "rules[0].explanation.de", ["placeholder {x.gpu}", "alias 'x'"]),
    ("hostile template placeholder", _set(["advice", "en"], "{s.__class__}"),
     "rules[0].advice.en", ["malformed placeholder"]),
    ("unknown template filter", _set(["title", "en"], "{s.gpu|upper}"), "rules[0].title.en",
     ["unknown filter 'upper'"]),
    ("undefined facts entry", _set(["facts"], ["z.gpu"]), "rules[0].facts[0]", ["alias 'z'"]),
    ("undefined join entry", _set(["then", "join"], ["z.gpu"]), "rules[0].then.join[0]", ["alias 'z'"]),
    ("join of a nested field", _set(["then", "join"], ["s.storage.type"]), "rules[0].then.join[0]",
     ["nested field"]),
    ("join without a finding", _set(["then"], {"finding": False, "join": ["s.gpu"]}), "rules[0].then.join",
     ["merges the rule's findings", "reports none"]),
    ("missing de title", _set(["title", "de"], DELETE), "rules[0].title",
     ["missing required key 'de'"]),
    ("missing de explanation", _set(["explanation", "de"], DELETE), "rules[0].explanation",
     ["missing required key 'de'"]),
    ("missing advice", _set(["advice"], DELETE), "rules[0]", ["missing required key 'advice'"]),
    ("empty when", _set(["when"], []), "rules[0].when", ["must not be empty"]),
    ("bad rule id", _set(["id"], "Idle_GPU"), "rules[0].id", ["'Idle_GPU' is not allowed"]),
    ("negative priority", _set(["priority"], -1), "rules[0].priority", ["greater than or equal"]),
    ("document as number", _set(["source", "document"], 0), "rules[0].source.document",
     ["quote it"]),
    ("empty value", _set(["severity"], None), "rules[0]", ["'severity' has no value"]),
    ("reserved field id", _set(["when", 0, "where"], {"id": "llama"}), "rules[0].when[0].where.id",
     ["reserved", "fact_id"]),
    ("reserved kind phase", _set(["when", 0, "fact"], "phase"), "rules[0].when[0].fact",
     ["reserved"]),
    ("alias twice", _set(["when", 4], {"fact": "extra", "as": "s"}), "rules[0].when[4].as",
     ["alias 's' is defined twice"]),
    ("any with two aliases", _set(["when", 3, "any", 1, "as"], "v"), "rules[0].when[3].any",
     ["same 'as'"]),
    ("alias inside not", _set(["when", 2, "not", "as"], "f"), "rules[0].when[2].not",
     ["unknown key 'as'"]),
    ("bad regex", _set(["when", 1, "where", "gpu"], {"matches": "h100("}),
     "rules[0].when[1].where.gpu.matches", ["invalid regular expression"]),
    ("empty operator mapping", _set(["when", 1, "where", "gpu"], {}), "rules[0].when[1].where.gpu",
     ["at least one operator"]),
]


@pytest.mark.parametrize(("change", "path", "words"), [c[1:] for c in CASES],
                         ids=[c[0] for c in CASES])
def test_rejection_names_file_rule_field_and_reason(tmp_path: Path, change: Callable,
                                                    path: str, words: list[str]) -> None:
    error = broken(tmp_path, change)
    message = str(error)
    assert message.startswith(str(tmp_path / "pack.yaml") + ": ")
    assert error.path == path
    rule_id = "Idle_GPU" if path == "rules[0].id" else "idle-gpu"  # the bad id is the name
    assert f"in rule '{rule_id}'" in message
    for word in words:
        assert word in message


def test_unknown_key_lists_the_allowed_keys(tmp_path: Path) -> None:
    error = broken(tmp_path, _set(["when", 1, "where", "gpu"], {"equals": "a"}))
    assert error.allowed is not None and "eq, ne, lt" in error.allowed and "matches" in error.allowed


def test_duplicate_rule_id_in_one_pack(tmp_path: Path) -> None:
    data = copy.deepcopy(BASE)
    data["rules"].append(copy.deepcopy(data["rules"][0]))
    with pytest.raises(InputError, match=r"field rules\[1\]\.id: duplicate rule id 'idle-gpu'"):
        load_pack(write(tmp_path, data))


def test_duplicate_rule_id_across_packs(tmp_path: Path) -> None:
    write(tmp_path, BASE, "a.yaml")
    other = copy.deepcopy(BASE)
    other["pack"] = "other"
    write(tmp_path, other, "b.yaml")
    with pytest.raises(InputError) as info:
        load_packs([tmp_path])
    message = str(info.value)
    assert message.startswith(str(tmp_path / "b.yaml"))
    assert "duplicate rule id 'idle-gpu'" in message and str(tmp_path / "a.yaml") in message


def test_duplicate_pack_name_across_files(tmp_path: Path) -> None:
    write(tmp_path, BASE, "a.yaml")
    other = copy.deepcopy(BASE)
    other["rules"][0]["id"] = "another"
    write(tmp_path, other, "b.yaml")
    with pytest.raises(InputError, match="duplicate pack name 'sample'"):
        load_packs([tmp_path])


@pytest.mark.parametrize(("text", "reason"), [
    ("- just\n- a list\n", "must be a mapping"),
    ("just text\n", "must be a mapping"),
    ("pack: [unclosed\n", "malformed YAML at line"),
    ("pack: a\npack: b\nrules: []\n", "duplicate key 'pack'"),
    ("x: &a [1]\ny: *a\n", "aliases (*name) are not allowed"),
    ("!!python/object/apply:os.system ['echo hacked']\n", "malformed YAML"),
])
def test_non_mapping_or_unsafe_yaml_is_rejected(tmp_path: Path, text: str, reason: str) -> None:
    path = tmp_path / "pack.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InputError) as info:
        load_pack(path)
    assert str(info.value).startswith(str(path) + ": ")
    assert reason in str(info.value)


def test_empty_file_is_rejected(tmp_path: Path) -> None:
    path = tmp_path / "pack.yaml"
    path.write_text("", encoding="utf-8")
    with pytest.raises(InputError, match="got an empty file"):
        load_pack(path)


def test_file_over_one_mebibyte_is_refused_before_parsing(tmp_path: Path) -> None:
    path = tmp_path / "big.yaml"
    path.write_text("# " + "x" * (1024 * 1024) + "\n", encoding="utf-8")
    with pytest.raises(InputError, match="larger than 1024 KiB") as info:
        load_pack(path)
    assert str(info.value).startswith(str(path))


def test_load_packs_reads_yaml_files_sorted_by_name(tmp_path: Path) -> None:
    for name, pack in (("20-b.yaml", "second"), ("10-a.yaml", "first"), ("30-c.yml", "ignored")):
        data = copy.deepcopy(BASE)
        data["pack"], data["rules"][0]["id"] = pack, f"rule-{pack}"
        write(tmp_path, data, name)
    assert [p.pack for p in load_packs([tmp_path])] == ["first", "second"]


def test_missing_rules_directory(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="rule directory not found"):
        load_packs([tmp_path / "nope"])


def test_fixture_packs_all_load(packs_dir: Path) -> None:
    counts = {d.name: sum(len(p.rules) for p in load_packs([d]))
              for d in sorted(packs_dir.iterdir()) if d.is_dir()}
    assert counts == {"chain": 3, "negation": 4, "traps": 4, "twenty": 20}
