"""The knowledge catalog: GPUs, models, packages, offers and tariffs, loaded from `knowledge/`."""

from expert.catalog.loader import Catalog, load_catalog

__all__ = ["Catalog", "load_catalog"]
