"""The rule engine's facts on precision beside the pick (issue 22, 000 Q2): one `quantised_option` per
cheaper quantised configuration beside a kept (stated) precision, and one `quantised_pick` when an open
precision was quantised, with the configuration at the workload's own precision to compare.

The numbers come from the configurator (`expert.configurator.quantised`); the quality notes from the
message catalog (`configurator.quality.<precision>`, 000 Q2 and G3), in English (`note`) and German
(`note_de`), since a rule's text quotes the fact of its own language.
"""

from __future__ import annotations

from typing import Any

from expert.configurator.quantised import how
from expert.facts.input_facts import clean_fact
from expert.messages import t
from expert.inputs.workload import Workload


def _notes(precision: str) -> dict[str, str]:
    return {"note": t(f"configurator.quality.{precision}", "en"),
            "note_de": t(f"configurator.quality.{precision}", "de")}


def _objective(choice: Any) -> float:
    return choice.objective_chf if choice.objective_chf is not None else choice.tco_chf


def precision_facts(w: Workload, result) -> list[dict[str, Any]]:
    """The `quantised_option` and `quantised_pick` facts of a search result (none for a pool)."""
    pick = result.recommendation
    out = []
    for option in getattr(result, "quantised", []):
        out.append(clean_fact({
            "t": "quantised_option", "precision": option.precision, "stated": w.precision, "gpu": option.gpu,
            "count": option.count, "tco_chf": option.tco_chf, "choice_fits": pick is not None,
            "saving_chf": _objective(pick) - _objective(option) if pick is not None else None,
            "horizon_months": option.horizon_months, "how": how(w, option.precision), **_notes(option.precision)}))
    fits = getattr(result, "unquantised_fits", None)
    if fits is not None and pick is not None:
        base = result.unquantised
        out.append(clean_fact({
            "t": "quantised_pick", "precision": pick.precision, "stated": w.precision, "gpu": pick.gpu,
            "count": pick.count, "tco_chf": pick.tco_chf, "baseline_fits": fits,
            "baseline_gpu": base.gpu if base else None, "baseline_count": base.count if base else None,
            "baseline_tco_chf": base.tco_chf if base else None,
            "saving_chf": _objective(base) - _objective(pick) if base else None,
            "horizon_months": pick.horizon_months, **_notes(pick.precision)}))
    return out
