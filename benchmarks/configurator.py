"""Time of one complete configurator search: mean and p95 over N searches (default 50).

    python benchmarks/configurator.py [N]

Prints three lines: the core search (`sensitivity=False`: enumeration, alternatives, Pareto front,
document comparison), the full search with the sensitivity list (≈ 10 sub-searches sharing the
sizing cache), and a multi-agent pool search (000 T3's five agents). Workloads rotate over a mix
(7B-70B, hosting ch/any, opex/capex, with and without fine-tuning); the catalog is loaded once.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from expert.catalog.loader import load_catalog  # noqa: E402
from expert.configurator import search  # noqa: E402

WORKLOADS = [
    {"model": "llama-3.1-8b", "requests_per_day": 144_000, "output_tokens": 100},
    {"model": "llama-3.1-8b", "requests_per_day": 144_000, "output_tokens": 100, "hosting": "ch",
     "fine_tuning": "monthly"},
    {"model": "qwen2.5-14b", "requests_per_day": 20_000, "fine_tuning": "monthly", "latency_target_s": 10},
    {"model": "llama-3.1-70b", "requests_per_day": 5_000, "latency_target_s": 20},
    {"model": "llama-3.1-70b", "requests_per_day": 5_000, "latency_target_s": 20, "fine_tuning": "monthly"},
    {"model": "mixtral-8x7b", "requests_per_day": 50_000, "budget": "capex"},
    {"params_b": 13, "requests_per_day": 30_000, "deployment": "on_premise", "critical": False},
    {"model": "llama-3.1-405b", "latency_target_s": 0.1, "budget_limit_chf": 1000},
]
T3 = yaml.safe_load((Path(__file__).resolve().parents[1] / "examples" / "agent-pool-t3.yaml")
                    .read_text(encoding="utf-8"))
"""000 T3's five agents on one pool (the example file)."""


def timed(fn, n: int) -> tuple[float, float, float]:
    """(mean wall ms, p95 wall ms, mean CPU ms): CPU time shows the cost when other processes share
    the machine's two cores."""
    times, cpu = [], []
    for i in range(n):
        t, c = time.perf_counter(), time.process_time()
        fn(i)
        times.append((time.perf_counter() - t) * 1000)
        cpu.append((time.process_time() - c) * 1000)
    times.sort()
    return statistics.mean(times), times[min(n - 1, int(round(0.95 * (n - 1))))], statistics.mean(cpu)


def main(n: int = 50) -> None:
    catalog = load_catalog()
    search(WORKLOADS[0], catalog)  # warm-up: imports, catalog sources
    core = timed(lambda i: search(WORKLOADS[i % len(WORKLOADS)], catalog, sensitivity=False), n)
    full = timed(lambda i: search(WORKLOADS[i % len(WORKLOADS)], catalog), n)
    pool = timed(lambda i: search(T3, catalog), n)
    for name, (mean, p95, cpu) in (("configurator search (core, no sensitivity)", core),
                                   ("configurator search (complete, with sensitivity)", full),
                                   ("multi-agent pool search (000 T3, 5 agents)", pool)):
        print(f"{name:<50} mean {mean:6.1f} ms  p95 {p95:6.1f} ms  (CPU mean {cpu:5.1f} ms) over {n}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 50)
