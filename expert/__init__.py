"""gpu-expert: which GPUs to run your AI agents on, and an audit of the ones you run.

Public API: `advise`, `audit`, `estimate` and the `Expert` class (see `expert.api`). They are
imported on first use (PEP 562), so `import expert` stays cheap for the chat's start-up.
"""

from __future__ import annotations

__all__ = ["Expert", "advise", "audit", "estimate"]
__version__ = "0.1.0"


def __getattr__(name: str):
    if name in __all__:
        from expert import api

        return getattr(api, name)
    raise AttributeError(f"module 'expert' has no attribute {name!r}")
