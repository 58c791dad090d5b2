"""What an audited setup costs, and what the configurator's optimum for the same workload would save.

- The setup's cost is the one buy-versus-rent computation the configurator ranks with
  (`configurator.objective.cost_line`): a rented setup at its stated `offer` (what `advise --setup-out`
  writes for its pick), else at its GPU's default offer (`catalog.pricing`: the document's Swiss provider first), an owned one as its complete system bought new (else used; a
  setup stating `condition: used` the other way round) and
  sold at the end of the workload's horizon — the price of the same hardware today, not what was paid —
  or, where the catalog sells no system of that count (SXM boards come in eights), as the rent of the
  same GPUs (the report's `setup.source` says which). The setup's `country` is where it is (its hosting
  country; owned: else its site), and `price_country` names the offer's own country where the price comes
  from elsewhere (a US-hosted setup priced at the Swiss provider's rent).
- The optimum is `configurator.search` of the setup's workload (same targets, same horizon); the saving
  is the setup's cost minus the optimum's, per month and over the horizon, and its share of the setup's.
  The search applies the advice's residency filter (`candidates.admissible_sources`) where the setup is:
  a workload with `hosting: any` on a setup located in Switzerland is searched with `hosting: ch`, in
  the EU/EEA with `hosting: eu`, elsewhere with offers of a known server location only (`residency`), so
  the optimum is an offer the user could take where the data are today, not one of unknown location.
- `OVERPROVISIONED_SHARE` (own threshold, 20 %): a saving above the spread of one configuration's price
  across providers (000 R4: "15–20 %") is not won by renegotiating but by another configuration — the
  money measure of mistake 1 (000 M1: "several thousand CHF a month extra without perceptible gain";
  G13: entry and high-end configurations differ up to 3×).
"""

from __future__ import annotations

from typing import Any

from expert.catalog import Catalog
from expert.configurator.keys import inputs
from expert.inputs.setup_file import Setup
from expert.inputs.workload import Workload

OVERPROVISIONED_SHARE = 0.20  # own threshold above 000 R4's 15-20 % price spread (module docstring)


def setup_source(setup: Setup, catalog: Catalog):
    """The configurator's `Source` the setup's GPUs are priced from (module docstring); None when the
    catalog has no price for them."""
    from expert.catalog.pricing import pick_offer
    from expert.configurator.candidates import catalog_sources

    sources = catalog_sources(catalog)
    offer = pick_offer(catalog, setup.gpu, setup.offer)  # the stated offer (checked on loading), else the default
    keys = [("cloud", offer.id)] if offer is not None else []
    if setup.ownership == "owned":  # a purchase of exactly this count first (the stated condition first),
        conditions = ("used", "new") if setup.condition == "used" else ("new", "used")  # else the rent of the GPUs
        keys[:0] = [("purchase", f"purchase:{setup.gpu}:{condition}") for condition in conditions]
    for kind, key in keys:  # bought: a system of each server's GPUs
        found = next((s for s in sources if s.kind == kind and s.key == key
                      and (kind == "cloud" or all(g in s.counts for g in servers(setup)))), None)
        if found is not None:
            return found
    return None


def servers(setup: Setup) -> list[int]:
    """GPUs per server or instance (the failure domains): the stated `servers`, else one of all its GPUs."""
    return setup.servers or [setup.count]


def located(setup: Setup) -> str | None:
    """The setup's country: its hosting country; owned hardware without one stands at its site."""
    if setup.hosting is not None:
        return setup.hosting.country
    return setup.site_country if setup.ownership == "owned" else None


def residency(setup: Setup) -> tuple[Workload | None, str | None]:
    """(the workload the optimum is searched for, the residency added: "ch", "eu", "known" or None) —
    module docstring. "known" sets `data: sensitive` on the searched copy, which the configurator reads
    only as "the server location must be known" (`candidates.location_must_be_known`)."""
    from expert.configurator.candidates import EU_EEA_CH, location_must_be_known

    w, where = setup.workload, located(setup)
    if w is None or w.hosting != "any" or where is None:
        return w, None
    zone = "ch" if where == "CH" else "eu" if where in EU_EEA_CH else "known"
    if zone == "known":
        return (w, None) if location_must_be_known(w) else (w.model_copy(update={"data": "sensitive"}), zone)
    return w.model_copy(update={"hosting": zone}), zone


