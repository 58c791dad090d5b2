"""QA 46 #2 and #3 in the chat: "eigentlich QLoRA" keeps the weekly frequency and the dataset size,
and `/set fine_tuning.epochs 2` sets the epochs (a value the schema refuses: one line, no change)."""

from __future__ import annotations

from tui_helpers import send, screen_text, workers_done

WORKLOAD = """\
model: llama-3.1-70b
requests_per_day: 3000
fine_tuning: {frequency: weekly, method: lora, dataset_tokens: 20000000}
data: sensitive
sector: finance
hosting: ch
"""


async def test_a_method_change_and_epochs_keep_the_rest_of_the_fine_tuning(make_app, tmp_path):
    path = tmp_path / "ft.yaml"
    path.write_text(WORKLOAD, encoding="utf-8")
    app = make_app(lang="de")
    async with app.run_test(size=(120, 40)) as pilot:
        await workers_done(app)
        await send(pilot, f"/load {path}")
        answers = app.chat.session.interview.answers
        await send(pilot, "eigentlich QLoRA")
        # before: {'frequency': 'quarterly', 'method': 'qlora'}: weekly and the 20 M tokens were lost
        assert answers["fine_tuning"] == {"frequency": "weekly", "method": "qlora", "dataset_tokens": 20_000_000}
        assert "Fine-Tuning wöchentlich (QLoRA), 20 000 000 Tokens pro Fine-Tuning-Lauf" in screen_text(app)
        await send(pilot, "/set fine_tuning.epochs 2")       # before: unbekanntes Feld 'fine_tuning.epochs'
        assert answers["fine_tuning"]["epochs"] == 2 and answers["fine_tuning"]["frequency"] == "weekly"
        assert app.chat.session.data()["fine_tuning"]["epochs"] == 2   # what the advice is computed from
        await send(pilot, "/set fine_tuning.epochs 0")
        assert answers["fine_tuning"]["epochs"] == 2
        assert "fine_tuning.epochs: 0 liegt ausserhalb des Bereichs; erlaubt: mehr als 0, höchstens 100" in screen_text(app)
        await send(pilot, "3 Epochen")                       # before: Nicht verstanden
        assert answers["fine_tuning"] == {"frequency": "weekly", "method": "qlora", "dataset_tokens": 20_000_000,
                                          "epochs": 3}
