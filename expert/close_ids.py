"""The known ids to suggest for an unknown one ("m2-team", "agent-kv", "l40z"): prefix first.

`difflib.get_close_matches` alone ranks by the similarity of whole strings, so a short start of a
long id loses to any other short id: "agent-kv" gave "m3-storage-not-nvme" before
"agent-kv-residency-bound" and none of the other agent-kv-* rules; "m2-team" gave nothing, and the
message then listed every id (QA 47 #14). Here the ids that begin with what was typed come first (in
the order they are known), then those that hold each of its words ("agent-kv" → "agent-offloaded-kv-…"),
then difflib's closest, at most `n` in all.
"""

from __future__ import annotations

import difflib
import re

MAX_SUGGESTIONS = 5
"""At most this many ids are suggested."""
CUTOFF = 0.5
"""difflib's similarity (0–1) below which an id is not suggested."""


def close_ids(given: str, known: list[str], n: int = MAX_SUGGESTIONS) -> list[str]:
    """Up to `n` ids of `known` close to `given`: those that begin with it, then the most similar.

    close_ids("m2-team", ["m2-team-time-not-counted", "m2-pick", "m2-team-time-against-gpu-saving"])
    → ["m2-team-time-not-counted", "m2-team-time-against-gpu-saving"] (both begin with "m2-team";
    "m2-pick" is only 2·3/14 = 0.43 similar, below the cutoff)."""
    typed = given[:200].strip().lower()
    if not typed:
        return []
    words = set(re.split(r"[-_\s.]+", typed)) - {""}
    starts = [k for k in known if k.lower().startswith(typed)]
    holds = [k for k in known if words <= set(re.split(r"[-_\s.]+", k.lower()))]
    similar = difflib.get_close_matches(typed, known, n=n, cutoff=CUTOFF)
    return list(dict.fromkeys(starts + holds + similar))[:n]
