"""The raw result of one enumeration (`enumeration.enumerate_candidates`, `ordered.enumerate_ordered`),
before any text: optimum, group bests, closest infeasible candidates."""

from __future__ import annotations

from expert.configurator.feasibility import Candidate


class Outcome:
    """Raw result of one enumeration (before texts): optimum, group bests, closest infeasible.

    The closest candidates may be left to find on first use (`pending`: a function that fills them,
    `ordered.enumerate_ordered`), since an answer with enough feasible alternatives shows none."""

    def __init__(self):
        self.best: Candidate | None = None
        self.feasible: list[Candidate] = []
        self.group_best: dict[tuple, Candidate] = {}
        self._group_closest: dict[tuple, Candidate] = {}
        self._closest: Candidate | None = None
        self.pending = None
        self.evaluated = 0

    def _resolve(self) -> None:
        if self.pending is not None:
            fill, self.pending = self.pending, None
            fill(self)

    @property
    def group_closest(self) -> dict[tuple, Candidate]:
        """Closest infeasible candidate of each group (of each with no feasible one, at least)."""
        self._resolve()
        return self._group_closest

    @property
    def closest(self) -> Candidate | None:
        """The closest infeasible candidate of all (shown when nothing fits)."""
        self._resolve()
        return self._closest

    @closest.setter
    def closest(self, c: Candidate | None) -> None:
        self._resolve()
        self._closest = c
