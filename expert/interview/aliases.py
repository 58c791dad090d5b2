"""Loose matching of model names typed by people onto catalog model ids.

No catalog dependency: the known models come in as a mapping alias → catalog id. Matching ignores
case and separators (`Llama-3.1-70B-Instruct`, `llama3.1 70b`, `qwen 2.5 14b`), and when only a family
and a size are given (`llama 70b`) it picks the newest catalog model of that family and size and says so.
"""

from __future__ import annotations

import re

CONTRACT_MODEL_IDS = (
    "llama-2-7b", "llama-2-13b", "llama-2-70b", "llama-3.1-8b", "llama-3.1-70b", "llama-3.1-405b",
    "llama-3.3-70b", "mistral-7b", "mixtral-8x7b", "qwen2.5-7b", "qwen2.5-14b", "qwen2.5-32b",
    "qwen2.5-72b", "gemma-2-9b", "gemma-2-27b", "codellama-34b", "falcon-40b",
    # added in 0.3 (issue 30): the models agents run on today
    "gpt-oss-20b", "gpt-oss-120b", "qwen3-8b", "qwen3-14b", "qwen3-32b", "qwen3-30b-a3b", "qwen3-235b-a22b",
    "qwen3-coder-480b-a35b", "llama-4-scout", "llama-4-maverick", "gemma-3-12b", "gemma-3-27b",
    "mistral-small-3.1-24b", "phi-4", "deepseek-v3", "deepseek-r1", "deepseek-v3.1", "kimi-k2", "glm-4.5",
    "glm-4.5-air", "llama-3.2-3b",
)
"""The model ids every catalog has (CONTRACT.md)."""

# family (`llama`, or hyphenated: `gpt-oss`, `mistral-small`), version, total size, and the active size of
# an MoE left aside: `gpt-oss-20b`, `qwen3-8b`, `qwen3-30b-a3b`
_ID_RE = re.compile(r"^([a-z]+(?:-[a-z]+)*?)-?(\d+(?:\.\d+)?)?-(\d+x)?(\d+(?:\.\d+)?)b(?:-a\d+b)?$")
_TOKEN_RE = re.compile(r"[a-z0-9]+")
_MAX_WINDOW = 6


def key(text: str) -> str:
    """An alias key: lower case, letters and digits only (`Llama-3.1-8B` → `llama318b`)."""
    return "".join(_TOKEN_RE.findall(text.lower()))


def build_aliases(ids: tuple[str, ...] | list[str]) -> dict[str, str]:
    """Aliases for catalog ids: each id maps to itself; spellings are matched loosely by `key`."""
    return {model_id: model_id for model_id in ids}


DEFAULT_MODEL_ALIASES: dict[str, str] = build_aliases(CONTRACT_MODEL_IDS)
"""Alias → catalog id for the contract's models (`llama3.1 70b`, `Llama-3.1-70B`, …)."""


def split_id(model_id: str) -> tuple[str, str, str] | None:
    """(family, version, size) of an id like `llama-3.1-8b` or `mixtral-8x7b`; None otherwise."""
    m = _ID_RE.match(model_id)
    if not m:
        return None
    return m.group(1), m.group(2) or "", (m.group(3) or "") + m.group(4)


def params_of(model_id: str) -> float | None:
    """Billions of parameters read off an id (`llama-3.1-70b` → 70; mixtral 8x7b → 46.7)."""
    part = split_id(model_id)
    if not part:
        return None
    size = part[2]
    if "x" in size:
        experts, each = size.split("x")
        return 46.7 if size == "8x7" else float(experts) * float(each)
    return float(size)


def exact(text: str, models: dict[str, str]) -> tuple[str, int, int] | None:
    """The longest alias found as a run of whole words; returns (id, start, end) in text."""
    keys = {key(alias): model_id for alias, model_id in models.items() if key(alias)}
    tokens = [(m.group(), m.start(), m.end()) for m in _TOKEN_RE.finditer(text)]
    best: tuple[int, str, int, int] | None = None
    for i in range(len(tokens)):
        joined = ""
        for j in range(i, min(i + _MAX_WINDOW, len(tokens))):
            joined += tokens[j][0]
            if joined in keys and (best is None or len(joined) > best[0]):
                best = (len(joined), keys[joined], tokens[i][1], tokens[j][2])
    return best[1:] if best else None


def family_of(text: str, models: dict[str, str]) -> tuple[str, int, int] | None:
    """The model family named in the text (`llama`, `qwen`, …) with its span, longest first."""
    families = sorted({p[0] for p in map(split_id, models.values()) if p}, key=len, reverse=True)
    tokens = list(_TOKEN_RE.finditer(text))
    for i, m in enumerate(tokens):
        for family in families:
            if m.group().startswith(family):
                return family, m.start(), m.end()
            parts = family.split("-")  # a hyphenated family spoken as words: `gpt oss`, `gpt-oss`
            if len(parts) > 1 and [t.group() for t in tokens[i:i + len(parts)]] == parts:
                return family, m.start(), tokens[i + len(parts) - 1].end()
    return None


def by_family(family: str, size: str, version: str,
              models: dict[str, str]) -> tuple[str | None, list[str]]:
    """Pick the catalog id for a family, size (`70`, `8x7`) and optional version (`3`, `3.1`).

    Returns (id, the other candidates that were passed over); the newest version wins; a version
    given but absent from the catalog gives (None, []).
    """
    same = sorted({i for i in models.values()
                   if (p := split_id(i)) and p[0] == family and p[2] == size})
    if version:
        exact_v = [i for i in same if split_id(i)[1] == version]
        if exact_v:
            return exact_v[0], []
        same = [i for i in same if split_id(i)[1].split(".")[0] == version.split(".")[0]]
    if not same:
        return None, []
    pick = max(same, key=lambda i: [float(x) for x in (split_id(i)[1] or "0").split(".")])
    return pick, [i for i in same if i != pick]
