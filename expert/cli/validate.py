"""`gpu-expert validate FILE...`: check workload, setup, rule-pack and catalog files."""

from __future__ import annotations

import sys

from expert.cli.options import common_parent
from expert.errors import InputError


def register(commands) -> None:
    """Add the `validate` command."""
    parser = commands.add_parser("validate", parents=[common_parent()],
                                 help="check workload/setup/rule/catalog files against their schemas")
    parser.add_argument("files", nargs="+", metavar="FILE")
    parser.set_defaults(run=run)


def run(args) -> int:
    """Validate every file; print one line per file; exit 2 if any is invalid."""
    failed = 0
    for file in args.files:
        try:
            kind = validate_file(file)
        except InputError as error:
            print(f"gpu-expert: error: {error}", file=sys.stderr)
            failed += 1
        else:
            print(f"{file}: valid {kind}")
    return 2 if failed else 0


def validate_file(file: str) -> str:
    """Validate one file, guessing its kind from its top-level keys; returns the kind."""
    from expert.catalog.loader import FILES, unique_ids
    from expert.catalog.references import check_file
    from expert._plumbing.fileio import load_mapping
    from expert.inputs.load import load_setup_data, load_workload_data
    from expert.inputs.validation import validate_model, validate_schema

    name, data = load_mapping(file)
    for kind, (_filename, file_model) in FILES.items():
        if set(data) == {kind} or (kind == "packages" and set(data) == {"chassis", "packages"}):
            validate_schema(f"catalog-{kind}", data, name)
            loaded = validate_model(file_model, data, name)
            unique_ids(loaded, name)
            catalog = catalog_for(file, _filename)   # the ids it names, as use checks them (QA 46 #6)
            check_file(kind, loaded, name, catalog.gpus, catalog.chassis)
            return f"catalog file ({kind})"
    if "rules" in data or "pack" in data:
        from pathlib import Path

        from expert.engine import load_pack
        from expert.engine.rule_base import check_pack_alone

        check_pack_alone(load_pack(Path(file)), Path(file))  # what advise checks
        return "rule pack"
    if "gpu" in data:
        validate_schema("setup", data, name)
        load_setup_data(data, name)
        return "setup"
    validate_schema("workload", data, name)
    load_workload_data(data, name)
    return "workload"


def catalog_for(file: str, filename: str):
    """The catalog a file is checked against: the built-in one merged with the file's directory where the
    file is that directory's catalog file of its kind (as `--catalog-dir` reads it, so its own gpus.yaml
    counts), else the built-in one."""
    from pathlib import Path

    from expert._plumbing.paths import knowledge_dir
    from expert.catalog.loader import load_catalog

    path = Path(file).resolve()
    own = path.name == filename and path.parent != knowledge_dir().resolve()
    return load_catalog((path.parent,) if own else ())
