"""Issue 15: closing the terminal ends the chat (it once kept spinning at 95 % of a core).

The chat runs in a real pseudo-terminal; the test closes the terminal and waits for the process
to end. Two ways in: started directly (the kernel sends SIGHUP), and under `make` (make dies on
the hangup and the chat, its grandchild, gets no signal: `tui.terminal` notices the hung-up
terminal itself).
"""

from __future__ import annotations

import os
import pty
import select
import shutil
import signal
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
START_S = 60.0
"""Generous bound for the chat to show its first question on a loaded machine."""
GONE_S = 2.0
"""The issue's bound from closing the terminal to the process being gone."""
GRACE_S = 10.0
"""How long the loop polls at most, so that a slow exit on a loaded machine is reported with its
time rather than as a process that never ends."""


def _spawn(argv: list[str], state: Path, tag: str) -> tuple[int, int]:
    """Start `argv` in a new pseudo-terminal (its controlling terminal); `tag` marks the
    environment of it and its children, to find them in /proc."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "GPU_EXPERT_STATE_DIR": str(state),
           "TERM": "xterm-256color", "GPU_EXPERT_TEST_TAG": tag}
    pid, fd = pty.fork()
    if pid == 0:  # the child
        os.chdir(ROOT)
        os.execvpe(argv[0], argv, env)
    return pid, fd


def _wait_for_question(fd: int) -> None:
    seen, deadline = b"", time.monotonic() + START_S
    while time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.2)
        if ready:
            try:
                seen += os.read(fd, 65536)
            except OSError:
                break
            if b"Which AI model" in seen:
                return
    pytest.fail(f"the chat did not show its first question; output: {seen[-400:]!r}")


def _chats(tag: str) -> list[int]:
    """Running Python processes of the chat whose environment carries `tag`."""
    out = []
    for proc in Path("/proc").iterdir():
        try:
            if (proc.name.isdigit() and f"GPU_EXPERT_TEST_TAG={tag}".encode() in
                    (proc / "environ").read_bytes() and b"expert" in (proc / "cmdline").read_bytes()
                    and (proc / "stat").read_text().split()[2] not in ("Z", "X")):
                out.append(int(proc.name))
        except OSError:
            pass
    return out


def _reap(pid: int) -> None:
    try:
        os.waitpid(pid, os.WNOHANG)
    except ChildProcessError:
        pass


def _close_and_wait(fd: int, pid: int, tag: str) -> float:
    """Close the terminal; poll until no chat process of `tag` is left; the seconds it took."""
    assert _chats(tag), "no chat process found before closing"
    start = time.monotonic()
    os.close(fd)
    while time.monotonic() < start + GRACE_S:
        _reap(pid)
        if not _chats(tag):
            break
        time.sleep(0.05)
    return time.monotonic() - start


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="needs /proc and a Unix pty")
@pytest.mark.parametrize("via_make", [False, True], ids=["direct", "under-make"])
def test_closing_the_terminal_ends_the_chat(tmp_path, via_make):
    if via_make and shutil.which("make") is None:
        pytest.skip("make is not installed")
    tag = f"{os.getpid()}-{via_make}"
    argv = [sys.executable, "-m", "expert", "chat", "--lang", "en"]
    if via_make:
        makefile = tmp_path / "Makefile"
        makefile.write_text("run:\n\t" + " ".join(argv) + "\n")
        argv = ["make", "-s", "-f", str(makefile), "run"]
    pid, fd = _spawn(argv, tmp_path, tag)
    try:
        _wait_for_question(fd)
        took = _close_and_wait(fd, pid, tag)
        left = _chats(tag)
    finally:
        for chat in _chats(tag):   # never leave a spinning chat behind, pass or fail
            os.kill(chat, signal.SIGKILL)
        _reap(pid)
    assert not left, f"the chat still runs {took:.1f} s after its terminal was closed"
    assert took < GONE_S, f"the chat took {took:.1f} s to end after its terminal was closed"
