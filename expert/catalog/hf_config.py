"""Models named by a Hugging Face `config.json` instead of a catalog id (`--model`, a workload's `model:`).

A model reference that is no catalog id or alias is tried, in order, as a path to a `config.json` or to
the folder holding one, then as a Hugging Face id (`openai/gpt-oss-120b`) in the local Hugging Face
cache: `$HF_HUB_CACHE`, else `$HF_HOME/hub`, else `~/.cache/huggingface/hub`, folder
`models--{org}--{name}/snapshots/*/config.json` (huggingface_hub's cache layout). Nothing is downloaded.
The file is read by `hf_shape.model_from_config`; what it cannot read is refused with the file and the
field (exit 2).
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

from expert.catalog.hf_shape import FAMILIES, MissingField, model_from_config
from expert.catalog.models import LlmModel
from expert.errors import InputError

HF_ID = re.compile(r"^[A-Za-z0-9][\w.-]*/[\w.-]+$")


def hub_cache() -> Path:
    """The local Hugging Face hub cache folder (module docstring)."""
    if os.environ.get("HF_HUB_CACHE"):
        return Path(os.environ["HF_HUB_CACHE"])
    if os.environ.get("HF_HOME"):
        return Path(os.environ["HF_HOME"]) / "hub"
    return Path.home() / ".cache" / "huggingface" / "hub"


def cached_config(repo_id: str) -> Path | None:
    """The newest cached `config.json` of a Hugging Face id, or None when the id is not cached."""
    if not HF_ID.match(repo_id):
        return None
    snapshots = hub_cache() / ("models--" + repo_id.replace("/", "--")) / "snapshots"
    found = sorted(snapshots.glob("*/config.json"), key=lambda f: f.stat().st_mtime) if snapshots.is_dir() else []
    return found[-1] if found else None


def config_path(reference: str) -> Path | None:
    """The config.json a model reference points at (a file, a folder, a cached Hugging Face id), else None
    (also for a reference no file system can name: too long, a NUL byte)."""
    try:
        path = Path(reference).expanduser()
        if path.is_dir():
            path = path / "config.json"
            return path if path.is_file() else None
        if path.is_file() and path.suffix.lower() == ".json":  # never another kind of file
            return path
        return cached_config(reference)
    except (OSError, ValueError):
        return None


def model_id_for(path: Path) -> str:
    """A catalog-style id for an imported config: its folder's name (a cached snapshot: the repository's)."""
    folder = path.parent
    if folder.parent.name == "snapshots":
        folder = folder.parent.parent
    name = folder.name.removeprefix("models--").split("--")[-1] if folder.name else "imported"
    slug = re.sub(r"[^a-z0-9.-]+", "-", name.lower()).strip("-.")
    return slug or "imported-model"


def load_config_model(path: Path, field: str = "model") -> LlmModel:
    """The model of a config.json file; InputError naming the file and the field it lacks."""
    # the message names the config.json in its reason: the file it is raised for is the caller's (a
    # workload's name is added by the command), the config is where the field is missing
    try:
        cfg = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise InputError(f"cannot read {path} as a Hugging Face config.json: {error}", path=field) from None
    if not isinstance(cfg, dict):
        raise InputError(f"{path}: a config.json holds one JSON object", path=field)
    try:
        return model_from_config(cfg, model_id_for(path), f"{path} (Hugging Face config.json)")
    except MissingField as missing:
        families = ", ".join(FAMILIES) if missing.path == "model_type" else None
        raise InputError(f"{path} cannot be sized: {missing}", path=field, allowed=families) from None
    except (TypeError, ValueError, ZeroDivisionError) as error:
        raise InputError(f"{path} has a value that cannot be sized: {error}".splitlines()[0], path=field) from None
