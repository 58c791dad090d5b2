"""Suggestions for an unknown model id: the same family first, then the nearest size, never a 6B for a 120B.

The family is the id up to its first part that holds a digit ("gpt-oss" of "gpt-oss-200b", "deepseek"
of "deepseek-r2"), or the letters that open it ("qwen" of "qwen3-72b"); the size is the first number
followed by "b" (billions). Catalog models of the family come first, nearest in size; without one, the
models whose size is within a factor of 3, nearest first; without a size, the closest spellings
(difflib) of that family or, failing that, of any id.
"""

from __future__ import annotations

import difflib
import math
import re

from expert.catalog.models import LlmModel

SIZE = re.compile(r"(\d+(?:\.\d+)?)\s*b(?![a-z])")
MAX_RATIO = 3.0


def family_of(name: str) -> str:
    """The family part of a model name (module docstring)."""
    parts = [p for p in re.split(r"[-_ :/]+", name.lower().split("/")[-1]) if p]
    head = []
    for part in parts:
        if any(c.isdigit() for c in part):
            break
        head.append(part)
    if head:
        return "-".join(head)
    letters = re.match(r"[a-z]+", parts[0]) if parts else None
    return letters.group() if letters else ""


def size_of(name: str) -> float | None:
    """Billions of parameters named in a model name ('120b' → 120), else None."""
    found = SIZE.search(name.lower().split("/")[-1])
    return float(found.group(1)) if found else None


def suggest_models(given: str, models: dict[str, LlmModel], n: int = 3) -> list[str]:
    """Up to `n` catalog ids to suggest for an unknown model name (module docstring)."""
    real = {k: m for k, m in models.items() if not m.generic}
    family, size = family_of(given), size_of(given)

    def distance(m: LlmModel) -> float:
        return abs(math.log(m.params_b / size)) if size else 0.0

    same = [k for k in real if family and (k.startswith(family) or family_of(k) == family)]
    if size:
        near = sorted(same, key=lambda k: distance(real[k]))
        if not near:
            near = sorted((k for k in real if distance(real[k]) <= math.log(MAX_RATIO)),
                          key=lambda k: distance(real[k]))
        return near[:n]
    pool = same or list(real)
    return difflib.get_close_matches(given.lower(), pool, n=n, cutoff=0.5 if not same else 0.0)
