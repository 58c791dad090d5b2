"""QA 47 #2 in the chat: "no fine-tuning" typed after the interview turns fine-tuning off and the
change bubble says so (before: "✓ fine-tuning quarterly (QLoRA), 2 epochs (changed after the
interview)", and the plan kept training)."""

from __future__ import annotations

from tui_helpers import SIZE, screen_text, send

SENTENCE = ("My AI agent uses a model of size Llama 3.1 8B, processes 2000 requests per day, "
            "needs weekly fine-tuning with LoRA, with non-sensitive data.")


async def test_no_fine_tuning_after_the_interview_turns_it_off(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await send(pilot, SENTENCE)
        while app.chat.session.interview.next_question() is not None:
            await send(pilot, "skip")
        assert app.chat.session.interview.workload()["fine_tuning"] != "none"
        await send(pilot, "no fine-tuning")
        assert app.chat.session.interview.workload()["fine_tuning"] == "none"   # before: quarterly
        text = screen_text(app)
        assert "no fine-tuning (changed after the interview)" in text
        assert "fine-tuning quarterly" not in text
