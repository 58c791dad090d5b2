"""Rule reach: every rule of the built-in packs fires in some scenario and stays silent in another.

Each `*.scenario.yaml` next to this file is evaluated once through the real pipeline
(`expert.testing.snapshot.scenario_outcome`: workload → advise, setup → audit), and the fired rule
ids of the forward-chaining trace are collected. Unlike `tests/rules/test_rules_fire.py`, which
feeds hand-made facts, this proves the pipeline actually produces the facts each rule needs.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import pytest
import yaml

from expert._plumbing.paths import rules_dir
from expert.testing.snapshot import scenario_outcome

HERE = Path(__file__).parent

# Rules no scenario can reach end-to-end with the built-in catalog, because the pipeline never
# produces the facts they match. Keep this short: add a scenario first. A rule listed here that
# starts firing fails `test_unreachable_list_is_current` so the list stays honest.
UNREACHABLE_END_TO_END: dict[str, str] = {
    # Issue 31 item 6: the search offloads idle KV only where it pays, and no scenario's offloaded KV reaches
    # 000 M3's 4 × VRAM of an owned server (cloud offers state no RAM) or a PCIe link's rate; the rules are
    # driven by tests/rules/test_rules_fire.py (advise-agent-offload-beyond-host).
    "agent-offloaded-kv-exceeds-host-ram": "no scenario's offloaded KV exceeds 4 × VRAM on an owned server",
    "agent-host-link-saturated": "no scenario's reloads reach the GPU's PCIe rate",
    # Issue 33: within the near-tie band the configurator picks fewer GPUs or the faster answer itself
    # (expert/configurator/near_tie_pick.py); the rule names what is left — faster on more GPUs, or fewer
    # and slower — which no scenario produces (tests/unit/test_near_tie.py drives the fact).
    "r2-near-tie-faster-alternative": "the scenarios' near ties are now the picks (near_tie_pick.py)",
    # Issue 33: idle nights are taken only when they save more than 75 CHF a night against the best other
    # source; an L40S night (8 h) does what a rented A100 does in about 2.3 h for a few CHF, so where a rented
    # run exists the L40S never trains at night (tests/rules/test_rules_fire.py drives advise-l40s-trains-idle).
    "m2-choice-l40s-trains-in-idle-nights": "idle nights never beat a rented run by 75 CHF a night on an L40S",
    # audit.sizing_extras always sets finetune_hours when the workload fine-tunes, and without a
    # workload there is no finetune-frequent flag: `finetune_hours: {exists: false}` never matches.
    "m2-l40s-frequent-finetuning-no-estimate": "audit always estimates the fine-tuning run time",
    # Where M5's context holds (under 20B, no growth stated) the configurator rejects candidates whose
    # weights take more than 70 % of a GPU, so the recommendation never shows the thin reserve.
    "m5-choice-reserve-below-30-percent": "configurator enforces M5's reserve where its context holds",
    # The smallest built-in GPUs (L4, A10, RTX 4090, RTX A5000) have 24 GB; `total_vram_gb < 24`
    # needs a 16 GB card (T4, A2, RTX A4000) in the catalog.
    "m5-7b-model-on-less-than-24gb": "no built-in GPU has less than 24 GB",
    # Package 4 (8× A100 SXM4 HGX) costs the same as eight bought A100 SXM cards and loses the
    # tie-break; N4 and B200 purchases are cheaper for the same models. It is never recommended.
    "onprem-used-a100-sxm-package": "package 4 is never the recommended configuration",
    "c3-sxm-system-bought-complete": "needs package 4 as the recommendation (see above)",
}


def _scenario_files() -> list[Path]:
    return sorted(HERE.glob("*.scenario.yaml"))


def _builtin_rule_ids() -> list[str]:
    ids: list[str] = []
    for path in sorted(rules_dir().glob("*.yaml")):
        ids += [rule["id"] for rule in yaml.safe_load(path.read_text(encoding="utf-8"))["rules"]]
    return ids


@lru_cache(maxsize=1)
def _fired_by_scenario() -> dict[str, frozenset[str]]:
    """Scenario name → the rule ids in its trace (evaluated once per test session)."""
    return {path.name: frozenset(item["rule_id"] for item in scenario_outcome(path)["fired_rules"])
            for path in _scenario_files()}


def test_enough_scenarios() -> None:
    files = _scenario_files()
    assert len(files) >= 45, f"only {len(files)} scenarios"
    german = [p for p in files if yaml.safe_load(p.read_text(encoding="utf-8")).get("lang") == "de"]
    assert len(german) >= 5, f"only {len(german)} German scenarios"


def test_every_rule_fires_somewhere() -> None:
    fired = frozenset().union(*_fired_by_scenario().values())
    missing = [rule for rule in _builtin_rule_ids() if rule not in fired and rule not in UNREACHABLE_END_TO_END]
    assert not missing, f"rules no scenario fires (add a scenario or explain in UNREACHABLE_END_TO_END): {missing}"


def test_every_rule_is_silent_somewhere() -> None:
    by_scenario = _fired_by_scenario()
    always = [rule for rule in _builtin_rule_ids() if all(rule in fired for fired in by_scenario.values())]
    assert not always, f"rules that fire in every scenario: {always}"


def test_unreachable_list_is_current() -> None:
    ids = set(_builtin_rule_ids())
    fired = frozenset().union(*_fired_by_scenario().values())
    unknown = sorted(set(UNREACHABLE_END_TO_END) - ids)
    assert not unknown, f"UNREACHABLE_END_TO_END names rules that do not exist: {unknown}"
    reached = sorted(rule for rule in UNREACHABLE_END_TO_END if rule in fired)
    assert not reached, f"now reached end-to-end, remove from UNREACHABLE_END_TO_END: {reached}"


@pytest.mark.parametrize("path", _scenario_files(), ids=lambda p: p.name.removesuffix(".scenario.yaml"))
def test_scenario_has_description(path: Path) -> None:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert str(data.get("description", "")).strip(), "every scenario cites the document section it pins"
