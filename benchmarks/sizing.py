"""Full sizings per second: memory + speed + cost for one workload on every catalog GPU."""

from __future__ import annotations

import time

from expert.catalog import load_catalog
from expert.catalog.pricing import default_offer, default_purchase
from expert.sizing.combined import full_sizing
from expert.inputs.workload import Workload

WORKLOAD = Workload(model="llama-3.1-8b", requests_per_day=50_000, latency_target_s=2.0)


def run(seconds: float = 3.0) -> dict:
    """Run full sizings for `seconds`; returns the rate."""
    catalog = load_catalog()
    model = catalog.model(WORKLOAD.model)
    gpus = [(g, default_offer(catalog, g.id), default_purchase(catalog, g.id)) for g in catalog.gpus.values()]
    done = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for gpu, offer, purchase in gpus:
            full_sizing(WORKLOAD, gpu, model, monthly_rent=offer, purchase=purchase, fx=catalog.to_chf)
            done += 1
    elapsed = time.perf_counter() - start
    return {"benchmark": "full sizing (memory+speed+cost, one GPU type)", "per_second": done / elapsed,
            "gpus": len(gpus), "workloads_on_all_gpus_per_second": done / elapsed / len(gpus)}


if __name__ == "__main__":
    result = run()
    print(f"{result['per_second']:.0f} full sizings/s; one workload on all {result['gpus']} catalog GPUs: "
          f"{result['workloads_on_all_gpus_per_second']:.1f}/s")
