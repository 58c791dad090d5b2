"""A sizing note beside the documents' pick for a mixture-of-experts model (issue 30, item 6).

The documents' size guidance (000 U1-U4, D1: 7B in FP16 ≈ 14-16 GB, "Modell ab 70B" → several A100)
speaks of dense models at 16 bits, where the parameter count fixes both the memory and the bytes each
token reads. A current MoE decouples the two (gpt-oss-120b holds 116.8B parameters in 65 GB at its native
MXFP4 and reads 5.13B per token: its 5.71B active parameters less the input embedding, a lookup), so its
answer may differ from what the size alone suggests; the note says why, with the numbers of the sizing core.
"""

from __future__ import annotations

from expert.messages import t
from expert.report.numbers import grouped
from expert.sizing.memory import weights_gb


def moe_note(model, precision: str, a) -> dict[str, str] | None:
    """The note in both languages for an MoE model at `precision` (the pick's), else None."""
    if not model.is_moe or not model.active_params_b:
        return None
    figures = {"model": model.id, "precision": precision, "weights": grouped(weights_gb(model, precision, a)),
               "dense": grouped(weights_gb(model, "fp16", a))}
    return {lang: t("configurator.compare.moe", lang, total=_billions(model.params_b, lang),
                    active=_billions(read_per_token_b(model), lang), **figures) for lang in ("en", "de")}


def read_per_token_b(model) -> float:
    """Parameters a generated token reads, billions: the active ones less the input embedding (vocab × hidden,
    a row lookup; `speed.read_terms` leaves it out of a step's reads alike), to 2 decimals. gpt-oss-120b: 5.71 −
    201 088 × 2 880 / 1e9 = 5.13, the model card's active count."""
    return round(model.active_params_b - model.vocab * model.hidden / 1e9, 2)


def _billions(x: float, lang: str) -> str:
    """`116.83` in English, `116,83` in German (a decimal comma, as every German figure)."""
    text = f"{x:g}"
    return text.replace(".", ",") if lang == "de" else text
