"""The fine-tuning answer changed key by key (QA 46 #2).

The workload's `fine_tuning` is `none`, a frequency (`weekly`) or a mapping (`{frequency, method,
dataset_tokens, epochs, …}`). An answer or a change names only some of it: "eigentlich QLoRA" the
method, "2 Epochen" the epochs, "monatlich" the frequency. `merge(old, new)` keeps every key the
new part does not name, so a change of method no longer drops the frequency or the dataset size.
"""

from __future__ import annotations

ASSUMED_FREQUENCY = "quarterly"
"""The frequency taken when fine-tuning is named without one ("QLoRA" while none was planned), as
`parse.parse_fine_tuning` does for a bare yes; the chat then asks for it."""


def as_mapping(value: object) -> dict:
    """The fine-tuning answer as a mapping: {} for none or no answer, `{frequency: …}` for a bare
    frequency, a copy of a mapping."""
    if value in (None, "none"):
        return {}
    return dict(value) if isinstance(value, dict) else {"frequency": value}


def merge(old: object, new: object) -> tuple[object, bool]:
    """`new` (a frequency, `none` or a partial mapping) laid over `old` key by key, and whether the
    frequency had to be assumed (`ASSUMED_FREQUENCY`: neither named one).

    merge({"frequency": "weekly", "method": "lora", "dataset_tokens": 2e7}, {"method": "qlora"})
    → ({"frequency": "weekly", "method": "qlora", "dataset_tokens": 2e7}, False). A bare frequency
    stays a string (`weekly`), as the interview writes it."""
    if new in (None, "none"):
        return new, False
    merged = {**as_mapping(old), **as_mapping(new)}
    assumed = "frequency" not in merged
    if assumed:
        merged = {"frequency": ASSUMED_FREQUENCY, **merged}
    return (merged["frequency"] if set(merged) == {"frequency"} else merged), assumed
