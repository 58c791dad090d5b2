"""In-process advice over many distinct workloads, cold (a) and with the process's caches warm (b).

How (a) cannot be fooled by a cache: each workload is advised in a **new interpreter** of its own
(`python -m benchmarks.speed_inprocess --one N`) that first does what one CLI process does before
its advice — imports every module an advice needs, reads the catalog, compiles the rule packs and
registers them with the engine host, builds the pydantic validators the package defers to first use
— and never advises anything else: whatever an advice memoises anywhere (module dicts, `lru_cache`,
the catalog's `memo`, class attributes) is empty when the timed advice starts, and no two timings
share a process. Which modules to import is learnt from a probe process that advises every workload
once and reports `sys.modules` (so lazy imports inside functions are warm as well).

Why new interpreters and not `fork`ed children of one prepared parent (the method before): a forked
child copies every memory page of the parent it writes to, and CPython writes to the pages of every
object it touches (reference counts). A child advising once paid ~3 000 such copy-on-write faults,
about twice the page faults of the same advice in a process of its own, and its median CPU time was
a third higher — a cost no real process has. A new interpreter per workload costs ~0.3 s more per
workload to prepare, outside the timing.

(b) then advises every workload once in this process, untimed, and times a second round in fresh
`Expert`s that share the (now warm) catalog: the chat's what-if path.
"""

from __future__ import annotations

import gc
import importlib
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = ROOT / "tests" / "scenarios"
# Distinct workloads: models from 3 B to 405 B (dense and MoE, catalog ids and params_b only), rates
# from 1 000 to 1 000 000 requests a day, fine-tuning (LoRA, QLoRA, full; weekly to yearly), pools of
# agents, agent tool loops, on-premise purchases and packages, Swiss/EU hosting, budgets.
SCENARIO_NAMES = (
    "advise-405b-impossible-swiss", "advise-agent-swe-bench-mooncake", "advise-agent-tracelab-coding",
    "advise-agent-u1-rag-with-tools", "advise-agent-kv-dropped-during-tools",
    "advise-d1-13b-size-only-at-50-rps", "advise-g2-yearly-finetuning-a100",
    "advise-g5-h100-monthly-finetuning-complex-model", "advise-m2-weekly-qlora-13b", "advise-moe-mixtral-8x7b",
    "advise-onprem-120b-params-de", "advise-onprem-405b-b200-liquid-cooling", "advise-onprem-70b-own-swiss-site",
    "advise-onprem-8b-single-purchase", "advise-params-only-3b-int8", "advise-q2-int4-allowed",
    "advise-r1-agent-inventory-incomplete", "advise-sovereignty-finance-ch", "advise-u1-rag-7b-de",
    "advise-u1-rag-8b-monthly-retraining", "advise-u2-analytical-34b-quarterly",
    "advise-u3-70b-inference-multi-a100", "advise-u4-t3-five-agents-hybrid", "advise-long-context-8b-128k",
    "advise-sovereignty-public-eu", "advise-t5-capex-short-horizon",
)
EXAMPLES = ("rag-agent", "coding-agent", "finetune-70b-full", "agent-pool-t3")


def workloads() -> list[tuple[str, dict]]:
    """(name, workload mapping) of every benchmark workload; raises if two are the same."""
    out = []
    for name in SCENARIO_NAMES:
        data = yaml.safe_load((SCENARIOS / f"{name}.scenario.yaml").read_text(encoding="utf-8"))
        out.append((name.removeprefix("advise-"), data["workload"]))
    for name in EXAMPLES:
        out.append((f"example {name}", yaml.safe_load((ROOT / "examples" / f"{name}.yaml").read_text("utf-8"))))
    seen = {json.dumps(w, sort_keys=True) for _, w in out}
    if len(seen) != len(out):
        raise ValueError("benchmark workloads are not distinct")
    return out


def _advise_all(items) -> list[str]:
    from expert.api import Expert

    for _, workload in items:
        Expert().advise(workload)
    return sorted(sys.modules)


def _prepare(modules: list[str]) -> None:
    """What one CLI process pays once before its advice: imports, catalog, rules; no advice."""
    for name in modules:
        if name.startswith(("expert", "pydantic", "durable", "jsonschema", "yaml")) and name not in sys.modules:
            try:
                importlib.import_module(name)
            except Exception:  # noqa: BLE001 - a module that only imports inside its package
                pass
    from expert.api import Expert

    Expert().preload()              # reads the catalog, compiles the packs and registers them (with the
                                    # smaller bases an advice evaluates) with the engine host
    _build_validators()
    gc.collect()
    gc.freeze()                     # what the process built so far is long-lived: the collector skips it


def _build_validators() -> None:
    """Build every pydantic validator the package defers to first use (`defer_build`): code a process
    compiles once, like the rules, and no result of any advice."""
    from pydantic import BaseModel

    seen, todo = set(), list(BaseModel.__subclasses__())
    while todo:
        cls = todo.pop()
        if cls in seen:
            continue
        seen.add(cls)
        todo.extend(cls.__subclasses__())
        deferred = type(getattr(cls, "__pydantic_validator__", None)).__name__ == "MockValSer"
        if cls.__module__.startswith(("expert", "tui")) and deferred:
            try:
                cls.model_rebuild(force=True)
            except Exception:  # noqa: BLE001 - a generic or abstract model: built where it is used
                pass


def _timed_advice(workload: dict) -> float:
    from expert.api import Expert

    start = time.perf_counter()
    Expert().advise(workload)
    return time.perf_counter() - start


def _modules(items) -> list[str]:
    """The modules a process that advises every workload has imported (the probe: a new interpreter)."""
    code = ("import json, sys; from benchmarks.speed_inprocess import _advise_all, workloads; "
            "print(json.dumps(_advise_all(workloads())))")
    got = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    return json.loads(got.stdout.strip().splitlines()[-1])


def _in_new_process(index: int, modules: list[str]) -> float:
    """Seconds of one advice of workload `index` in a new interpreter prepared as `_prepare` says."""
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as fh:
        json.dump(modules, fh)
    try:
        got = subprocess.run([sys.executable, "-m", "benchmarks.speed_inprocess", "--one", str(index),
                              "--modules", fh.name], cwd=ROOT, capture_output=True, text=True)
    finally:
        os.unlink(fh.name)
    if got.returncode != 0:
        raise RuntimeError(f"workload {index}: {got.stderr.strip()[-2000:]}")
    return float(got.stdout.strip().splitlines()[-1])


def run() -> dict[str, list[tuple[str, float]]]:
    """{'cold': [(workload, seconds)], 'warm': [...]}: (a) each in a new interpreter, (b) in this one."""
    items = workloads()
    modules = _modules(items)
    cold = [(name, _in_new_process(i, modules)) for i, (name, _) in enumerate(items)]
    _prepare(modules)
    for _, workload in items:
        _timed_advice(workload)     # fills this process's caches
    warm = [(name, _timed_advice(w)) for name, w in items]
    return {"cold": cold, "warm": warm}


def main(argv: list[str] | None = None) -> int:
    """`--one N --modules FILE`: prepare, advise workload N once, print its seconds (for `run`)."""
    import argparse

    parser = argparse.ArgumentParser(description="one cold advice in this new interpreter")
    parser.add_argument("--one", type=int, required=True)
    parser.add_argument("--modules", required=True, help="JSON list of modules to import first")
    args = parser.parse_args(argv)
    workload = workloads()[args.one][1]
    _prepare(json.loads(Path(args.modules).read_text(encoding="utf-8")))
    print(repr(_timed_advice(workload)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
