"""The README's chat transcript is a real session: its `>` lines are typed into the chat (real
pipeline), and every other line of it must be on the chat's screen afterwards, in the same order."""

from __future__ import annotations

import re
from pathlib import Path

from tui_helpers import screen_text, send

README = Path(__file__).resolve().parents[2] / "README.md"


def transcript() -> list[str]:
    """The lines of the fenced block under the README's "## The chat"."""
    section = README.read_text(encoding="utf-8").split("## The chat\n", 1)[1]
    block = re.search(r"```\n(.*?)```", section, re.S)
    assert block, "README: no transcript under '## The chat'"
    return block.group(1).splitlines()


async def test_the_readme_transcript_is_what_the_chat_says(make_app):
    lines = transcript()
    typed = [line[2:] for line in lines if line.startswith("> ")]
    shown = [line for line in lines if not line.startswith("> ")]
    assert len(typed) >= 5 and "★ Recommendation" in shown
    app = make_app(lang="en")
    async with app.run_test(size=(100, 50)) as pilot:
        for text in typed:
            await send(pilot, text)
        screen = screen_text(app)
    from expert.messages import t

    assert shown[0] == "? " + t("question.model.text", "en")   # asked first; scrolled out of the log by the end
    at = 0
    for line in shown[1:]:
        found = screen.find(line, at)
        assert found >= 0, f"README line not on the chat's screen (after the previous one): {line!r}"
        at = found + len(line)
