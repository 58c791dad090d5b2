"""The (source, count) pairs of a search, cheapest first, priced only as far as a search reads them.

A cost-ordered search (`ordered.py`) visits the pairs in order of GPU cost and usually stops after a
few: pricing and sorting all of them (27 offers × 22 counts alone are 594) cost more than the visit.
`PricedPairs` is the same sorted sequence, built lazily: a k-way merge of one stream per source.

Why the merge gives exactly the sorted list: the entries are ordered by (GPU cost rounded to the
cent, source kind order, catalog order, count), and one source's entries are already in that order
when its counts ascend — its rounded cost grows strictly with the count at every horizon
(`test_costs_grow_with_the_count`, on which `ordered.enumerate_ordered` relies as well) and kind
and catalog order name the source. The merge of sorted streams is the sorted union. No two entries
share the four fields, so ties never reach the `Source` in the fifth.

The entries read so far are kept, so a second reader (the closest-candidate pass) replays them and
extends the merge only past them; extending takes a lock, so that readers in several threads share
one sequence safely.
"""

from __future__ import annotations

import heapq
import threading

from expert.configurator.candidates import Source
from expert.configurator.keys import inputs
from expert.configurator.objective import SOURCE_ORDER, gpu_cost
from expert.sizing.constants import Assumptions


@inputs
class Horizon:
    """What a GPU cost reads besides the source and count (`objective.gpu_cost`): the months and the
    assumptions (energy price, resale, overhead). The key of the prices the searches of one catalog
    share."""

    months: int
    a: Assumptions


def price(costs: dict, source: Source, count: int, months: int, a: Assumptions) -> float:
    """`objective.gpu_cost` of `count` GPUs of `source` at `Horizon(months, a)`, read from `costs` (the
    prices the searches of one catalog share at that horizon, by source key and count) or priced and kept
    there."""
    key = (source.key, count)
    cost = costs.get(key)
    if cost is None:
        cost = costs[key] = gpu_cost(source, count, months, a)
    return cost


class PricedPairs:
    """`pairs` entries (rounded GPU cost, kind order, catalog order, count, source, GPU cost) of some
    sources at one horizon, cheapest first, priced on first read (module docstring)."""

    __slots__ = ("_done", "_heap", "_months", "_a", "_lock", "_sources", "_groups", "_costs")

    def __init__(self, sources: list[Source], months: int, a, costs: dict | None = None):
        self._done: list[tuple] = []
        self._costs = {} if costs is None else costs   # GPU cost by (source key, count), at `Horizon(months, a)`
        self._months, self._a, self._sources = months, a, sources
        self._heap = [self._entry(s, 0) for s in sources if s.counts]
        heapq.heapify(self._heap)
        self._lock = threading.Lock()
        self._groups: dict | None = None

    def _entry(self, source: Source, i: int) -> tuple:
        """Heap item of `source`'s i-th count: the entry's order fields, the index, the source, the cost."""
        count = source.counts[i]
        cost = price(self._costs, source, count, self._months, self._a)
        return round(cost, 2), SOURCE_ORDER[source.kind], source.order, count, i, source, cost

    def _next(self) -> None:
        """Price and keep the next entry of the merge (nothing at the end)."""
        with self._lock:
            heap = self._heap
            if not heap:
                return
            rounded, kind, order, count, i, source, cost = heap[0]
            if i + 1 < len(source.counts):
                heapq.heapreplace(heap, self._entry(source, i + 1))
            else:
                heapq.heappop(heap)
            self._done.append((rounded, kind, order, count, source, cost))

    def first(self) -> tuple | None:
        """The cheapest entry (None when there is none)."""
        if not self._done:
            self._next()
        return self._done[0] if self._done else None

    def __iter__(self):
        done, i = self._done, 0
        while True:
            if i >= len(done):
                self._next()
                if i >= len(done):   # nothing left (another thread's reads only append)
                    return
            yield done[i]
            i += 1

    def by_group(self) -> dict:
        """The same pairs split by (GPU, source kind) group, each a `PricedPairs`, groups in the order
        of their cheapest pair (built on first use)."""
        if self._groups is None:
            members: dict = {}
            for s in self._sources:
                members.setdefault(s.group, []).append(s)
            groups = {g: PricedPairs(group, self._months, self._a, self._costs) for g, group in members.items()}
            firsts = sorted((p.first()[:4], g) for g, p in groups.items() if p.first() is not None)
            self._groups = {g: groups[g] for _, g in firsts}
        return self._groups

