"""TUI timings: launch → first question, and answer → updated view (targets < 1 s and < 100 ms).

    PYTHONPATH=. python benchmarks/tui.py [--runs 5]

Launch is measured cold, in a fresh interpreter per run, from process start (before `import
tui.app`) to the first question being on screen in `run_test` at 80×24; it includes the imports.
The update time is from pressing Enter on a what-if edit (`/set latency 0.3`, "actually 70B") to
the first paint of the screen that shows the new answer, with the real pipeline (the headless
driver receives the frame; a terminal adds its own drawing time). Also printed: the pipeline's
own time (`Expert.advise`), the moment the view holds the new report, and when the screen settles
(Textual lays out a second time after widgets change size; that pass rarely changes what is seen).
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


async def updates(rounds: int, first: list | None = None) -> list[dict[str, float]]:
    """Per what-if edit, seconds from Enter to: the pipeline's answer (`pipeline`, its own time),
    the answer view holding it (`shown`), the screen's next paint (`painted`: the new answer is on
    screen) and the last paint before the refinement starts (`settled`: Textual lays out a second
    time when widgets changed size). The same timings of the line that completed the interview (the
    first answer on screen) are appended to `first` when given."""
    from textual.screen import Screen

    from tui.app import GpuExpertApp
    from tui.screens import ChatScreen

    REFINE_DELAY_S = ChatScreen.REFINE_DELAY_S
    paints: list[float] = []
    paint = Screen._compositor_refresh

    def recorded(screen) -> None:
        paint(screen)
        paints.append(time.perf_counter())

    def timing(chat) -> dict[str, float] | None:
        asked, shown = chat._asked_at, chat._asked_at + chat.last_update_s
        after = [p for p in paints if shown <= p < shown + REFINE_DELAY_S]
        if not after:
            return None
        return {"pipeline": chat.last_pipeline_s, "shown": chat.last_update_s,
                "painted": after[0] - asked, "settled": after[-1] - asked}

    Screen._compositor_refresh = recorded  # the moment the headless driver is handed the frame
    os.environ["GPU_EXPERT_STATE_DIR"] = tempfile.mkdtemp()
    times = []
    app = GpuExpertApp(resume=False, cursor_blink=False)
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await app.workers.wait_for_complete()

            async def send(text: str) -> None:
                app.chat.query_one("#prompt").value = text
                await pilot.press("enter")
                await app.workers.wait_for_complete()
                while app.chat.refining:  # as a person would read: the refinement ends first
                    await pilot.pause(0.02)
                await app.workers.wait_for_complete()
                await pilot.pause(0.1)
                if first is not None and not first and app.chat.last_update_s is not None:
                    got = timing(app.chat)
                    if got is not None:
                        first.append(got)

            await send("My AI agent uses a model of size Llama 3.1 8B, processes 20000 requests per "
                       "day, needs fine-tuning no, with non-sensitive data.")
            while app.chat.session.interview.next_question() is not None:
                await send("skip")
            edits = ["/set latency 0.3", "/set latency 2", "actually 70B", "actually 8B"]
            for i in range(rounds):
                await send(edits[i % len(edits)])
                got = timing(app.chat)
                if got is not None:
                    times.append(got)
    finally:
        Screen._compositor_refresh = paint
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
    if not warm:
        print("answer → updated view: no paint recorded")
        return

    def med(key: str) -> str:
        return f"{statistics.median(w[key] for w in warm) * 1000:.0f} ms"

    painted = [w["painted"] for w in warm]
    print(f"answer → updated view on screen: median {med('painted')}, max {max(painted) * 1000:.0f} ms "
          f"over {len(warm)} edits (target < 100 ms)")
    print(f"  medians: pipeline (Expert.advise) {med('pipeline')}, view refilled {med('shown')}, "
          f"first paint {med('painted')}, settled (Textual's second layout) {med('settled')}")


if __name__ == "__main__":
    main()
