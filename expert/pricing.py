"""Choosing the price to use for a GPU when the user names none.

Default order (documented in the README): the document's own provider (a provider-catalog offer
hosted in Switzerland — 000 compares prices of one Swiss provider), then 000's market range, then
the cheapest other public offer. Purchase prices: the catalog's new price, else a used one.
"""

from __future__ import annotations

from expert.catalog import Catalog
from expert.catalog.models import Offer, PurchasePrice
from expert.errors import InputError


def _rank(catalog: Catalog, offer: Offer) -> tuple:
    document_provider = offer.kind == "provider-catalog" and offer.country == "CH"
    monthly = catalog.to_chf(offer.monthly.amount.mid, offer.monthly.currency)
    return (0 if document_provider else 1 if offer.kind == "market-range" else 2, monthly, offer.id)


def default_offer(catalog: Catalog, gpu_id: str) -> Offer | None:
    """The offer used for a GPU when none is named (see the module docstring)."""
    offers = catalog.offers_for(gpu_id)
    return min(offers, key=lambda o: _rank(catalog, o)) if offers else None


def pick_offer(catalog: Catalog, gpu_id: str, offer_id: str | None) -> Offer | None:
    """The named offer (checked against the GPU) or the default one."""
    if offer_id is None:
        return default_offer(catalog, gpu_id)
    offer = catalog.offers.get(offer_id)
    if offer is None:
        from expert.errors import UnknownIdError

        raise UnknownIdError("offer", offer_id, list(catalog.offers), path="--offer")
    if offer.gpu != gpu_id:
        raise InputError(f"offer '{offer_id}' is for {offer.gpu}, not {gpu_id}", path="--offer")
    return offer


def default_purchase(catalog: Catalog, gpu_id: str) -> PurchasePrice | None:
    """The purchase price of one GPU: new if the catalog has one, else used."""
    return catalog.purchase_price(gpu_id, "new") or catalog.purchase_price(gpu_id, "used")
