"""Helpers for the TUI tests: type into the prompt, wait for the report, read the screen's text.

Named `tui_helpers` (not `helpers`) so it cannot collide with other test directories' modules.
"""

from __future__ import annotations

SIZE = (80, 24)
"""Every TUI test runs at the smallest supported terminal."""

SETUP = {"gpu": "h100-sxm", "count": 2, "interconnect": "pcie", "ownership": "rented",
         "cpu_cores": 8, "ram_gb": 64, "storage": {"type": "hdd", "read_mb_s": 150},
         "hosting": {"country": "US", "provider_seat": "US"},
         "utilization": {"mean": 0.15, "peak": 0.3}, "latency_p95_s": 0.9, "monitoring": False,
         "backups": False,
         "workload": {"model": "llama-3.1-8b", "requests_per_day": 20000, "data": "sensitive",
                      "sector": "health"}}
"""A setup with one of each of the five mistakes of document 000 (idle H100s, HDD and 8 cores,
patient data in the US, no monitoring) for the audit tests."""


async def workers_done(app) -> None:
    """Wait until no worker runs. A worker the chat cancelled (a newer answer came first) makes
    Textual's `wait_for_complete` raise `WorkerCancelled` until it is cleared: wait again then."""
    from textual.worker import WorkerCancelled

    for _ in range(100):
        try:
            await app.workers.wait_for_complete()
            return
        except WorkerCancelled:
            continue


async def send(pilot, text: str) -> None:
    """Type `text` into the prompt, press Enter, and wait until the report (if any) is shown."""
    app = pilot.app
    await pilot.pause()
    prompt = app.chat.query_one("#prompt")
    prompt.focus()
    prompt.value = text
    await pilot.press("enter")
    await settle(pilot)


async def settle(pilot) -> None:
    """Wait for the report worker, the refinement that follows it, and the mounts they cause."""
    await workers_done(pilot.app)
    # The refinement (sensitivity lines) starts after the paint. The bound only turns a stuck
    # `refining` into a clear failure instead of a hang: at least 60 s, ~1000× its time on an idle machine.
    for _ in range(3000):
        if not pilot.app.chat.refining:
            break
        await pilot.pause(0.02)
    else:
        raise AssertionError("the answer's refinement never ended (`refining` stuck)")
    await workers_done(pilot.app)
    await pilot.pause()
    await pilot.pause()


def screen_text(app) -> str:
    """All text of the chat log and the sentence panel (not only the visible part)."""
    from textual.widgets import Static

    from tui.widgets.cards import Card

    parts = []
    for widget in app.chat.query(Static):
        content = widget if isinstance(widget, Card) else widget.content
        parts.append(str(getattr(content, "plain", content)))
    return "\n".join(parts)


def visible_text(app) -> str:
    """What is on screen now, row by row (from Textual's SVG screenshot: only the visible part)."""
    import html
    import re

    rows: dict[float, list[tuple[float, str]]] = {}
    for m in re.finditer(r'<text class="[^"]*" x="([\d.]+)" y="([\d.]+)"[^>]*>(.*?)</text>',
                         app.export_screenshot()):
        rows.setdefault(float(m.group(2)), []).append((float(m.group(1)), html.unescape(m.group(3))))
    return "\n".join("".join(text for _, text in sorted(row)) for _, row in sorted(rows.items())
                     ).replace("\xa0", " ")
