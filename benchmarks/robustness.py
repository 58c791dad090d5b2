"""Time on hostile input: what the robustness tests check for correctness, measured here for speed.

`python -m benchmarks.robustness` prints the slowest parser call on the hostile texts of
tests/interview/test_interview_robustness.py, the slowest interview answer, the refusal of a YAML
alias bomb, and 2000 sequential engine evaluations, each against the target the tests used to
assert (1 s, 1 s, 2 s, 30 s). Tests assert no wall-clock time: a loaded machine must not fail them.
"""

from __future__ import annotations

import contextlib
import io
import sys
import tempfile
import time
from pathlib import Path

HOSTILE = ["1" * 10_000, "1." * 5_000, "1 000 " * 2_000, "a" * 10_000, "llama " * 2_000, "nicht " * 2_000,
           "8x" * 5_000, "ü" * 10_000, "\x00\x1b[31m" * 2_000, ", " * 5_000, "13b, 300 pro minute, " * 500,
           "".join(chr(i) for i in range(1, 10_000))]
BOMB = "a: &a [x,x,x,x,x,x,x,x,x,x]\n" + "".join(
    f"{chr(98 + i)}: &{chr(98 + i)} [" + ",".join([f"*{chr(97 + i)}"] * 10) + "]\n" for i in range(9))


def _seconds(fn) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def parsers() -> tuple[float, str]:
    """The slowest (parser, hostile text) pair: seconds and the parser's name."""
    from expert.interview import parse as p, parse_sentence

    funcs = [p.parse_model, p.parse_volume, p.parse_fine_tuning, p.parse_data, p.parse_latency, p.parse_context,
             p.parse_sector, p.parse_hosting, p.parse_deployment, p.parse_budget, p.parse_horizon, p.parse_growth,
             p.parse_yes_no, parse_sentence]
    return max((_seconds(lambda: f(text)), f.__name__) for f in funcs for text in HOSTILE)


def interview() -> float:
    """The slowest single answer of an interview fed every hostile text, in both languages."""
    from expert.interview import Interview

    worst = 0.0
    for lang in ("en", "de"):
        iv = Interview(lang)
        for text in HOSTILE:
            worst = max(worst, _seconds(lambda: iv.answer(text)))
    return worst


def alias_bomb() -> float:
    """The slowest refusal of a 1 KB alias bomb by `advise`, `audit` and `validate`."""
    from expert.cli.main import main

    worst = 0.0
    with tempfile.TemporaryDirectory() as tmp:
        file = Path(tmp, "w.yaml")
        file.write_text(BOMB + "model: llama-3.1-8b\n")
        for command in ("advise", "audit", "validate"):
            with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
                worst = max(worst, _seconds(lambda: _exit_code(main, [command, str(file)])))
    return worst


def _exit_code(main, argv) -> int:
    try:
        return main(argv)
    except SystemExit as exc:
        return exc.code


def sequential_evaluations(n: int = 2000) -> float:
    """`n` evaluations of the built-in rule base in a row (sessions must be freed: 000's trap)."""
    from benchmarks.soak import fact_sets
    from expert.engine import evaluate
    from expert.engine.rule_base import rule_base

    base, sets = rule_base(), fact_sets()
    return _seconds(lambda: [evaluate(base, sets[i % len(sets)]) for i in range(n)])


def main() -> int:
    """Print each measurement with its target; exit 1 when one is missed."""
    worst_parser, name = parsers()
    rows = [(f"slowest parser on hostile text ({name})", worst_parser, 1.0),
            ("slowest interview answer on hostile text", interview(), 1.0),
            ("alias bomb refused (advise/audit/validate)", alias_bomb(), 2.0),
            ("2000 sequential engine evaluations", sequential_evaluations(), 30.0)]
    missed = 0
    for label, seconds, target in rows:
        ok = seconds <= target
        missed += not ok
        print(f"{label:<55} {seconds * 1000:9.1f} ms  (target {target:g} s) {'ok' if ok else 'MISSED'}")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
