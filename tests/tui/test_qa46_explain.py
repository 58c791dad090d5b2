"""QA 46 nit: `/explain RULE-ID` in the chat shows the rule as the CLI's `gpu-expert explain` does
(before: "✗ Nicht verstanden: /explain?"), and /help lists it."""

from __future__ import annotations

from tui_helpers import screen_text, send, workers_done


async def test_explain_shows_a_rule_with_its_source_in_the_chats_language(make_app):
    app = make_app(lang="de")
    async with app.run_test(size=(120, 40)) as pilot:
        await workers_done(app)
        await send(pilot, "/explain m2-l40s-frequent-finetuning")
        text = screen_text(app)
        assert "Nicht verstanden" not in text
        assert "m2-l40s-frequent-finetuning: L40S für Fine-Tuning häufiger als quartalsweise" in text
        assert "Quelle: 000" in text
        await send(pilot, "/explain m2-l40s-frequent-finetunin")       # a typo: one line with the closest id
        text = screen_text(app)
        assert "unbekannte Regel 'm2-l40s-frequent-finetunin'; ähnlich: m2-l40s-frequent-finetuning" in text


def test_help_lists_explain():
    from tui.commands import COMMANDS

    assert COMMANDS["explain"] == "/explain RULE-ID"
