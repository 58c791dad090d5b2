"""TUI timings: launch → first question, and answer → updated view (targets < 1 s and < 100 ms).

    PYTHONPATH=. python benchmarks/tui.py [--runs 5]

Launch is measured cold, in a fresh interpreter per run, from process start (before `import
tui.app`) to the first question being on screen in `run_test` at 80×24; it includes the imports.
The update time is from pressing Enter on a what-if edit (`/set latency 0.3`, "actually 70B") to
the new answer view being mounted, with the real pipeline; it is split into the pipeline's own
time (`Expert.advise`) and the rest (parsing, diffing, building and mounting the view).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]
sys.path.insert(0, str(ROOT))   # `import tui` must find the package, not this script

CHILD = r"""
import time, asyncio, os
t0 = time.perf_counter()
import textual.app
t1 = time.perf_counter()
import expert
t2 = time.perf_counter()
from tui.app import GpuExpertApp
from tui.widgets import QuestionBubble
t3 = time.perf_counter()
async def main():
    app = GpuExpertApp(resume=False, cursor_blink=False)
    async with app.run_test(size=(80, 24)) as pilot:
        while not app.screen.query(QuestionBubble):
            await pilot.pause(0.005)
        print(f"{t1 - t0:.4f} {t2 - t1:.4f} {t3 - t2:.4f} {time.perf_counter() - t3:.4f} "
              f"{time.perf_counter() - t0:.4f}")
        await app.workers.wait_for_complete()
asyncio.run(main())
"""


def launch(runs: int) -> list[list[float]]:
    """Seconds from the start of a child process's script to the first question, as
    [import textual, import expert (its __init__), import tui.app, app start, total]."""
    out = []
    env = {**os.environ, "GPU_EXPERT_STATE_DIR": tempfile.mkdtemp(), "PYTHONPATH": str(ROOT)}
    for _ in range(runs):
        start = time.perf_counter()
        res = subprocess.run([sys.executable, "-c", CHILD], capture_output=True, text=True, env=env,
                             check=True)
        out.append([float(x) for x in res.stdout.split()[-5:]])
        _ = time.perf_counter() - start
    return out


async def updates(rounds: int) -> list[tuple[float, float]]:
    """Seconds from Enter on a what-if edit to the updated answer view."""
    from tui.app import GpuExpertApp

    os.environ["GPU_EXPERT_STATE_DIR"] = tempfile.mkdtemp()
    times = []
    app = GpuExpertApp(resume=False, cursor_blink=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await app.workers.wait_for_complete()

        async def send(text: str) -> None:
            app.chat.query_one("#prompt").value = text
            await pilot.press("enter")
            await app.workers.wait_for_complete()
            await pilot.pause(0.2)  # as a person would: the refinement of the answer finishes first
            await app.workers.wait_for_complete()

        await send("My AI agent uses a model of size Llama 3.1 8B, processes 20000 requests per "
                   "day, needs fine-tuning no, with non-sensitive data.")
        while app.chat.session.interview.next_question() is not None:
            await send("skip")
        edits = ["/set latency 0.3", "/set latency 2", "actually 70B", "actually 8B"]
        for i in range(rounds):
            await send(edits[i % len(edits)])
            times.append((app.chat.last_update_s, app.chat.last_pipeline_s))
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    cold = launch(args.runs)
    total = [c[-1] for c in cold]
    print(f"launch → first question: median {statistics.median(total) * 1000:.0f} ms, "
          f"max {max(total) * 1000:.0f} ms over {len(cold)} cold starts (target < 1000 ms)")
    parts = ("import textual", "import expert (package __init__)", "import tui.app (rest)",
             "app start → first question")
    print("  medians: " + ", ".join(f"{name} {statistics.median(c[i] for c in cold) * 1000:.0f} ms"
                                    for i, name in enumerate(parts)))
    try:
        warm = asyncio.run(updates(args.runs * 2))
    except Exception as exc:  # noqa: BLE001 - the pipeline may not be ready
        print(f"answer → updated view: not measured ({type(exc).__name__}: {exc})")
        return
    warm = [w for w in warm if w[0] is not None]
    if warm:
        total = [w[0] for w in warm]
        pipe = [w[1] for w in warm]
        ui = [a - b for a, b in warm]
        print(f"answer → updated view: median {statistics.median(total) * 1000:.0f} ms, "
              f"max {max(total) * 1000:.0f} ms over {len(warm)} edits (target < 100 ms)")
        print(f"  of which the pipeline (Expert.advise): median {statistics.median(pipe) * 1000:.0f} ms;"
              f" the TUI itself: median {statistics.median(ui) * 1000:.0f} ms, max {max(ui) * 1000:.0f} ms")


if __name__ == "__main__":
    main()
