"""Speed of advice, in one run: in-process cold and warm, cold CLI processes, and the chat.

    python -m benchmarks.speed [--repeat 5] [--skip-chat] [--readme]

(a) in-process advice over 30 distinct workloads, each in a fresh `Expert` in a new interpreter of
    its own with warm imports, a parsed catalog and compiled rules that never advised (no result
    cache of any kind can be warm: `benchmarks.speed_inprocess`);
(b) the same workloads advised again in one process whose caches are warm (the chat's what-if);
(c) `gpu-expert advise|estimate|audit|--help` as whole new processes, median of `--repeat`
    (`benchmarks.speed_cli`), and the first run after a catalog change;
(d) the chat: the line that completes the interview → first paint of the answer, and a what-if edit
    (`/set`, "actually 70B") → repaint (`benchmarks.tui`'s headless driver).

Prints one table beside the budgets (issue 29: (a) p50 ≤ 15 ms, a cold CLI advise ≤ 0.3 s, a chat
what-if ≤ 100 ms); `--readme` also rewrites README.md's speed table
between its markers. The benchmark measures and prints; no test asserts wall-clock time.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime
import os
import statistics
import sys
from pathlib import Path

from benchmarks.common import machine, percentile

ROOT = Path(__file__).resolve().parent.parent
COLD_P50_TARGET = 0.015  # issue 29's budget: the first advice of a distinct workload, p50
BEGIN, END = "<!-- speed:begin (python -m benchmarks.speed --readme) -->", "<!-- speed:end -->"


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms" if seconds >= 0.0995 else f"{seconds * 1000:.1f} ms"


def _row(name: str, values: list[float], p50_target: float | None, p95_target: float | None = None,
         extra: str = "") -> list[str]:
    p50, p95 = percentile(values, 0.5), percentile(values, 0.95)
    measured = f"p50 {_ms(p50)}, p95 {_ms(p95)} over {len(values)}" + (f"; {extra}" if extra else "")
    targets = [f"p50 ≤ {_ms(p50_target)}" if p50_target else "", f"p95 ≤ {_ms(p95_target)}" if p95_target else ""]
    target = ", ".join(t for t in targets if t) or "—"
    ok = all(v <= t for v, t in ((p50, p50_target), (p95, p95_target)) if t)
    return [name, measured, target, ("ok" if ok else "MISSED") if p50_target else ""]


def _inprocess_rows() -> list[list[str]]:
    from benchmarks import speed_inprocess

    got = speed_inprocess.run()
    rows = []
    for key, label in (("cold", "(a) advice in-process, fresh `Expert`, no cache warm"),
                       ("warm", "(b) advice in-process, the process's caches warm")):
        times = [t for _, t in got[key]]
        slowest = max(got[key], key=lambda item: item[1])
        rows.append(_row(label, times, COLD_P50_TARGET if key == "cold" else None, None,
                         f"slowest {slowest[0]} {_ms(slowest[1])}"))
    return rows


CLI_TARGETS = {"advise": 0.3, "--help": 0.15}


def _cli_rows(repeat: int) -> list[list[str]]:
    from benchmarks import speed_cli

    rows = []
    for name, got in speed_cli.run(repeat).items():
        runs = got["runs"]
        target = CLI_TARGETS.get(name)
        median = statistics.median(runs)
        rows.append([f"(c) cold CLI `gpu-expert {name}`, whole process",
                     f"median {_ms(median)} of {len(runs)} (CPU {_ms(statistics.median(got['cpu']))}); "
                     f"first after a catalog change {_ms(got['first'])}",
                     f"≤ {_ms(target)}" if target else "—",
                     ("ok" if median <= target else "MISSED") if target else ""])
    return rows


def _chat_rows(rounds: int) -> list[list[str]]:
    from benchmarks.tui import updates

    first: list[dict[str, float]] = []
    edits = asyncio.run(updates(rounds, first))
    rows = []
    for label, got in (("(d) chat: answer completing the interview → first paint", first),
                       ("(d) chat: what-if (`/set`, \"actually 70B\") → repaint", edits)):
        if got:
            rows.append(_row(label, [g["painted"] for g in got], 0.1,
                             extra=f"pipeline p50 {_ms(percentile([g['pipeline'] for g in got], 0.5))}"))
        else:
            rows.append([label, "not measured (no paint recorded)", "p50 ≤ 100 ms", ""])
    return rows


def table(rows: list[list[str]]) -> str:
    """A Markdown table of the rows."""
    lines = ["| figure | measured | target | |", "|---|---|---|---|"]
    return "\n".join(lines + [f"| {' | '.join(row)} |" for row in rows])


def write_readme(text: str) -> None:
    """Replace README.md's block between the speed markers with `text`."""
    path = ROOT / "README.md"
    readme = path.read_text(encoding="utf-8")
    start, end = readme.find(BEGIN), readme.find(END)
    if start < 0 or end < start:
        raise SystemExit(f"README.md has no block between {BEGIN!r} and {END!r}")
    path.write_text(readme[:start + len(BEGIN)] + "\n" + text + "\n" + readme[end:], encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    """Measure, print the table, optionally rewrite README's block."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="runs of each CLI command (median)")
    parser.add_argument("--skip-chat", action="store_true", help="leave out (d)")
    parser.add_argument("--readme", action="store_true", help="rewrite README.md's speed table")
    args = parser.parse_args(argv)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
    rows = _inprocess_rows() + _cli_rows(args.repeat)
    if not args.skip_chat:
        rows += _chat_rows(8)
    busy = "" if load is None else f", load average {load:.1f} at the start"
    heading = f"Speed (`python -m benchmarks.speed`; {machine()}, {datetime.date.today().isoformat()}{busy}):"
    text = heading + "\n\n" + table(rows)
    print(text)
    if args.readme:
        write_readme(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
