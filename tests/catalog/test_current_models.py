"""The current open models (issue 30) against their published figures, and config.json read as the catalog.

Fixtures in tests/data/hf_configs/ hold the sizing fields of each publisher's config.json (read
2026-12-04, URLs in knowledge/models.yaml); `held-out/` holds shapes the catalog has no entry for.
"""

from pathlib import Path

import pytest

from expert.catalog import load_catalog
from expert.catalog.hf_config import load_config_model
from expert.errors import InputError, UnknownIdError
from expert.sizing.memory import kv_cache_gb, weights_gb
from expert.sizing.weight_format import default_precision

CONFIGS = Path(__file__).parents[1] / "data" / "hf_configs"

# fixture folder -> (catalog id, the publisher's total parameters in billions, where it is stated)
FAMILIES = {
    "gpt-oss-120b": ("gpt-oss-120b", 116.83),            # model card arXiv:2508.10925 Table 1
    "gpt-oss-20b": ("gpt-oss-20b", 20.91),               # same table
    "Qwen3-32B": ("qwen3-32b", 32.8),                    # Qwen3-32B model card
    "Qwen3-30B-A3B": ("qwen3-30b-a3b", 30.5),            # Qwen3-30B-A3B model card
    "Llama-4-Scout-17B-16E-Instruct": ("llama-4-scout", 109),   # Llama 4 model card
    "gemma-3-27b-it": ("gemma-3-27b", 27.43),            # Gemma 3 report Table 1 (417M + 1,416M + 25,600M)
    "Mistral-Small-3.1-24B-Instruct-2503": ("mistral-small-3.1-24b", 24),  # model card
    "phi-4": ("phi-4", 14.7),                            # checkpoint count (report: '14-billion')
    "DeepSeek-R1": ("deepseek-r1", 671),                 # model card
    "Kimi-K2-Instruct": ("kimi-k2", 1040),               # Kimi K2 report: 1.04 T
    "GLM-4.5-Air": ("glm-4.5-air", 106),                 # GLM-4.5 model card
    "Llama-3.2-3B": ("llama-3.2-3b", 3.21),              # Llama 3.2 model card
    "Mixtral-8x7B-Instruct-v0.1": ("mixtral-8x7b", 46.7),  # mistral.ai: 46.7B total
    "gemma-2-9b": ("gemma-2-9b", 9.24),                  # HF safetensors count 9.24B (catalog: nominal 9)
}
HELD_OUT = {  # published totals of shapes the project was not shown
    "held-out/DeepSeek-V2-Lite": 15.7,      # DeepSeek-V2 model card: 'DeepSeek-V2-Lite 15.7B total'
    "held-out/Qwen3-4B": 4.0,               # Qwen3-4B model card: 4.0B
    "held-out/Mixtral-8x22B-v0.1": 141,     # mistral.ai: 141B total, 39B active
    "held-out/gemma-3-4b-it": 4.30,         # Gemma 3 report Table 1: 417M + 675M + 3,209M
}


@pytest.fixture(scope="module")
def catalog():
    return load_catalog()


def _read(folder: str):
    return load_config_model(CONFIGS / folder / "config.json")


@pytest.mark.parametrize("folder", sorted(FAMILIES))
def test_config_json_counts_the_published_parameters_within_2_percent(folder):
    _, card = FAMILIES[folder]
    assert _read(folder).params_b == pytest.approx(card, rel=0.02)


@pytest.mark.parametrize("folder", sorted(HELD_OUT))
def test_held_out_config_json_counts_the_published_parameters_within_2_percent(folder):
    assert _read(folder).params_b == pytest.approx(HELD_OUT[folder], rel=0.02)


def test_mixtral_8x22b_active_parameters_as_published():
    assert _read("held-out/Mixtral-8x22B-v0.1").active_params_b == pytest.approx(39, rel=0.02)  # mistral.ai


@pytest.mark.parametrize("folder", sorted(set(FAMILIES) - {"gemma-2-9b"}))
def test_config_json_gives_the_catalog_entry(folder, catalog):
    """The shape, windows, experts and native format as the catalog entry; weights at the default
    precision within 2 % and the KV cache of 32k tokens equal (within rounding of the window share)."""
    entry, imported = catalog.models[FAMILIES[folder][0]], _read(folder)
    shape = ("layers", "hidden", "heads", "kv_heads", "head_dim", "intermediate", "vocab", "max_context",
             "sliding_window", "experts", "experts_active", "kv_lora_rank", "qk_rope_head_dim",
             "native_precision", "native_scope", "moe_layers")
    assert {f: getattr(imported, f) for f in shape} == {f: getattr(entry, f) for f in shape}
    assert imported.sliding_window_share == pytest.approx(entry.sliding_window_share, abs=1e-3)
    p = default_precision(entry)
    assert weights_gb(imported, p) == pytest.approx(weights_gb(entry, p), rel=0.02)
    assert kv_cache_gb(imported, 32768) == pytest.approx(kv_cache_gb(entry, 32768), rel=1e-3)


