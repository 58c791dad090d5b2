"""Accuracy of the sizing core against the published measurements: `python -m benchmarks.accuracy`.

Prints every row (measured, estimated, relative error, what was compared), the skipped rows with
their reasons, and the median |relative error| for memory rows (memory + finetune_memory) and speed
rows (decode + throughput + ttft) against the targets 10 % and 25 %.
"""

from __future__ import annotations

from expert.sizing.accuracy import MEMORY_KINDS, SPEED_KINDS, AccuracyReport, evaluate

TARGETS = {"memory": (MEMORY_KINDS, 0.10), "speed": (SPEED_KINDS, 0.25)}


def table(report: AccuracyReport) -> str:
    lines = [f"{'row':58} {'kind':15} {'measured':>11} {'estimated':>11} {'unit':>22} {'error':>8}  compared"]
    for c in sorted(report.used, key=lambda c: (c.kind, c.id)):
        lines.append(f"{c.id:58} {c.kind:15} {c.measured:11.4g} {c.estimated:11.4g} {c.unit:>22} "
                     f"{c.error:+8.1%}  {c.quantity}")
    lines.append("")
    lines.append(f"skipped ({len(report.skipped)}):")
    for s in report.skipped:
        info = "" if s.error is None else f" [error if compared: {s.error:+.1%}]"
        lines.append(f"  {s.id:58} {s.kind:15} {s.reason}{info}")
    lines.append("")
    for name, (kinds, target) in TARGETS.items():
        rows = report.rows(kinds)
        med = report.median(kinds)
        lines.append(f"{name:6} rows {len(rows):3}  median |error| {med:6.1%}  target <= {target:.0%}  "
                     f"{'OK' if med <= target else 'MISSED'}")
    lines.append(f"used {len(report.used)}, skipped {len(report.skipped)}")
    return "\n".join(lines)


def run() -> dict:
    report = evaluate()
    return {"benchmark": "accuracy vs published measurements", "used": len(report.used),
            "skipped": len(report.skipped), "memory_median": report.memory_median,
            "speed_median": report.speed_median}


def main() -> None:
    print(table(evaluate()))


if __name__ == "__main__":
    main()
