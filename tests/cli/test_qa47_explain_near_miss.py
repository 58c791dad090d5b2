"""QA 47 #14: `explain` with a near-miss rule id names the close ids (prefix first), at most 5, in
`--lang`, the same line in the CLI and the chat; never all 177 ids."""

from __future__ import annotations

import pytest

from expert.close_ids import close_ids
from expert.report.explain import unknown_rule

KNOWN = ["m3-storage-not-nvme", "agent-kv-offload-during-tools", "agent-kv-dropped-during-tools",
         "agent-kv-residency-bound", "agent-offloaded-kv-exceeds-host-ram", "m2-team-time-against-gpu-saving",
         "m2-team-time-not-counted", "c4-kv-room-below-peak"]


def test_ids_that_begin_with_the_typed_id_come_first():
    # before (difflib alone, n=3): [] for "m2-team"; "m3-storage-not-nvme" first for "agent-kv"
    assert close_ids("m2-team", KNOWN) == ["m2-team-time-against-gpu-saving", "m2-team-time-not-counted"]
    # the 3 agent-kv-*, then the one holding both words, then difflib's m3-storage-not-nvme
    # (ratio 2·7/27 = 0.52 ≥ 0.5; agent-kv-residency-bound is already in)
    assert close_ids("agent-kv", KNOWN) == ["agent-kv-offload-during-tools", "agent-kv-dropped-during-tools",
                                            "agent-kv-residency-bound", "agent-offloaded-kv-exceeds-host-ram",
                                            "m3-storage-not-nvme"]


def test_at_most_five_and_none_for_nothing_close():
    assert len(close_ids("agent", [f"agent-{i}" for i in range(9)])) == 5
    assert close_ids("xyz", KNOWN) == []
    assert unknown_rule("xyz", KNOWN, "en") == "unknown rule 'xyz'; similar: — (all rules: gpu-expert rules)"


def test_explain_m2_team_names_the_two_m2_team_rules(cli):
    result = cli("explain", "m2-team")
    assert result.code == 2 and "Traceback" not in result.err
    # before: "unknown rule 'm2-team' (allowed: agent-context-compaction, … all 177 ids, ~7 000 characters)"
    assert result.err.strip() == ("gpu-expert: error: unknown rule 'm2-team'; similar: "
                                  "m2-team-time-against-gpu-saving, m2-team-time-not-counted "
                                  "(all rules: gpu-expert rules)")


def test_explain_agent_kv_names_the_agent_kv_rules_first(cli):
    err = cli("explain", "agent-kv").err
    # before: "did you mean m3-storage-not-nvme, agent-kv-residency-bound"
    assert ("similar: agent-kv-offload-during-tools, agent-kv-dropped-during-tools, agent-kv-residency-bound, "
            "agent-offloaded-kv-exceeds-host-ram, m3-storage-not-nvme (") in err


@pytest.mark.parametrize("rule", ["m2-team", "nothing-like-this"])
def test_the_error_speaks_german_under_lang_de(cli, rule):
    result = cli("explain", rule, "--lang", "de")
    assert result.code == 2 and len(result.err.strip().splitlines()) == 1
    assert f"unbekannte Regel '{rule}'; ähnlich: " in result.err and "(alle Regeln: gpu-expert rules)" in result.err
    assert "unknown" not in result.err                      # before: English


def test_the_chat_says_the_same_line():
    from tui.advisor import Advisor

    with pytest.raises(ValueError) as raised:
        Advisor().explain("m2-team", "de")
    # before: "unbekannte Regel 'm2-team'; ähnlich: —"
    assert str(raised.value) == ("unbekannte Regel 'm2-team'; ähnlich: m2-team-time-against-gpu-saving, "
                                 "m2-team-time-not-counted (alle Regeln: gpu-expert rules)")
