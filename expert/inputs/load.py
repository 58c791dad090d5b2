"""Loading workload and setup files: schema, model validation and catalog ids, one clear error."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from expert.catalog import Catalog, load_catalog
from expert._plumbing.fileio import load_mapping
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
    if setup.workload is not None:
        check_workload_ids(setup.workload, catalog, name, "workload.")
    return setup


def check_workload_ids(workload: Workload, catalog: Catalog, name: str | None, prefix: str) -> None:
    """Raise UnknownIdError for a model id the catalog does not know."""
    if workload.model is not None:
        catalog.model(workload.model, file=name, path=f"{prefix}model")
    for index, agent in enumerate(workload.agents):
        if agent.model is not None:
            catalog.model(agent.model, file=name, path=f"{prefix}agents[{index}].model")


def load_workload(source: str | Path, catalog: Catalog | None = None) -> Workload:
    """Read and validate a workload file (or '-' for standard input)."""
    name, data = load_mapping(source)
    return load_workload_data(data, name, catalog)


def load_setup(source: str | Path, catalog: Catalog | None = None) -> Setup:
    """Read and validate a setup file (or '-' for standard input)."""
    name, data = load_mapping(source)
    return load_setup_data(data, name, catalog)
