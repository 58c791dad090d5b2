"""gpu-expert: which GPUs to run your AI agents on, and an audit of the ones you run.

Public API: `advise`, `audit`, `estimate` and the `Expert` class (see `expert.api`). They are
imported on first use (PEP 562), so `import expert` stays cheap for the chat's start-up. No
submodule of the package bears one of these names, so none can replace them once imported.

Layout (README.md, "Layout"): `inputs` → `facts` → `sizing` → `configurator` → `engine` (rules)
→ `report`, run end to end by `flows`; `api`, `cli` and the chat (`tui`) on top.
"""

from __future__ import annotations

__all__ = ["Expert", "advise", "audit", "estimate"]
__version__ = "0.1.0"


def __getattr__(name: str):
    if name not in __all__:
        raise AttributeError(f"module 'expert' has no attribute {name!r}")
    from expert import api

    value = getattr(api, name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
