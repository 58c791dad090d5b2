"""Changes typed after the interview, in plain words: each must change the field it names and
nothing else. The chat gives the text to the interview first (the sentence parser) and, when that
does not understand it, to the keyword reader `tui.commands.what_if` (ChatScreen.answer).

Found by trying phrasings: "context 8k", "over 24 months" and "latency 0.3 s" were read as a
request volume (a bare number defaulted to the volume), "growing to 70B" as the model.
"""

from __future__ import annotations

import pytest

from expert.interview import Interview
from expert.interview.questions import ORDER
from tui import commands as cmd

CHANGES = [
    ("actually 70B", {"params_b": 70}),
    ("doch 70B", {"params_b": 70}),
    ("llama 3.3 70b", {"model": "llama-3.3-70b"}),
    ("what if we had 100k requests per day", {"requests_per_day": 100000}),
    ("und wenn es 100 000 Anfragen pro Tag wären", {"requests_per_day": 100000}),
    ("300 pro Minute", {"requests_per_second": 5}),
    ("monthly fine-tuning", {"fine_tuning": "monthly"}),
    ("weekly LoRA", {"fine_tuning": {"frequency": "weekly", "method": "lora"}}),
    ("latency 0.3 s", {"latency_target_s": 0.3}),
    ("Latenz 0,3 s", {"latency_target_s": 0.3}),
    ("under 1 second", {"latency_target_s": 1}),
    ("context 8k", {"context_tokens": 8192}),
    ("Kontext 32000 Tokens", {"context_tokens": 32000}),
    ("over 24 months", {"horizon_months": 24}),
    ("horizon 5 years", {"horizon_months": 60}),
    ("growing to 70B", {"growth_params_b": 70}),
    ("buy instead", {"budget": "capex"}),
    ("lieber kaufen", {"budget": "capex"}),
    ("Server in der Schweiz", {"hosting": "ch"}),
    ("on premise", {"deployment": "on_premise"}),
    ("in the cloud", {"deployment": "cloud"}),
    ("health sector", {"data": "sensitive", "sector": "health"}),
    ("sensitive data", {"data": "sensitive"}),
]


def read_change(text: str) -> dict:
    iv = Interview("en")
    iv.answer("Llama 3.1 8B, 20000 requests per day, no fine-tuning, non-sensitive data")
    iv.done.update(ORDER)                                  # the interview is over
    reply = iv.answer(text)
    return reply.changed if reply.ok else cmd.what_if(text, "en")


@pytest.mark.parametrize("text,fields", CHANGES, ids=[c[0] for c in CHANGES])
def test_a_typed_change_sets_the_field_it_names(text, fields):
    assert read_change(text) == fields
