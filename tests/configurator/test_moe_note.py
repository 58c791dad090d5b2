"""The MoE note beside the documents' pick (configurator/moe_note.py) states what a token reads: the active
parameters less the input embedding, a row lookup (QA 45)."""

from __future__ import annotations

from expert.catalog import load_catalog
from expert.configurator.moe_note import moe_note, read_per_token_b
from expert.sizing.constants import resolve

CAT = load_catalog()


def test_gpt_oss_reads_the_model_cards_active_count():
    # 5.71 − 201 088 × 2 880 / 1e9 (0.579) = 5.13, OpenAI's model card Table 1
    assert read_per_token_b(CAT.model("gpt-oss-120b")) == 5.13
    note = moe_note(CAT.model("gpt-oss-120b"), "mxfp4", resolve(None))
    assert "reads only 5.13 B per generated token" in note["en"]
    assert "nur 5,13 Mrd." in note["de"]


def test_mixtral_reads_its_active_parameters_less_the_embedding():
    # 12.9 − 32 000 × 4 096 / 1e9 (0.131) = 12.77
    assert read_per_token_b(CAT.model("mixtral-8x7b")) == 12.77


def test_dense_models_get_no_note():
    assert moe_note(CAT.model("llama-3.1-8b"), "fp16", resolve(None)) is None
