"""Advice and audit latency, and the rule engine alone, so the report shows where the time goes."""

from __future__ import annotations

import time

from benchmarks.common import summary, timed
from expert.api import Expert

WORKLOAD = {"model": "llama-3.1-8b", "requests_per_day": 50_000, "fine_tuning": "monthly",
            "data": "sensitive", "sector": "health", "hosting": "ch"}
SETUP = {"gpu": "h100-sxm", "count": 4, "interconnect": "pcie", "cpu_cores": 16, "ram_gb": 512,
         "storage": {"type": "sata-ssd", "read_mb_s": 550}, "network_gbps": 10,
         "hosting": {"country": "DE"}, "utilization": {"mean": 0.3, "peak": 0.5}, "latency_p95_s": 0.9,
         "workload": {"model": "llama-3.1-8b", "requests_per_day": 20_000, "fine_tuning": "monthly",
                      "data": "sensitive", "sector": "health"}}


def run(repeat: int = 100) -> list[dict]:
    """Advice end-to-end, audit end-to-end, 1 000 audits, and the engine alone on the audit's facts."""
    from expert.flows.audit import sizing_extras
    from expert.engine import evaluate
    from expert.facts.input_facts import setup_fact
    from expert.inputs.load import load_setup_data
    from expert.engine.rule_base import rule_base

    expert = Expert()
    rows = [summary("advice end-to-end (one process)", timed(lambda: expert.advise(WORKLOAD), repeat), 20.0),
            summary("audit end-to-end", timed(lambda: expert.audit(SETUP), repeat))]
    start = time.perf_counter()
    for _ in range(1000):
        expert.audit(SETUP)
    elapsed = time.perf_counter() - start
    rows.append({"benchmark": "1 000 audits", "runs": 1, "p50_ms": elapsed * 1000, "p95_ms": elapsed * 1000,
                 "mean_ms": elapsed * 1000, "target_ms": 10_000.0, "ok": elapsed < 10})
    setup = load_setup_data(SETUP, None, expert.catalog)
    gpu = expert.catalog.gpu(setup.gpu)
    extra, facts = sizing_extras(setup, gpu, expert.catalog)
    all_facts = [setup_fact(setup, gpu, extra), *facts]
    base = rule_base()
    rows.append(summary("rule engine alone (audit facts)", timed(lambda: evaluate(base, all_facts), repeat)))
    return rows


if __name__ == "__main__":
    for row in run():
        print(f"{row['benchmark']:<36} p50 {row['p50_ms']:8.2f} ms  p95 {row['p95_ms']:8.2f} ms"
              + (f"  target {row['target_ms']:g} ms: {'ok' if row['ok'] else 'MISSED'}" if row['target_ms'] else ""))
