"""Whether the search's own GPU limit, not a candidate's memory, is why nothing fits (QA 47 #12).

The search stops at `candidates.SCALE_OUT_COUNTS[-1]` GPUs (64, an own limit, not a document's). A volume
whose peak needs more replicas than that fails every candidate: the small ones on memory or latency, the
largest ones on capacity only. The closest candidate (fewest failed constraints, then the smallest miss)
is then often a one-GPU candidate whose memory misses by less than the capacity does, and "needs 144 GB,
has 92" hides the real cause. `beyond_limit` evaluates each source at its largest count and returns the
candidate whose only miss is capacity and that needs the fewest GPUs; its `capacity` violation carries the
GPUs the peak needs (`gpus_needed`), which the nothing-fits text names beside the limit.
"""

from __future__ import annotations

from expert.configurator.feasibility import Candidate, evaluate


def beyond_limit(ctx, sources) -> Candidate | None:
    """The candidate at a source's largest count that misses capacity alone and needs the fewest GPUs,
    None where every largest candidate misses something else too (the limit is not the cause)."""
    found: Candidate | None = None
    for source in sources:
        count = max(source.counts)
        for precision in ctx.precisions(source.gpu):
            for tp in ctx.tp_degrees(count, source):
                c = evaluate(ctx, source, precision, tp, count)
                if [v.kind for v in c.violations] != ["capacity"] or needed(c) is None:
                    continue  # another miss, or no count the search tries serves the peak: not the limit alone
                if found is None or needed(c) < needed(found) or \
                        (needed(c) == needed(found) and c.objective < found.objective):
                    found = c
    return found


def needed(c: Candidate) -> int | None:
    """The GPUs the peak needs at `c`'s replica layout (its capacity violation); None where no replica count
    the search tries serves it within the targets."""
    return c.violations[0].facts["gpus_needed"]
