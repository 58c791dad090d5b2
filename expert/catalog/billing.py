"""The billing rules of GPUs rented per run (`knowledge/training-billing.yaml`: granularity, minimum,
whether a stopped VM still bills, per provider), read with the catalog and kept with it.

They are read when the catalog is built (`loader.with_derived`) and pickled with it in the compiled
cache, whose key covers the file: a process that plans a fine-tuning run reads no file for them.
"""

from __future__ import annotations

from pathlib import Path

from expert._plumbing.paths import knowledge_dir

BILLING_FILE = "training-billing.yaml"


def billing_path() -> Path:
    """The built-in billing rules' file."""
    return knowledge_dir() / BILLING_FILE


def read_billing(path: Path) -> dict:
    """Provider → {granularity_s, minimum_s, stopped_gpu_bills, source}; 'default' for the rest."""
    import yaml

    with open(path, encoding="utf-8") as fh:
        data = yaml.load(fh, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))  # plain data only
    return {"default": data["default"], **data["providers"]}


def training_billing(catalog) -> dict:
    """The built-in billing rules, kept with `catalog` (its `memo`)."""
    return catalog.memo("training.billing", lambda: read_billing(billing_path()))