def setup_choice(setup: Setup, catalog: Catalog, months: int, extra: dict[str, Any]) -> dict[str, Any] | None:
    """The setup as a report `AuditedSetup`: its price over `months` (null where the catalog prices none of
    its GPUs) and its estimated serving figures at the peak (`extra`: the setup fact's sizing fields)."""
    from expert.configurator.availability import domain_names
    from expert.configurator.enumeration import default_assumptions
    from expert.configurator.objective import cost_line
    from expert.sizing.parallel import column_for

    source = setup_source(setup, catalog)
    a = default_assumptions(catalog)  # bought: one complete system per server, as advise prices its domains
    parts = [setup.count] if source is None or source.kind == "cloud" else servers(setup)
    lines = [] if source is None else [cost_line(source, g, months, a) for g in parts]
    total = sum(x.total for x in lines) if lines else None
    where = located(setup)
    ttft, tpot = extra.get("estimated_ttft_p95_s"), extra.get("estimated_tpot_ms")
    output = setup.workload.output_tokens if setup.workload is not None else None
    cloud = source is not None and source.kind == "cloud"
    choice: dict[str, Any] = {
        "gpu": setup.gpu, "count": setup.count, "source": source and source.kind, "offer": source and source.key,
        "provider": source and source.provider, "country": where,
        # an owned setup priced at a rent (no purchase of its count in the catalog) says so, as one elsewhere
        "priced_elsewhere": True if cloud and (source.country is None or source.country != where
                                               or setup.ownership == "owned") else None,
        "price_country": source.country if cloud and source.country != where else None,
        "precision": extra.get("serving_precision") or "bf16",
        "interconnect": setup.interconnect or (source.column if source is not None
                                               else column_for(catalog.gpu(setup.gpu))),
        "tensor_parallel": extra.get("tensor_parallel_used", setup.tensor_parallel),
        "replicas": max(1, setup.count // max(1, extra.get("tensor_parallel_used", setup.tensor_parallel))),
        "failure_domains": domain_names(source, servers(setup)) if source is not None and len(servers(setup)) > 1
        else None,
        "monthly_cost_chf": None if total is None else total / months, "tco_chf": total, "horizon_months": months,
        "fits": bool(extra.get("fits", True)), "headroom": extra.get("reserve_ratio"),
        "memory_per_gpu_gb": extra.get("used_per_gpu_gb"), "usable_per_gpu_gb": extra.get("usable_per_gpu_gb"),
        "ttft_p95_s": ttft, "tpot_ms": tpot}
    if ttft is not None and tpot is not None and output:
        choice["latency_p95_s"] = ttft + (output - 1) * tpot / 1000
    if source is not None and not cloud:
        choice.update(upfront_chf=sum(x.upfront for x in lines), resale_chf=sum(x.resale for x in lines))
    return choice


@inputs
class Audited:
    """The key of the optimum's cache: the workload the search reads (the catalog keeps the cache)."""

    workload: Workload


MAX_OPTIMA = 256  # bounds the per-catalog cache of a long-running process (the chat, a batch of audits)


def optimum(setup: Setup, catalog: Catalog):
    """The configurator's recommendation for the setup's workload where the setup is (`residency`), one model or a pool of agents (the pool
    search, as `advise` runs it); None when nothing fits. Kept with the catalog per workload: audits of
    several setups of one workload (what-ifs in the chat, a team's scenarios) search once."""
    w = residency(setup)[0]
    if w is None:
        return None
    cache = catalog.memo("audit.optimum", dict)
    key = Audited(w)
    if key not in cache:
        from expert.configurator import search
        from expert.flows.advice import shared_cache

        if len(cache) >= MAX_OPTIMA:
            cache.clear()
        cache[key] = search(w, catalog, sensitivity=False, detail=False, _shared=shared_cache(catalog)).recommendation
    return cache[key]


def saving_fact(mine: dict[str, Any], best: dict[str, Any] | None, underprovisioned: bool) -> dict[str, Any] | None:
    """The `optimum` fact the rules read: the optimum, the setup, and what the optimum saves (negative: it
    costs more, as when the setup does not serve the peak). `underprovisioned`: the setup's own figures
    say it does not serve its load, so no rule may call it overprovisioned. None without an optimum or a
    price of the setup (nothing to save against)."""
    if best is None or mine["monthly_cost_chf"] is None:
        return None
    month = mine["monthly_cost_chf"] - best["monthly_cost_chf"]
    # the same GPUs at another precision, or over other failure domains (high availability), are not this
    # setup (the offer may still differ)
    same = ((best["gpu"], best["count"], best["precision"], len(best.get("failure_domains") or ()))
            == (mine["gpu"], mine["count"], mine["precision"], len(mine.get("failure_domains") or ())))
    return {"t": "optimum", "gpu": best["gpu"], "count": best["count"], "precision": best["precision"],
            "monthly_cost_chf": best["monthly_cost_chf"], "tco_chf": best["tco_chf"],
            "setup_monthly_cost_chf": mine["monthly_cost_chf"], "setup_tco_chf": mine["tco_chf"],
            "saving_chf_month": max(0.0, month), "saving_chf_horizon": max(0.0, mine["tco_chf"] - best["tco_chf"]),
            "saving_share": max(0.0, month / mine["monthly_cost_chf"]) if mine["monthly_cost_chf"] > 0 else 0.0,
            "horizon_months": best["horizon_months"], "is_optimum": same, "underprovisioned": underprovisioned,
            "threshold_share": OVERPROVISIONED_SHARE}


def underprovisioned(extra: dict[str, Any], setup: Setup) -> bool:
    """The setup's own figures say it does not serve its load: the model does not start, the estimated
    peak exceeds its capacity (when nothing is measured), a pool lacks GPUs, or measured utilisation
    saturates (000 R4: over 85 %, mean or peak), or the fine-tuning it runs on these GPUs does not fit them
    (000 D2, as d2-finetuning-memory-exceeds-setup reads it)."""
    u = setup.utilization
    measured = u is not None or setup.latency_p95_s is not None
    tuning_short = setup.training_gpus == "serving" and extra.get("finetune_exceeds_setup", False)
    return (not extra.get("fits", True) or tuning_short
            or (not measured and (extra.get("serving_load_ratio") or 0) > 1)
            or (extra.get("pool_gpus_missing") or 0) > 0
            or (u is not None and max(u.mean, u.peak or 0) > 0.85))
