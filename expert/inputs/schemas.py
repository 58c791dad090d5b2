"""The JSON Schemas of every file a user may write or read, generated from the pydantic models.

`python -m expert.inputs.schemas` rewrites `knowledge/schemas/*.schema.json`; a test checks that the
shipped files equal what this module generates, so the schemas can never drift from the code.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from pydantic import BaseModel


def _models() -> dict[str, type[BaseModel]]:
    from expert.catalog.loader import GpusFile, ModelsFile, OffersFile, PackagesFile, TariffsFile
    from expert.inputs.setup_file import Setup
    from expert.inputs.workload import Workload

    models: dict[str, type[BaseModel]] = {
        "workload": Workload,
        "setup": Setup,
        "catalog-gpus": GpusFile,
        "catalog-models": ModelsFile,
        "catalog-packages": PackagesFile,
        "catalog-offers": OffersFile,
        "catalog-tariffs": TariffsFile,
    }
    try:
        from expert.report.models import Report
        models["report"] = Report
    except ImportError:  # the report module is optional while it is being built
        pass
    return models


def generate() -> dict[str, str]:
    """Schema name → JSON text for every user-facing file format."""
    out = {}
    for name, model in _models().items():
        schema = model.model_json_schema(mode="validation" if name != "report" else "serialization")
        schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
        schema["$id"] = f"https://gpu-expert.invalid/schemas/{name}.schema.json"
        out[name] = json.dumps(schema, indent=2, ensure_ascii=False, sort_keys=True) + "\n"
    return out


def write(directory: Path) -> list[Path]:
    """Write every schema into `directory`; returns the paths written."""
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for name, text in generate().items():
        path = directory / f"{name}.schema.json"
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return written


if __name__ == "__main__":
    from expert._plumbing.paths import knowledge_dir

    for path in write(knowledge_dir() / "schemas"):
        print(path)
    sys.exit(0)
