"""A team's repository of scenario snapshots (examples/team-repo), run as the team runs it.

Each test copies examples/team-repo to a temporary directory and runs `pytest` on it in a
subprocess, with no conftest.py: the plugin comes from the `pytest11` entry point (or `-p
expert.testing.plugin` where the package is not installed, see conftest.plugin_args).
"""

from __future__ import annotations

import json

import pytest

from team_helpers import TEAM_REPO, run_pytest

SCENARIOS = {path.name.removesuffix(".scenario.yaml")
             for path in (TEAM_REPO / "scenarios").glob("*.scenario.yaml")}
# Scenarios whose outcome involves the negotiated offer acme-l40s (recommended or an alternative).
USES_ACME_L40S = {"support-chatbot-8b", "claims-rag-70b"}
OLD_PRICE, NEW_PRICE = 640, 660


def snapshot(repo, name: str) -> dict:
    return json.loads((repo / "scenarios" / "__snapshots__" / f"{name}.scenario" / f"{name}.json").read_text())


def acme_choices(outcome: dict) -> list[dict]:
    """The recommendation and alternatives priced with the negotiated offer."""
    choices = [outcome["recommendation"] or {}, *outcome["alternatives"]]
    return [c for c in choices if c.get("offer") == "acme-l40s"]


@pytest.fixture(scope="module")
def baseline(tmp_path_factory):
    """A copy of the team repo run once as committed; (repo, that first run).

    If the committed snapshots are stale (another change moved an outcome), the copy is brought up to
    date with --snapshot-update so the price test below still starts from a clean baseline; the
    staleness itself is reported by test_committed_snapshots_are_current."""
    import shutil

    repo = tmp_path_factory.mktemp("team") / "team-repo"
    shutil.copytree(TEAM_REPO, repo)
    first = run_pytest(repo)
    if first.code != 0:
        assert run_pytest(repo, "--snapshot-update").code == 0
    return repo, first


def test_committed_snapshots_are_current(baseline):
    """`pytest examples/team-repo` passes on the committed snapshots, one test per scenario."""
    _, first = baseline
    assert len(SCENARIOS) >= 4
    assert first.code == 0, ("examples/team-repo snapshots are stale; review and run "
                             "`pytest examples/team-repo --snapshot-update`\n" + first.output[-4000:])
    assert first.passed == SCENARIOS and not first.failed


def test_one_price_change_fails_exactly_the_dependent_snapshots(baseline):
    """Raising the negotiated L40S price (640 → 660 CHF) in the team's catalog/offers.yaml fails the
    snapshots of exactly the scenarios priced with that offer; the diff shows old and new costs."""
    repo, _ = baseline
    before = {name: snapshot(repo, name) for name in SCENARIOS}
    assert {name for name, outcome in before.items() if acme_choices(outcome)} == USES_ACME_L40S

    offers = repo / "scenarios" / "catalog" / "offers.yaml"
    text = offers.read_text()
    assert text.count(f"amount: {OLD_PRICE}\n") == 1
    offers.write_text(text.replace(f"amount: {OLD_PRICE}\n", f"amount: {NEW_PRICE}\n"))

    run = run_pytest(repo)
    assert run.failed == USES_ACME_L40S, run.output[-4000:]
    assert run.passed == SCENARIOS - USES_ACME_L40S
    removed = {line[1:].strip() for line in run.output.splitlines() if line.startswith("-")}
    added = {line[1:].strip() for line in run.output.splitlines() if line.startswith("+")}
    # 000 T1 as the catalog applies it: monthly cost = count × rent × (1 + 15 % infrastructure) + energy.
    for name in USES_ACME_L40S:
        for choice in acme_choices(before[name]):
            old = choice["monthly_cost_chf"]
            new = round(old + choice["count"] * (NEW_PRICE - OLD_PRICE) * 1.15, 2)
            assert f'"monthly_cost_chf": {old},' in removed, (name, old)
            assert f'"monthly_cost_chf": {new},' in added, (name, new)


def test_invalid_scenario_names_file_field_and_reason(team_repo):
    """A scenario with a bad value fails alone, with one line: file, field path and reason."""
    scenarios = team_repo / "scenarios"
    (scenarios / "bad-latency.scenario.yaml").write_text(
        "workload:\n  model: llama-3.1-8b\n  requests_per_day: 1000\n  latency_target_s: -1\n")
    (scenarios / "bad-hosting.scenario.yaml").write_text(
        "setup:\n  gpu: l40s\n  hosting: {country: Switzerland}\n")
    (scenarios / "bad-key.scenario.yaml").write_text("workload: {model: llama-3.1-8b}\nteam: acme\n")

    run = run_pytest(team_repo, "-k", "bad")
    assert run.failed == {"bad-latency", "bad-hosting", "bad-key"}, run.output[-3000:]
    assert ("invalid scenario: scenarios/bad-latency.scenario.yaml: field workload.latency_target_s: "
            "Input should be greater than 0") in run.output
    assert ("invalid scenario: scenarios/bad-hosting.scenario.yaml: field setup.hosting.country: "
            "String should have at most 2 characters") in run.output
    assert "invalid scenario: scenarios/bad-key.scenario.yaml: field team: unknown field" in run.output
    assert "Traceback" not in run.output
