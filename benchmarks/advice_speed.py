"""In-process advice speed over the scenario workloads (issue 21): p50/p95 of one `advise` each.

`python -m benchmarks.advice_speed [N] [--profile]`: the first N (default all, at least 20) distinct
`tests/scenarios/advise-*.scenario.yaml` workloads, each advised once in a fresh `Expert` sharing one
loaded catalog, after one untimed advice (warm imports) — "first pass"; then the same workloads
again ("caches warm": the per-catalog sizing cache holds what the first pass sized). Targets
(issue 21): p50 ≤ 5 ms, p95 ≤ 20 ms. `--profile` adds cProfile's top functions of one more pass.
"""

from __future__ import annotations

import cProfile
import glob
import io
import pstats
import sys
import time

import yaml

from benchmarks.common import machine, percentile
from expert.api import Expert
from expert.catalog import load_catalog

TARGET_P50_MS, TARGET_P95_MS = 5.0, 20.0


def workloads(limit: int | None = None) -> list[dict]:
    """The distinct workloads of the advice scenarios, in file order."""
    out, seen = [], set()
    for path in sorted(glob.glob("tests/scenarios/advise-*.scenario.yaml")):
        with open(path, encoding="utf-8") as fh:
            w = yaml.safe_load(fh)["workload"]
        key = repr(sorted(w.items()))
        if key not in seen:
            seen.add(key)
            out.append(w)
    return out[:limit]


def one_pass(catalog, ws: list[dict]) -> tuple[list[float], list[float]]:
    """(wall-clock, CPU) seconds of one advice per workload, each in a fresh `Expert`. CPU time
    (`process_time`) is what this process spent, so it shows less of a shared machine's load."""
    wall, cpu = [], []
    for w in ws:
        start, start_cpu = time.perf_counter(), time.process_time()
        Expert(catalog=catalog).advise(w)
        wall.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    return wall, cpu


def line(name: str, times: tuple[list[float], list[float]]) -> str:
    """One result line: wall-clock p50/p95/max against the targets, CPU p50/p95 beside."""
    wall, cpu = times
    p50, p95 = percentile(wall, 0.5) * 1000, percentile(wall, 0.95) * 1000
    ok = "ok" if p50 <= TARGET_P50_MS and p95 <= TARGET_P95_MS else "MISSED"
    return (f"{name:<12} n={len(wall):<3} wall p50 {p50:7.2f} ms  p95 {p95:7.2f} ms  max {max(wall) * 1000:7.1f} ms"
            f"  {ok}  (CPU p50 {percentile(cpu, 0.5) * 1000:7.2f} ms  p95 {percentile(cpu, 0.95) * 1000:7.2f} ms)")


def main(argv: list[str]) -> int:
    """Measure and print (module docstring)."""
    limit = next((int(a) for a in argv if a.isdigit()), None)
    ws = workloads(limit)
    catalog = load_catalog()
    Expert(catalog=catalog).advise({"model": "llama-3.1-8b", "requests_per_day": 1000})  # warm imports
    print(f"machine: {machine()}; {len(ws)} workloads; targets p50 ≤ {TARGET_P50_MS:g} ms, "
          f"p95 ≤ {TARGET_P95_MS:g} ms")
    print(line("first pass", one_pass(catalog, ws)))
    print(line("caches warm", one_pass(catalog, ws)))
    if "--profile" in argv:
        fresh = load_catalog()
        Expert(catalog=fresh).advise({"model": "llama-3.1-8b", "requests_per_day": 1000})
        prof = cProfile.Profile()
        prof.enable()
        one_pass(fresh, ws)
        prof.disable()
        buf = io.StringIO()
        pstats.Stats(prof, stream=buf).sort_stats("tottime").print_stats(30)
        print(buf.getvalue())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
