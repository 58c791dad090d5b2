"""`python -m benchmarks` (or `make bench`): every benchmark in its own process, one report.

Each benchmark is a script that measures and prints (`python -m benchmarks.NAME`); this runs them
one after another on an otherwise quiet machine and adds each one's peak memory. The 100 000-run
engine soak is separate: `python -m benchmarks.soak`. `speed` (issue 21: cold and warm advice, cold CLI
processes, the chat) also rewrites README.md's speed table.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import time

from benchmarks.common import machine

BENCHMARKS = ("sizing", "configurator", "advice", "tui", "accuracy", "robustness", "speed")
ARGS = {"speed": ("--readme",)}  # `make bench` refreshes README.md's speed table


def main() -> int:
    """Run every benchmark and print its output under a heading, with time and peak memory."""
    print(f"machine: {machine()}")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [os.getcwd(), os.environ.get("PYTHONPATH")]))}
    failed = 0
    for name in BENCHMARKS:
        print(f"\n== {name}")
        start = time.perf_counter()
        done = subprocess.run([sys.executable, "-m", f"benchmarks.{name}", *ARGS.get(name, ())], env=env, capture_output=True, text=True)
        out = done.stdout.strip().splitlines()
        print("\n".join(out[-40:]) if out else done.stderr.strip()[-2000:])
        peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        print(f"({time.perf_counter() - start:.1f} s; peak memory of the largest benchmark so far {peak:.0f} MB)")
        failed += done.returncode != 0
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
