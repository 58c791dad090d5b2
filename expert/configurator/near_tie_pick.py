"""The near-tie band of the pick (issue 33): inside `near_tie.NEAR_SHARE` of the cheapest configuration's
cost over the horizon (2 %, own: below the 15-20 % that one configuration's price differs by between
providers, 000 R4, so the ranking inside it is within what prices move), fewer GPUs, the faster answer and
the simpler system win over the last francs.

A feasible group best within the band replaces the cheapest when it
- needs fewer GPUs and answers no slower (estimated complete answer at the peak), or
- answers `near_tie.FASTER` (1.5×) faster per output token on no more GPUs and no higher tensor parallelism.
The cheapest of those wins. A near alternative that is faster on more GPUs, or fewer and slower, is not
picked: the rule `r2-near-tie-faster-alternative` names it. The pick line says why (`note`).
"""

from __future__ import annotations

from expert.configurator.feasibility import Candidate
from expert.facts.near_tie import FASTER, NEAR_SHARE


def _wins(c: Candidate, cheapest: Candidate) -> bool:
    extra = c.objective - cheapest.objective
    if not c.feasible or extra < 0 or extra > NEAR_SHARE * cheapest.objective:
        return False
    fewer = c.count < cheapest.count and c.latency <= cheapest.latency
    quicker = c.tpot and cheapest.tpot and cheapest.tpot / c.tpot >= FASTER
    return fewer or bool(quicker and c.count <= cheapest.count and c.tp <= cheapest.tp)


def near_tie_pick(cheapest: Candidate | None, group_best: list[Candidate]) -> Candidate | None:
    """The candidate that wins the near tie over `cheapest` (module docstring), or None."""
    if cheapest is None:
        return None
    winners = [c for c in group_best if c is not cheapest and _wins(c, cheapest)]
    return min(winners, key=lambda c: c.key, default=None)


def note(pick: Candidate, cheapest: Candidate, months: int) -> dict[str, str]:
    """The pick line's reason, {en, de}: what it costs more than the cheapest and what it gains."""
    from expert.configurator.explain import label
    from expert.messages import t
    from expert.report.numbers import grouped, number

    extra = pick.objective - cheapest.objective
    share = number(extra / cheapest.objective * 100, 1, "en", group=False, trim=True)
    out = {}
    for lang in ("en", "de"):
        gains = []
        if pick.count < cheapest.count:
            gains.append(t("configurator.near_tie.fewer", lang, count=pick.count, cheapest=cheapest.count))
        if pick.latency < cheapest.latency:
            gains.append(t("configurator.near_tie.faster", lang, latency=number(pick.latency, 1, lang),
                           cheapest=number(cheapest.latency, 1, lang)))
        out[lang] = t("configurator.near_tie.pick", lang, extra=grouped(extra), months=months,
                      share=share.replace(".", ",") if lang == "de" else share, band=round(NEAR_SHARE * 100),
                      cheapest=label(cheapest, lang), gains=(" and " if lang == "en" else " und ").join(gains))
    return out
