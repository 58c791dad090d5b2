"""Every scenario and example gives the answer recorded in tests/data/golden (`tools/golden.py`).

The goldens were recorded from the real command line (advise or audit; text and JSON; en and de).
A difference fails here with the first changed lines; an intended change is recorded with
`python -m tools.golden --update NAME` and named in CHANGELOG.md with its reason.
"""

from __future__ import annotations

import difflib

import pytest

from tools.golden import GOLDEN, inputs, render

INPUTS = inputs()


def test_every_input_has_a_golden():
    """No golden file is missing or left over from a removed input."""
    stored = {p.stem for p in GOLDEN.glob("*.txt")}
    assert stored == set(INPUTS)


@pytest.mark.parametrize("name", sorted(INPUTS))
def test_output_equals_golden(name):
    """The four outputs of `name` are byte-identical to the recorded ones."""
    golden = (GOLDEN / f"{name}.txt").read_text(encoding="utf-8")
    now = render(INPUTS[name])
    if now != golden:
        diff = list(difflib.unified_diff(golden.splitlines(), now.splitlines(), "golden", "now", lineterm="", n=1))
        pytest.fail(f"{name} differs from its golden (python -m tools.golden --update {name} if intended):\n"
                    + "\n".join(diff[:40]))
