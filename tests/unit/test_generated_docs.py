"""Generated files stay in step with the code: the JSON Schemas and docs/facts.md."""

from pathlib import Path

from expert.inputs import schemas
from expert._plumbing.paths import knowledge_dir
from expert.facts.vocabulary import describe

ROOT = Path(__file__).resolve().parents[2]


def test_shipped_schemas_match_models():
    generated = schemas.generate()
    for name, text in generated.items():
        shipped = (knowledge_dir() / "schemas" / f"{name}.schema.json").read_text(encoding="utf-8")
        assert shipped == text, f"{name}.schema.json is stale: run `python -m expert.inputs.schemas`"


def test_facts_doc_matches_vocabulary():
    assert (ROOT / "docs" / "facts.md").read_text(encoding="utf-8") == describe() + "\n", \
        "docs/facts.md is stale: regenerate it from expert.facts.vocabulary.describe()"
