"""The shipped JSON Schema of rule packs is generated from the model and agrees with the loader."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
import yaml

from expert.engine.schema_gen import schema_text, write_schema

SHIPPED = Path(__file__).resolve().parents[2] / "knowledge" / "schemas" / "rulepack.schema.json"


@pytest.fixture(scope="module")
def validator() -> jsonschema.protocols.Validator:
    schema = json.loads(SHIPPED.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def test_shipped_schema_equals_the_generated_one() -> None:
    assert SHIPPED.read_text(encoding="utf-8") == schema_text(), (
        "regenerate with: python -m expert.engine.schema_gen")


def test_write_schema_writes_the_same_text(tmp_path: Path) -> None:
    assert write_schema(tmp_path).read_text(encoding="utf-8") == schema_text()


def test_every_fixture_pack_is_valid_against_the_schema(packs_dir: Path, validator) -> None:
    files = sorted(packs_dir.glob("*/*.yaml"))
    assert len(files) == 6
    for path in files:
        errors = list(validator.iter_errors(yaml.safe_load(path.read_text(encoding="utf-8"))))
        assert errors == [], f"{path.name}: {errors[0].message}"


@pytest.mark.parametrize("change", [
    lambda r: r.update(colour="red"),
    lambda r: r.update(category="speed"),
    lambda r: r.update(severity="fatal"),
    lambda r: r["when"][0]["where"].update(count={"below": 3}),
    lambda r: r["when"][0]["where"].update(count=[1, 2]),
    lambda r: r["title"].pop("de"),
    lambda r: r.update(when=[]),
    lambda r: r["when"][0].update(fact="Bad Kind"),
    lambda r: r.update(priority=-1),
    lambda r: r["source"].update(document=0),
], ids=["unknown-key", "category", "severity", "operator", "list-value", "missing-de",
        "empty-when", "kind", "priority", "document-number"])
def test_schema_rejects_what_the_loader_rejects(packs_dir: Path, validator, change) -> None:
    data = yaml.safe_load((packs_dir / "twenty" / "20-mistakes.yaml").read_text(encoding="utf-8"))
    rule = data["rules"][4]  # cpu-bottleneck: a pattern with a where mapping
    assert validator.is_valid(data)
    change(rule)
    assert not validator.is_valid(data)
