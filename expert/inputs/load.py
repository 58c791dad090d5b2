"""Loading workload and setup files: schema, model validation and catalog ids, one clear error."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from expert.catalog import Catalog, load_catalog
from expert._plumbing.fileio import load_mapping
from expert.errors import InputError
from expert.inputs.request_fit import beyond_model_context
from expert.inputs.validation import validate_model
from expert.inputs.workload import Workload

if TYPE_CHECKING:
    from expert.inputs.setup_file import Setup


def load_workload_data(data: Any, name: str | None, catalog: Catalog | None = None) -> Workload:
    """Validate a workload mapping and check its catalog ids."""
    if isinstance(data, Workload):
        workload = data
    else:
        workload = validate_model(Workload, data, name)  # strict types, as workload.schema.json
    check_workload_ids(workload, catalog or load_catalog(), name, "")
    return workload


def load_setup_data(data: Any, name: str | None, catalog: Catalog | None = None) -> Setup:
    """Validate a setup mapping and check its catalog ids."""
    from expert.inputs.setup_file import Setup  # an advice or an estimate never reads a setup

    catalog = catalog or load_catalog()
    if isinstance(data, Setup):
        setup = data
    else:
        setup = validate_model(Setup, data, name)  # strict types, as setup.schema.json
    catalog.gpu(setup.gpu, file=name, path="gpu")
    _check_offer(setup, catalog, name)
    models = {} if setup.workload is None else check_workload_ids(setup.workload, catalog, name, "workload.")
    _check_tensor_parallel(setup, models, name)
    return setup


def _check_offer(setup: Setup, catalog: Catalog, name: str | None) -> None:
    """A stated offer must be one of the catalog's offers of the setup's GPU (InputError otherwise)."""
    if setup.offer is None:
        return
    offer = catalog.offers.get(setup.offer)
    if offer is None or offer.gpu != setup.gpu:
        allowed = ", ".join(o.id for o in catalog.offers_for(setup.gpu)) or "none: the catalog rents no such GPU"
        what = (f"unknown offer '{setup.offer}'" if offer is None
                else f"offer '{setup.offer}' rents {offer.gpu}, not {setup.gpu}")
        raise InputError(what, file=name, path="offer", allowed=allowed)


def check_workload_ids(workload: Workload, catalog: Catalog, name: str | None, prefix: str) -> dict:
    """The workload's catalog models by field path (`model`, `agents[i].model`); UnknownIdError for an id
    the catalog does not know, InputError for prompt + output beyond a model's maximum context."""
    paths = {"model": workload.model, **{f"agents[{i}].model": a.model for i, a in enumerate(workload.agents)}}
    models = {path: catalog.model(key, file=name, path=prefix + path) for path, key in paths.items() if key is not None}
    for model in models.values():
        refusal = beyond_model_context(workload.prompt_tokens, workload.output_tokens, model.id, model.max_context)
        if refusal:
            raise InputError(refusal[0], file=name, path=f"{prefix}prompt_tokens", allowed=refusal[1])
    return models


def _check_tensor_parallel(setup: Setup, models: dict, name: str | None) -> None:
    """InputError for a stated tensor parallelism that engines refuse for the model (`tp_refusal`; more
    than 8 for a model given by size only): the setup's own, and each placed agent's of a pool."""
    from expert.sizing.parallel import tp_refusal

    agents = {a.name: f"agents[{i}].model" for i, a in enumerate(setup.workload.agents if setup.workload else ())}
    stated = [("tensor_parallel", models.get("model"), setup.tensor_parallel)]
    stated += [(f"placement.{agent}.tensor_parallel", models.get(agents[agent]), p.tensor_parallel)
               for agent, p in (setup.placement or {}).items() if p.tensor_parallel is not None]
    for path, model, tp in stated:
        refusal = tp_refusal(model, tp)
        if refusal:
            raise InputError(refusal[0], file=name, path=path, allowed=refusal[1])


def load_workload(source: str | Path, catalog: Catalog | None = None) -> Workload:
    """Read and validate a workload file (or '-' for standard input)."""
    name, data = load_mapping(source)
    return load_workload_data(data, name, catalog)


def load_setup(source: str | Path, catalog: Catalog | None = None) -> Setup:
    """Read and validate a setup file (or '-' for standard input)."""
    name, data = load_mapping(source)
    return load_setup_data(data, name, catalog)
