"""The pool enumeration without shortcuts: every count of every homogeneous pool and of every hybrid
pair is built into an option and the least key kept, as `agents.pool_options` chose before issue 21's
bounds. The reference `tests/configurator/test_pool_counts.py` compares the search with."""

from __future__ import annotations

from expert.configurator.pool_counts import _counts, _option
from expert.facts.input_facts import gpu_family


def _least(options: list):
    return min(options, key=lambda o: o.key, default=None)


def pool_options(ps, sources) -> list:
    """Every design's best count (the `agents` module docstring), by brute force."""
    every = tuple(range(len(ps.ws)))
    limit = ps.w.budget_limit_chf
    found = []
    for s in sources:
        packed = ps.bins(every, s)
        counts = [] if packed is None else [n for n in _counts(s) if n >= packed[0]]
        runs = {n: ps.ft_team(ps.tuned, s, n) for n in (counts if ps.tuned else counts[:1])}
        found.append(_least([_option(ps, "homogeneous", [(s, n, "serve+train", every, packed[1])], *ft[1:3])
                             for n, ft in runs.items() if ft[0]]))
    if ps.tuned:
        sides = {"hybrid-split": (ps.pure, ps.tuned), "hybrid-train-only": (every, ())}
        for sg, sf, variant in [(g, f, v) for g in sources for f in sources for v in sides]:
            inf_agents, ft_serve = sides[variant]
            if (gpu_family(sf.gpu) == gpu_family(sg.gpu) or (sg.kind == "cloud") != (sf.kind == "cloud")
                    or "package" in (sg.kind, sf.kind) or not inf_agents):
                continue
            pg, pf = ps.bins(inf_agents, sg), ps.bins(ft_serve, sf)
            ng = None if pg is None else min((n for n in _counts(sg) if n >= max(1, pg[0])), default=None)
            if ng is None or pf is None:
                continue
            options = []
            for nf in [n for n in _counts(sf) if n >= max(1, pf[0])]:
                ok, team, train, _ = ps.ft_team(ps.tuned, sf, nf, around_the_clock=not ft_serve)
                groups = [(sg, ng, "inference", inf_agents, pg[1]),
                          (sf, nf, "serve+train" if ft_serve else "train", ft_serve, pf[1])]
                if ok:
                    options.append(_option(ps, variant, groups, team, train))
            found.append(_least(options))
    return [o for o in found if o is not None and (limit is None or o.gpu_cost <= limit)]
