"""The chat knows the names people use for today's models (issue 30), in English and German, without a
catalog loaded (the contract's ids) and with the catalog's aliases."""

import pytest

from expert.catalog import load_catalog
from expert.interview.model import parse_model
from expert.interview.sentence import parse_sentence


@pytest.mark.parametrize("said, model_id", [
    ("wir nehmen gpt-oss 20b", "gpt-oss-20b"), ("we run gpt-oss-120b for an internal coding agent", "gpt-oss-120b"),
    ("gpt oss 120b", "gpt-oss-120b"), ("Qwen3 30B A3B", "qwen3-30b-a3b"), ("qwen3 30b", "qwen3-30b-a3b"),
    ("Qwen3-235B-A22B", "qwen3-235b-a22b"), ("Llama 4 Scout", "llama-4-scout"), ("DeepSeek R1", "deepseek-r1"),
    ("GLM-4.5-Air", "glm-4.5-air"), ("Kimi K2", "kimi-k2"), ("phi-4", "phi-4"),
    ("wir nutzen Gemma 3 27B", "gemma-3-27b"), ("llama 3.2 3b", "llama-3.2-3b"), ("mistral small 24b",
                                                                               "mistral-small-3.1-24b"),
])
@pytest.mark.parametrize("lang", ["en", "de"])
def test_current_model_names_without_a_catalog(said, model_id, lang):
    assert parse_model(said, lang).fields == {"model": model_id}


@pytest.mark.parametrize("said, model_id", [
    ("Mistral Small 3.1", "mistral-small-3.1-24b"), ("GLM 4.5 Air", "glm-4.5-air"),
    ("deepseek v3.1", "deepseek-v3.1"), ("qwen3 coder 480b", "qwen3-coder-480b-a35b"),
    ("llama 4 maverick", "llama-4-maverick"),
])
def test_current_model_names_with_the_catalog_aliases(said, model_id):
    names = {}
    for entry in load_catalog().models.values():
        for name in (entry.id, entry.name, *entry.aliases):
            names.setdefault(name, entry.id)
    assert parse_model(said, "de", models=names).fields == {"model": model_id}


def test_a_family_without_a_size_asks_which():
    reply = parse_model("gpt-oss", "de")
    assert not reply.ok and "gpt-oss-120b, gpt-oss-20b" in reply.reason


def test_the_sentence_carries_the_new_names():
    assert parse_sentence("Wir nehmen gpt-oss 20b für einen Support-Agenten mit 2000 Anfragen pro Tag",
                          "de").fields == {"model": "gpt-oss-20b", "requests_per_day": 2000}
    assert parse_sentence("We use Qwen3 30B A3B, 3000 requests a day", "en").fields == \
        {"model": "qwen3-30b-a3b", "requests_per_day": 3000}
