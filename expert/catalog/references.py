"""Cross-references between catalog files: every offer, package and purchase price names a GPU the
catalog has, and every package a chassis it has.

One check for both uses (QA 46 #6): building the catalog runs it on each file it reads, the built-in ones
and an organisation's (`--catalog-dir`), and `gpu-expert validate` runs it on the one file it is given (`cli.validate.catalog_for`). An
unknown id is bad input naming the file, the field path (`offers[0].gpu`) and the close matches.
"""

from __future__ import annotations

from typing import Iterable

from pydantic import BaseModel

from expert.errors import UnknownIdError


def check_file(kind: str, loaded: BaseModel, file: str, gpus: Iterable[str], chassis: Iterable[str]) -> None:
    """Refuse the first entry of one catalog file (`kind` as in `loader.FILES`, `loaded` its model) that
    names a GPU or chassis id not in `gpus` / `chassis` (the catalog it is merged into)."""
    gpu_ids, chassis_ids = sorted(gpus), sorted(chassis)
    for field, index, key, value in _references(kind, loaded):
        known = gpu_ids if key == "gpu" else chassis_ids
        if value not in known:
            raise UnknownIdError(key, value, known, file=file, path=f"{field}[{index}].{key}")


def _references(kind: str, loaded: BaseModel):
    """(list field, index, key, id) of every id the file's entries name."""
    if kind in ("offers", "packages"):
        for index, entry in enumerate(getattr(loaded, kind)):
            yield kind, index, "gpu", entry.gpu
            if kind == "packages" and entry.chassis is not None:
                yield kind, index, "chassis", entry.chassis
    elif kind == "tariffs":
        for index, entry in enumerate(getattr(loaded.tariffs, "purchase", None) or []):
            yield "tariffs.purchase", index, "gpu", entry.gpu
