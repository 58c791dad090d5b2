"""Cold command-line runs: `gpu-expert advise|estimate|audit|--help` as whole processes.

Each command runs in a new interpreter (`python -m expert ...`), stdout discarded, timed from before
the process starts to its exit. Two figures per command:

- `first`: the first run after a catalog change: an empty GPU_EXPERT_CACHE_DIR of its own, so this
  run reads the YAML and writes the compiled catalog;
- `runs`: `repeat` runs after that, the everyday case (the compiled catalog is there), with each
  run's CPU time (user + system, from `wait4`): on a machine that other jobs load, wall time
  includes waiting for a core and CPU time does not.

Bytecode is there in both (pip compiles an installed package's modules): it goes to a temporary
PYTHONPYCACHEPREFIX, written by one untimed run of every command first, so nothing is written beside
the sources; PYTHONDONTWRITEBYTECODE of the caller's environment is ignored (it would make every run
compile every module, which no installed package does).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
COMMANDS: dict[str, list[str]] = {
    "advise": ["advise", "examples/rag-agent.yaml"],
    "estimate": ["estimate", "--model", "llama-3.1-8b", "--gpu", "l40s"],
    "audit": ["audit", "examples/idle-h100.yaml"],
    "--help": ["--help"],
}


def _env(bytecode: Path, cache: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.update(PYTHONPYCACHEPREFIX=str(bytecode), GPU_EXPERT_CACHE_DIR=str(cache),
               PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
    return env


def _once(args: list[str], env: dict[str, str], cpu: list[float] | None = None) -> float:
    """Wall seconds of one run; its CPU seconds (user + system) are appended to `cpu`."""
    start = time.perf_counter()
    child = subprocess.Popen([sys.executable, "-m", "expert", *args], cwd=ROOT, env=env,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        raise RuntimeError(f"gpu-expert {' '.join(args)} exited with {child.returncode}")
    if cpu is not None:
        cpu.append(usage.ru_utime + usage.ru_stime)
    return wall


def run(repeat: int = 5) -> dict[str, dict[str, object]]:
    """{command: {'first': seconds, 'runs': [wall seconds × repeat], 'cpu': [CPU seconds × repeat]}}."""
    scratch = Path(tempfile.mkdtemp(prefix="gpu-expert-bench-"))
    out: dict[str, dict[str, object]] = {}
    try:
        for args in COMMANDS.values():          # bytecode of every module these commands import
            _once(args, _env(scratch / "bytecode", scratch / "warm-up"))
        for n, (name, args) in enumerate(COMMANDS.items()):
            env = _env(scratch / "bytecode", scratch / f"cache-{n}")
            first, cpu = _once(args, env), []
            out[name] = {"first": first, "runs": [_once(args, env, cpu) for _ in range(repeat)], "cpu": cpu}
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return out
