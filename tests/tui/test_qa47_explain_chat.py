"""QA 47 #14 in the chat: `/explain m2-team` names the two m2-team rules (before: "similar: —")."""

from __future__ import annotations

from tui_helpers import screen_text, send, workers_done


async def test_explain_a_near_miss_names_the_rules_that_begin_with_it(make_app):
    app = make_app(lang="en")
    async with app.run_test(size=(160, 40)) as pilot:
        await workers_done(app)
        await send(pilot, "/explain m2-team")
        text = " ".join(screen_text(app).split())
        assert ("unknown rule 'm2-team'; similar: m2-team-time-against-gpu-saving, m2-team-time-not-counted"
                in text), text[-600:]