def test_imported_active_parameters_follow_the_catalog_convention(catalog):
    """Active parameters count the embeddings (a decode step reads the LM head): gpt-oss's card 5.13B
    + 0.58B input embedding = 5.71B; Qwen3-30B-A3B's card 3.3B already counts them."""
    assert _read("gpt-oss-120b").active_params_b == pytest.approx(catalog.models["gpt-oss-120b"].active_params_b,
                                                                  rel=0.01)
    assert _read("Qwen3-30B-A3B").active_params_b == pytest.approx(3.3, rel=0.02)


def test_gemma_3_is_five_local_to_one_global():
    # 62 layers, every 6th global (report §2.1): 10 global, 52 local; 34 layers (held out): 5 global
    assert _read("gemma-3-27b-it").sliding_window_share == round(52 / 62, 4)
    assert _read("held-out/gemma-3-4b-it").sliding_window_share == round(29 / 34, 4)


def test_a_config_without_a_needed_field_names_it(tmp_path):
    path = tmp_path / "config.json"
    path.write_text('{"model_type": "qwen3", "hidden_size": 4096, "num_attention_heads": 32}')
    with pytest.raises(InputError, match=r"^field model: .*config.json cannot be sized: num_hidden_layers: missing"):
        load_config_model(path)
    path.write_text('{"model_type": "gemma3"}')
    with pytest.raises(InputError, match="text_config: missing"):
        load_config_model(path)
    path.write_text('{"model_type": "bert"}')
    with pytest.raises(InputError, match="'bert' is not a family read here"):
        load_config_model(path)
    path.write_text("[1, 2")
    with pytest.raises(InputError, match="as a Hugging Face config.json"):
        load_config_model(path)
    (tmp_path / "notes.txt").write_text("{}")
    assert catalog_model_error(tmp_path / "notes.txt")  # only .json files are read as configs


def catalog_model_error(path) -> bool:
    """True when the catalog refuses `path` as an unknown model (it is not read)."""
    with pytest.raises(UnknownIdError):
        load_catalog().model(str(path))
    return True


def test_catalog_model_reads_a_path_a_folder_and_the_local_hugging_face_cache(catalog, tmp_path, monkeypatch):
    folder = CONFIGS / "held-out" / "Qwen3-4B"
    assert catalog.model(str(folder)).params_b == catalog.model(str(folder / "config.json")).params_b
    snapshot = tmp_path / "hub" / "models--Qwen--Qwen3-4B" / "snapshots" / "abc123"
    snapshot.mkdir(parents=True)
    (snapshot / "config.json").write_text((folder / "config.json").read_text())
    monkeypatch.delenv("HF_HUB_CACHE", raising=False)
    monkeypatch.setenv("HF_HOME", str(tmp_path))
    cached = catalog.model("Qwen/Qwen3-4B")
    assert (cached.id, cached.params_b) == ("qwen3-4b", pytest.approx(4.0, rel=0.02))
    with pytest.raises(UnknownIdError):
        catalog.model("Qwen/Qwen3-1.7B")        # not cached: no download, an unknown id


@pytest.mark.parametrize("spoken, model_id", [
    ("gpt-oss 120b", "gpt-oss-120b"), ("GPT-OSS-20B", "gpt-oss-20b"), ("Qwen3 30B A3B", "qwen3-30b-a3b"),
    ("DeepSeek R1", "deepseek-r1"), ("Llama 4 Scout", "llama-4-scout"), ("GLM-4.5-Air", "glm-4.5-air"),
    ("Kimi K2", "kimi-k2"), ("phi4", "phi-4"), ("openai/gpt-oss-120b", "gpt-oss-120b"),
])
def test_spoken_names_resolve(catalog, spoken, model_id):
    assert catalog.model(spoken).id == model_id


@pytest.mark.parametrize("unknown, first", [
    ("gpt-oss-130b", "gpt-oss-120b"), ("deepseek-r2", "deepseek-r1"), ("qwen3-72b", "qwen2.5-72b"),
    ("phi-5", "phi-4"),
])
def test_unknown_ids_suggest_the_family_nearest_in_size(catalog, unknown, first):
    with pytest.raises(UnknownIdError) as raised:
        catalog.model(unknown)
    assert f"did you mean {first}" in str(raised.value)
    assert "gpt-j-6b" not in str(raised.value)
