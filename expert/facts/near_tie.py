"""A near tie: an alternative that costs almost the same as the pick but answers much faster or needs
fewer GPUs. The pick is the cheapest configuration to the centime (`configurator.objective`); an
architect weighs a 0.3 % cost difference against twice the speed, so the report names such an
alternative (rule `r2-near-tie-faster-alternative`) without changing the pick.

Thresholds (own, stated in the finding): within 2 % of the pick's TCO — below the spread of the
published prices of one GPU across providers (000 R4: 15-20 %) — and either fewer GPUs or a time per
output token at least 1.5× shorter.
"""

from __future__ import annotations

from typing import Any

NEAR_SHARE = 0.02      # own threshold: 2 % of the pick's TCO
FASTER = 1.5           # own threshold: TPOT at least 1.5× shorter


def near_tie_fact(choice: dict[str, Any] | None, alternatives: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The `near_tie` fact for the cheapest alternative within `NEAR_SHARE` of the pick's TCO that needs
    fewer GPUs or is `FASTER` per output token; None when there is none (or no pick)."""
    if not choice or not choice.get("tco_chf") or choice.get("pool"):
        return None
    base_tpot = choice.get("tpot_ms")
    for alt in sorted(alternatives, key=lambda a: a.get("tco_chf") or float("inf")):
        extra = (alt.get("tco_chf") or 0) - choice["tco_chf"]
        if not alt.get("tco_chf") or extra < 0 or extra > NEAR_SHARE * choice["tco_chf"]:
            continue
        speedup = base_tpot / alt["tpot_ms"] if base_tpot and alt.get("tpot_ms") else None
        fewer = alt["count"] < choice["count"]
        if fewer or (speedup is not None and speedup >= FASTER):
            return {"t": "near_tie", "gpu": alt["gpu"], "count": alt["count"], "extra_chf": extra,
                    "extra_share": extra / choice["tco_chf"], "tpot_ms": alt.get("tpot_ms"),
                    "choice_tpot_ms": base_tpot, "choice_count": choice["count"], "speedup": speedup,
                    "fewer_gpus": fewer, "horizon_months": choice.get("horizon_months", 36)}
    return None
