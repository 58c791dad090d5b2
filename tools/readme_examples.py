"""The README's command examples, run for real: every `$ gpu-expert ...` line of a fenced block in
README.md (and in the documents of `DOCS`: docs/agents.md's agent shapes) is executed and its output
compared with the lines that follow it in the block.

    python -m tools.readme_examples            # check: a diff per example that differs, exit 1
    python -m tools.readme_examples --update   # rewrite README.md's outputs from the real ones
    make readme                                # the same as --update

Format of an example: `$ gpu-expert ARGS [| head -N]` then its output, up to the next `$ ` line or
the end of the block. A last output line of `…` alone means "and more lines": only the lines above it
are compared, and --update keeps that many. Commands run in-process (`expert.cli.main.main`) from the
repository root; `tests/unit/test_readme_examples.py` runs the check in the suite.
"""

from __future__ import annotations

import contextlib
import difflib
import io
import shlex
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DOCS = (README, ROOT / "docs" / "agents.md")
"""Every document whose command examples `make readme` re-records and the suite checks."""
PROMPT = "$ "
PROGRAM = "gpu-expert"
MORE = "…"


@dataclass
class Example:
    """One command of the README and the output shown for it (`start`/`end`: README line indexes)."""

    command: str
    start: int
    end: int
    shown: list[str]

    @property
    def truncated(self) -> bool:
        """Whether the README shows only the first lines, closed by a `…` line."""
        return bool(self.shown) and self.shown[-1] == MORE


def examples(lines: list[str]) -> list[Example]:
    """Every `$ gpu-expert` command in a fenced block of the README's lines, with its shown output."""
    found, in_block, current = [], False, None
    for index, line in enumerate(lines):
        if line.startswith("```"):
            if in_block and current is not None:
                current.end = index
                found.append(current)
            in_block, current = not in_block, None
            continue
        if not in_block or not line.startswith(PROMPT):
            if current is not None:
                current.shown.append(line)
            continue
        if current is not None:
            current.end = index
            found.append(current)
        current = None
        if line[len(PROMPT):].split(" ", 1)[0] == PROGRAM:
            current = Example(line[len(PROMPT):], index + 1, index + 1, [])
    return found


def run(command: str) -> list[str]:
    """The output lines of one README command (`gpu-expert ARGS`, optionally `| head -N`)."""
    from expert.cli.main import main

    program, *filters = [part.strip() for part in command.split(" | ")]
    argv = shlex.split(program)
    if argv[0] != PROGRAM:
        raise ValueError(f"not a {PROGRAM} command: {command}")
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        try:
            main(argv[1:])
        except SystemExit:  # argparse's --help and usage errors
            pass
    lines = out.getvalue().rstrip("\n").split("\n")
    for step in filters:
        words = step.split()
        if len(words) != 2 or words[0] != "head" or not words[1].startswith("-") or not words[1][1:].isdigit():
            raise ValueError(f"unsupported filter '{step}' in: {command} (only `head -N`)")
        lines = lines[:int(words[1][1:])]
    return lines


def expected_and_actual(example: Example) -> tuple[list[str], list[str]]:
    """What the README shows and what the command prints, cut the same way."""
    actual = run(example.command)
    if example.truncated:
        shown = example.shown[:-1]
        return shown, actual[:len(shown)] + ([MORE] if len(actual) > len(shown) else [])
    return example.shown, actual


def differences(readme: Path = README) -> list[str]:
    """A unified diff per example whose real output differs from the README (empty: all agree)."""
    with _at_root():
        found = []
        for example in examples(readme.read_text(encoding="utf-8").split("\n")):
            shown, actual = expected_and_actual(example)
            if example.truncated:
                shown = shown + [MORE]
            if shown != actual:
                diff = difflib.unified_diff(shown, actual, readme.name, "real output", lineterm="", n=1)
                found.append(f"$ {example.command}  ({readme.name} line {example.start})\n" + "\n".join(diff))
        return found


def update(readme: Path = README) -> int:
    """Rewrite every example's output in the README from the real output; returns how many changed."""
    with _at_root():
        lines = readme.read_text(encoding="utf-8").split("\n")
        changed = 0
        for example in reversed(examples(lines)):
            shown, actual = expected_and_actual(example)
            if example.truncated:
                shown = shown + [MORE]
            if shown != actual:
                lines[example.start:example.end] = actual
                changed += 1
        readme.write_text("\n".join(lines), encoding="utf-8")
        return changed


@contextlib.contextmanager
def _at_root():
    """Run the commands from the repository root, where the README's relative paths point."""
    import os

    before = os.getcwd()
    os.chdir(ROOT)
    try:
        yield
    finally:
        os.chdir(before)


def main(argv: list[str]) -> int:
    """Check (default) or --update; prints what differs or what was rewritten."""
    if argv == ["--update"]:
        for doc in DOCS:
            print(f"{doc.relative_to(ROOT)}: {update(doc)} example(s) rewritten from the real output")
        return 0
    if argv:
        print(__doc__)
        return 2
    found = [diff for doc in DOCS for diff in differences(doc)]
    print("\n\n".join(found) if found else "README.md, docs: every command example matches the real output")
    if found:
        print("\nrefresh with: make readme  (python -m tools.readme_examples --update)")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
