"""Choosing the price to use for a GPU when the user names none.

Default order (documented in the README): the document's own provider (a provider-catalog offer
hosted in Switzerland — 000 compares prices of one Swiss provider), then 000's market range, then
the cheapest other public offer. Purchase prices: the catalog's new price, else a used one.
"""

from __future__ import annotations

from expert.catalog import Catalog
from expert.catalog.models import Gpu, Offer, PurchasePrice
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


def _document_tdp(gpu: Gpu) -> float | None:
    for claim in gpu.document_claims:
        if claim.field == "tdp_w" and isinstance(claim.value, (int, float)):
            return float(claim.value)
    return None


def pays_energy(offer: Offer) -> bool:
    """Whether T1's energy is added on top of the offer's price (000 T1 counts it for rented GPUs).

    `includes_power` decides when set; an `energy_tdp_w` means energy is paid. Otherwise rents derived
    from 000's own TCO (source 'derived…') and 000's market ranges pay energy on top, the document's
    method; every other public list price already includes power and cooling, so no energy line."""
    if offer.includes_power is not None:
        return not offer.includes_power
    if offer.energy_tdp_w:                 # the catalog names the TDP the price's energy line assumes
        return True
    return offer.monthly.source.startswith("derived") or offer.kind == "market-range"


def offer_energy_tdp(offer: Offer, gpu: Gpu) -> float:
    """TDP for the energy of a rented GPU, 0 when the price includes power: the offer's `energy_tdp_w`
    when set; for rents derived from 000's TCO the TDP 000 used (its `document_claims`, because the
    derived rent reproduces 000's TCO only with it); else the GPU's vendor TDP."""
    if not pays_energy(offer):
        return 0.0
    if offer.energy_tdp_w:
        return float(offer.energy_tdp_w)
    if offer.monthly.source.startswith("derived"):
        return _document_tdp(gpu) or gpu.tdp_w
    return gpu.tdp_w
