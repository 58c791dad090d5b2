"""High availability (issue 31 item 5): N+1 replicas over at least two failure domains, priced.

With `high_availability: true` (000 R3: the agent must keep serving when one GPU fails; "a highly
available agent runs on 2-4 identical GPUs with load balancing") one GPU, one PSU or one mainboard
must not stop the service. A failure domain is one server (bought hardware) or one cloud instance;
a replica (its TP group) lives inside one domain (NVLink/PCIe inside the chassis). The pick holds the
N replicas the peak needs plus one, spread evenly over D ≥ 2 domains so that losing the largest
domain (ceil(R / D) replicas) still leaves N: D is the fewest such domains of at most `SERVER_GPUS`
GPUs each. Bought hardware pays one complete system per domain (`Source.system` of its GPUs); rented
GPUs cost their rent per GPU whatever the instance (the offers are priced per GPU-month).
The domains' price depends on the TP degree and the peak's replicas, not on (source, count) alone, and
smaller systems can cost less than one large one (two 2-GPU RTX 4090 workstations below one 4-GPU
server), so a highly available search visits every candidate (`enumeration.run`): the cost-ordered
search and the count pruning assume the price of a (source, count).
`critical` (default true, 000 G11: grade of the GPU) does not ask for it: it would make every workload
highly available.
"""

from __future__ import annotations

from typing import Callable

from expert.configurator.candidates import SERVER_GPUS, Source


def keeps_serving(gpus: list[int], tp: int, needed: int) -> bool:
    """Whether failure domains of `gpus` GPUs each (replicas of `tp` GPUs) are at least two and still hold
    `needed` replicas after losing the largest one: the search's rule for a pick (`domain_count`) and the
    audit's for a setup's stated servers."""
    return len(gpus) >= 2 and (sum(gpus) - max(gpus)) // tp >= needed


def domain_count(replicas: int, needed: int, tp: int) -> int | None:
    """Fewest failure domains (≥ 2, each ≤ `SERVER_GPUS` GPUs) over which `replicas` replicas of `tp`
    GPUs, spread evenly (`domain_gpus`), keep serving `needed` (`keeps_serving`); None when fewer than
    max(2, needed + 1) replicas."""
    if replicas < max(2, needed + 1):
        return None
    for d in range(2, replicas + 1):
        gpus = domain_gpus(replicas, tp, d)
        if keeps_serving(gpus, tp, needed) and max(gpus) <= SERVER_GPUS:
            return d
    return None


def domain_gpus(replicas: int, tp: int, domains: int) -> list[int]:
    """GPUs in each domain, replicas spread evenly (the larger domains first)."""
    q, r = divmod(replicas, domains)
    return [(q + 1) * tp] * r + [q * tp] * (domains - r)


def domains_cost(source: Source, gpus: list[int], cost: Callable[[Source, int], float]) -> float:
    """GPU cost over the horizon of the domains, CHF: rent per GPU (cloud), else one system per domain;
    `cost(source, count)`: the GPU cost of `count` GPUs of a source (`objective.gpu_cost` at the horizon,
    `feasibility.Context.gpu_cost`)."""
    if source.kind == "cloud":
        return cost(source, sum(gpus))
    return sum(cost(source, g) for g in gpus)


def domain_names(source: Source, gpus: list[int]) -> list[str]:
    """One line per domain: 'server 1: 4 × h100-sxm' (bought) or 'instance 1: ...' (the choice's cloud offer)."""
    word = "instance" if source.kind == "cloud" else "server"
    return [f"{word} {i}: {g} × {source.gpu.id}" for i, g in enumerate(gpus, 1)]
