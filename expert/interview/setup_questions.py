"""The audit interview's question order (an existing setup).

Asked when someone has no setup file: `/audit` alone in the chat. Each question fills fields of the
setup file of CONTRACT.md; every one but the GPU can be skipped (the audit then checks less). The
questions' words are in the message catalog (`expert.messages.setup_questions`).
"""

from __future__ import annotations

SETUP_ORDER = ("gpu", "ownership", "workload", "utilization", "latency_p95", "location",
               "interconnect", "operations", "host")
"""The audit interview's questions in order (`interconnect` only for more than one GPU)."""
