"""The knowledge catalog: GPUs, models, packages, offers and tariffs, loaded from `knowledge/`;
`pricing` chooses the price to use for a GPU when the user names none."""

from expert.catalog.loader import Catalog, load_catalog

__all__ = ["Catalog", "load_catalog"]
