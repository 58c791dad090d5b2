"""The chat app honours --catalog-dir and --rules-dir end to end: `gpu-expert chat` → run_app →
Advisor → Expert, so the team's negotiated offer and policies reach the chat's answers."""

from __future__ import annotations

import yaml
from team_helpers import TEAM_REPO

SCENARIOS = TEAM_REPO / "scenarios"


def test_chat_uses_team_catalog_and_rules(monkeypatch):
    import tui.app
    from expert.cli.main import main

    seen = {}

    def fake_run(self):
        seen["advisor"] = self.advisor
        return 0

    monkeypatch.setattr(tui.app.GpuExpertApp, "run", fake_run)
    assert main(["chat", "--lang", "en", "--catalog-dir", str(SCENARIOS / "catalog"),
                 "--rules-dir", str(SCENARIOS / "rules")]) == 0
    advisor = seen["advisor"]
    chatbot = yaml.safe_load((SCENARIOS / "support-chatbot-8b.scenario.yaml").read_text())["workload"]
    assert advisor.advise(chatbot, "en").recommendation.offer == "acme-l40s"
    search = yaml.safe_load((SCENARIOS / "internal-search-any-host.scenario.yaml").read_text())["workload"]
    assert "acme-hosting-ch-only" in {f.rule_id for f in advisor.advise(search, "en").findings}
