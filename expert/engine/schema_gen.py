"""Generate `knowledge/schemas/rulepack.schema.json` from the `RulePack` pydantic model.

`python -m expert.engine.schema_gen` rewrites the shipped file; a test checks that the shipped file
equals `schema_text()`, so the schema can never drift from the code. The format (sorted keys, 2-space
indent, `$schema` and `$id`) is the one `expert.inputs.schemas` uses for the other shipped schemas.
The schema checks the shape of a pack; cross-field rules (aliases, references, placeholders, unique
ids) are checked by `expert.engine.loader`, which `gpu-expert validate` uses.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from expert.engine.rulepack import RulePack

NAME = "rulepack"


def rulepack_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of a rule-pack file."""
    schema = RulePack.model_json_schema(mode="validation")
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["$id"] = f"https://gpu-expert.invalid/schemas/{NAME}.schema.json"
    return schema


def schema_text() -> str:
    """The schema as the exact text shipped in `knowledge/schemas/`."""
    return json.dumps(rulepack_schema(), indent=2, ensure_ascii=False, sort_keys=True) + "\n"


def write_schema(directory: Path) -> Path:
    """Write `rulepack.schema.json` into `directory`; return its path."""
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"{NAME}.schema.json"
    path.write_text(schema_text(), encoding="utf-8")
    return path


def main() -> int:
    """Rewrite the shipped schema and print its path."""
    from expert._plumbing.paths import knowledge_dir

    print(write_schema(knowledge_dir() / "schemas"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
