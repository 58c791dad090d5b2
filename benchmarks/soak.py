"""Engine soak: many evaluations in one process, memory flat, answers identical to a fresh process.

`python -m benchmarks.soak [N]` (default 100 000) evaluates the built-in rule base over a rotating set
of advice and audit fact sets, measures RSS at start and end, and compares a digest of every
distinct result with the same digest computed in a fresh process. tests/soak runs a CI-sized version.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SETUPS = [
    {"gpu": "h100-sxm", "count": 4, "interconnect": "pcie", "cpu_cores": 16, "ram_gb": 512,
     "storage": {"type": "sata-ssd", "read_mb_s": 550}, "network_gbps": 10, "hosting": {"country": "DE"},
     "utilization": {"mean": 0.3, "peak": 0.5}, "latency_p95_s": 0.9,
     "workload": {"model": "llama-3.1-8b", "requests_per_day": 20_000, "fine_tuning": "monthly",
                  "data": "sensitive", "sector": "health", "latency_target_s": 2}},
    {"gpu": "l40s", "count": 1, "workload": {"params_b": 13, "requests_per_day": 5_000, "growth_params_b": 70}},
    {"gpu": "a10", "count": 2, "latency_p95_s": 4.0, "workload": {"model": "llama-2-7b"}},
    {"gpu": "rtx-4090", "count": 1, "ownership": "owned"},
]


def rss_mb() -> float:
    """Current resident set size in MB (Linux /proc; 0 elsewhere)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def fact_sets() -> list[list[dict]]:
    """The facts of each soak input, built once (the soak measures the engine, not the sizing)."""
    from expert.flows.audit import sizing_extras
    from expert.catalog import load_catalog
    from expert.facts.input_facts import setup_fact
    from expert.inputs.load import load_setup_data

    catalog = load_catalog()
    sets = []
    for data in SETUPS:
        setup = load_setup_data(data, None, catalog)
        gpu = catalog.gpu(setup.gpu)
        extra, facts = sizing_extras(setup, gpu, catalog)
        sets.append([setup_fact(setup, gpu, extra), *facts])
    return sets


def digest(evaluation) -> str:
    """A stable digest of one evaluation: firings, findings and derived facts."""
    data = {"fired": [[f.rule_id, f.matched, f.derived] for f in evaluation.fired],
            "findings": [[f.rule_id, f.title, f.explanation, f.advice, f.facts] for f in evaluation.findings]}
    return hashlib.sha256(json.dumps(data, sort_keys=True, default=str).encode()).hexdigest()


def fresh_digests() -> list[str]:
    """The digests of one evaluation per input, computed in a fresh Python process."""
    code = "from benchmarks.soak import once; import json; print(json.dumps(once()))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT,
                         env={"PYTHONPATH": str(ROOT), "PATH": ""}, timeout=120)
    return json.loads(out.stdout)


def once() -> list[str]:
    """One evaluation per input (what a fresh process answers)."""
    from expert.engine import evaluate
    from expert.engine.rule_base import rule_base

    base = rule_base()
    return [digest(evaluate(base, facts, lang=lang)) for facts in fact_sets() for lang in ("en", "de")]


def soak(n: int) -> dict:
    """`n` evaluations in this process; RSS before and after; every result checked against the first."""
    from expert.engine import evaluate
    from expert.engine.rule_base import rule_base

    base = rule_base()
    sets = fact_sets()
    inputs = [(facts, lang) for facts in sets for lang in ("en", "de")]
    expected = [digest(evaluate(base, facts, lang=lang)) for facts, lang in inputs]  # warm-up
    start_rss = rss_mb()
    start = time.perf_counter()
    mismatches = 0
    for i in range(n):
        facts, lang = inputs[i % len(inputs)]
        result = evaluate(base, facts, lang=lang)
        if i % 97 == 0 or i >= n - len(inputs):  # digest a sample (hashing costs more than the engine)
            mismatches += digest(result) != expected[i % len(inputs)]
    elapsed = time.perf_counter() - start
    end_rss = rss_mb()
    return {"evaluations": n, "seconds": elapsed, "ms_per_evaluation": elapsed * 1000 / n,
            "rss_start_mb": start_rss, "rss_end_mb": end_rss, "rss_growth_mb": end_rss - start_rss,
            "mismatches": mismatches, "expected": expected}


def run(n: int = 100_000) -> list[dict]:
    """Benchmark rows for `python -m benchmarks`."""
    result = soak(n)
    fresh = fresh_digests()
    ok = result["mismatches"] == 0 and fresh == result["expected"] and result["rss_growth_mb"] < 5
    return [{"benchmark": f"engine soak ({n} evaluations)", "runs": 1, "p50_ms": result["ms_per_evaluation"],
             "p95_ms": result["ms_per_evaluation"], "mean_ms": result["ms_per_evaluation"], "target_ms": None,
             "ok": ok},
            {"benchmark": f"  RSS {result['rss_start_mb']:.1f} → {result['rss_end_mb']:.1f} MB, "
                          f"{result['mismatches']} mismatches, fresh process "
                          f"{'identical' if fresh == result['expected'] else 'DIFFERENT'}"}]


def main(argv: list[str]) -> int:
    n = int(argv[0]) if argv else 100_000
    result = soak(n)
    fresh = fresh_digests()
    print(f"{n} evaluations in {result['seconds']:.1f} s ({result['ms_per_evaluation']:.3f} ms each)")
    print(f"RSS {result['rss_start_mb']:.1f} MB → {result['rss_end_mb']:.1f} MB "
          f"({result['rss_growth_mb']:+.1f} MB)")
    print(f"mismatches within the run: {result['mismatches']}; "
          f"fresh process: {'identical' if fresh == result['expected'] else 'DIFFERENT'}")
    ok = result["mismatches"] == 0 and fresh == result["expected"] and result["rss_growth_mb"] < 5
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
