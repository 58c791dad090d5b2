"""gpu-expert: which GPUs to run your AI agents on, and an audit of the ones you run.

Public API: `advise`, `audit`, `estimate` and the `Expert` class (see `expert.api`).
"""

from expert.api import Expert, advise, audit, estimate

__all__ = ["Expert", "advise", "audit", "estimate"]
__version__ = "0.1.0"
