"""`python -m benchmarks` (or `make bench`): every benchmark, one table, with the machine it ran on."""

from __future__ import annotations

import importlib
import resource
import sys

from benchmarks.common import machine


def _rows(name: str):
    try:
        module = importlib.import_module(f"benchmarks.{name}")
    except ImportError as error:
        return [{"benchmark": f"{name} (not available: {error})"}]
    result = module.run()
    return result if isinstance(result, list) else [result]


def main() -> int:
    """Run all benchmarks and print the table."""
    print(f"machine: {machine()}")
    print(f"{'benchmark':<44} {'p50 ms':>10} {'p95 ms':>10} {'target':>10}  result")
    for name in ("sizing", "configurator", "advice", "tui"):
        for row in _rows(name):
            if "per_second" in row:
                print(f"{row['benchmark']:<44} {row['per_second']:>10.0f} /s")
                continue
            if "p50_ms" not in row:
                print(row["benchmark"])
                continue
            target = f"{row['target_ms']:g}" if row.get("target_ms") else "-"
            verdict = "" if row.get("ok") is None else ("ok" if row["ok"] else "MISSED")
            print(f"{row['benchmark']:<44} {row['p50_ms']:>10.2f} {row['p95_ms']:>10.2f} {target:>10}  {verdict}")
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"{'peak memory (this process)':<44} {peak_mb:>10.0f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
