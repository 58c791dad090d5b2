"""Timing helpers shared by the benchmarks."""

from __future__ import annotations

import platform
import statistics
import time
from typing import Callable


def timed(fn: Callable[[], object], repeat: int, warmup: int = 3) -> list[float]:
    """Wall-clock seconds of `repeat` calls of `fn`, after `warmup` untimed calls."""
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return times


def percentile(values: list[float], share: float) -> float:
    """The `share` quantile (0..1) by nearest rank."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * (len(ordered) - 1))))]


def summary(name: str, times: list[float], target_ms: float | None = None) -> dict:
    """One benchmark row: p50/p95/mean in ms and whether the target holds."""
    p50, p95 = percentile(times, 0.5) * 1000, percentile(times, 0.95) * 1000
    return {"benchmark": name, "runs": len(times), "p50_ms": p50, "p95_ms": p95,
            "mean_ms": statistics.fmean(times) * 1000, "target_ms": target_ms,
            "ok": None if target_ms is None else p50 <= target_ms}


def machine() -> str:
    """A one-line description of this machine."""
    import os

    return f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"
