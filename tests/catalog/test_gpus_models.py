"""The GPU and model catalog (`knowledge/gpus.yaml`, `knowledge/models.yaml`) against its sources.

Checks that every contract id is present, every entry is sourced, aliases resolve to exactly one
entry, every number equals the project's reference tables (`gpu-specs.csv`, `model-architectures.csv`,
read here, not copied), the KV-cache sizes of the sizing notes come out of the stored architectures,
and document 000's claims that differ from the vendor are recorded on the right variant.

The catalog is loaded by the real loader from a temporary directory holding the two files under test
and minimal empty packages/offers/tariffs, so these tests do not depend on the other catalog files;
`test_builtin_catalog_loads` checks the shipped catalog as a whole.
"""

from __future__ import annotations

import csv
import math
import re
import shutil
from pathlib import Path

import pytest
import yaml

from expert.catalog import loader as catalog_loader
from expert.catalog.models import SourcedValue, Tariffs
from expert._plumbing.paths import knowledge_dir

DOCS = Path(__file__).resolve().parents[2] / "docs"
GPU_CSV = DOCS / "reference" / "gpu-specs.csv"
MODEL_CSV = DOCS / "reference" / "model-architectures.csv"
SEEDS = DOCS / "sources"

CONTRACT_GPUS = [
    "l4", "a10", "l40s", "a100-40gb-pcie", "a100-40gb-sxm", "a100-80gb-pcie", "a100-80gb-sxm",
    "h100-pcie", "h100-sxm", "h100-nvl", "h200", "b200", "rtx-4090", "rtx-a5000", "rtx-a6000",
    "rtx-pro-6000", "rtx-pro-6000-server", "mi300x", "gaudi2", "gaudi3",
]
EXTRA_GPUS = ["rtx-6000-ada", "rtx-5090", "mi325x"]
CONTRACT_MODELS = [
    "llama-2-7b", "llama-2-13b", "llama-2-70b", "llama-3.1-8b", "llama-3.1-70b", "llama-3.1-405b",
    "llama-3.3-70b", "mistral-7b", "mixtral-8x7b", "qwen2.5-7b", "qwen2.5-14b", "qwen2.5-32b",
    "qwen2.5-72b", "gemma-2-9b", "gemma-2-27b", "codellama-34b", "falcon-40b",
]
EXTRA_MODELS = ["llama-3-8b", "llama-3-70b", "phi-3-mini", "phi-3-medium", "gpt-j-6b", "deepseek-v3",
                "generic-dense"]

GPU_ROWS = {  # reference csv id -> catalog id
    "nvidia-l40s": "l40s", "nvidia-l4": "l4", "nvidia-a10": "a10",
    "nvidia-a100-40gb-pcie": "a100-40gb-pcie", "nvidia-a100-40gb-sxm4": "a100-40gb-sxm",
    "nvidia-a100-80gb-pcie": "a100-80gb-pcie", "nvidia-a100-80gb-sxm4": "a100-80gb-sxm",
    "nvidia-h100-sxm5-80gb": "h100-sxm", "nvidia-h100-pcie-80gb": "h100-pcie",
    "nvidia-h100-nvl-94gb": "h100-nvl", "nvidia-h200-sxm-141gb": "h200", "nvidia-b200": "b200",
    "nvidia-rtx-a6000": "rtx-a6000", "nvidia-rtx-a5000": "rtx-a5000",
    "nvidia-rtx-6000-ada": "rtx-6000-ada", "nvidia-rtx-4090": "rtx-4090", "nvidia-rtx-5090": "rtx-5090",
    "nvidia-rtx-pro-6000-ws": "rtx-pro-6000", "nvidia-rtx-pro-6000-server": "rtx-pro-6000-server",
    "amd-mi300x": "mi300x", "amd-mi325x": "mi325x", "intel-gaudi2": "gaudi2", "intel-gaudi3": "gaudi3",
}
GPU_NUMBERS = {  # csv `_num` column -> catalog field
    "memory_gb_num": "memory_gb", "mem_bw_gbs_num": "bandwidth_gbs",
    "fp16_bf16_dense_tflops_num": "fp16_tflops", "fp8_dense_tflops_num": "fp8_tflops",
    "int8_dense_tops_num": "int8_tops", "tdp_w_max_num": "tdp_w",
    "gpu_link_bw_gbs_num": "interconnect.bandwidth_gbs",
}
MODEL_ROWS = {  # reference csv model -> catalog id
    "Llama-2-7B": "llama-2-7b", "Llama-2-13B": "llama-2-13b", "Llama-2-70B": "llama-2-70b",
    "Llama-3-8B": "llama-3-8b", "Llama-3-70B": "llama-3-70b", "Llama-3.1-8B": "llama-3.1-8b",
    "Llama-3.1-70B": "llama-3.1-70b", "Llama-3.1-405B": "llama-3.1-405b", "Mistral-7B-v0.1": "mistral-7b",
    "Mixtral-8x7B-v0.1": "mixtral-8x7b", "Qwen2.5-7B": "qwen2.5-7b", "Qwen2.5-14B": "qwen2.5-14b",
    "Qwen2.5-32B": "qwen2.5-32b", "Qwen2.5-72B": "qwen2.5-72b", "Gemma-2-9B": "gemma-2-9b",
    "Gemma-2-27B": "gemma-2-27b", "Phi-3-mini-4k": "phi-3-mini", "Phi-3-medium-4k": "phi-3-medium",
    "CodeLlama-34B": "codellama-34b", "Falcon-40B": "falcon-40b", "DeepSeek-V3": "deepseek-v3",
    "GPT-J-6B": "gpt-j-6b",
}
MODEL_NUMBERS = {"params_b": "params_b", "layers": "layers", "hidden": "hidden", "heads": "heads",
                 "kv_heads": "kv_heads", "head_dim": "head_dim", "intermediate": "intermediate",
                 "vocab": "vocab", "max_ctx": "max_context", "moe_experts": "experts",
                 "active_params_b": "active_params_b"}
SOURCE_LABELS = ("derived", "unverified", "assumed")


# ---------------------------------------------------------------------------------------------
# fixtures


def _tariffs_stub() -> dict:
    """A valid tariffs file with placeholder values and no purchase prices (no gpu references)."""
    stub: dict = {}
    for name, field in Tariffs.model_fields.items():
        if field.annotation is SourcedValue:
            stub[name] = {"value": {"low": 1, "high": 1}, "unit": "stub", "source": "test stub"}
        elif name == "fx":
            stub[name] = {}
        elif name == "purchase":
            stub[name] = []
    return {"tariffs": stub}


@pytest.fixture(scope="module")
def catalog(tmp_path_factory):
    """The catalog loaded by the real loader from gpus.yaml + models.yaml and empty other files."""
    directory = tmp_path_factory.mktemp("knowledge")
    for name in ("gpus.yaml", "models.yaml"):
        shutil.copy(knowledge_dir() / name, directory / name)
    (directory / "packages.yaml").write_text("packages: []\n", encoding="utf-8")
    (directory / "offers.yaml").write_text("offers: []\n", encoding="utf-8")
    (directory / "tariffs.yaml").write_text(yaml.safe_dump(_tariffs_stub()), encoding="utf-8")
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(catalog_loader, "knowledge_dir", lambda: directory)
        yield catalog_loader.build_catalog(())       # read from these files, never cached


def _csv(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


@pytest.fixture(scope="module")
def gpu_rows() -> dict[str, dict[str, str]]:
    return {row["id"]: row for row in _csv(GPU_CSV)}


@pytest.fixture(scope="module")
def model_rows() -> dict[str, dict[str, str]]:
    return {row["model"]: row for row in _csv(MODEL_CSV)}


def _seed(prefix: str) -> str:
    found = sorted(SEEDS.glob(f"{prefix}_*.txt"))
    assert found, f"source document {prefix} missing under {SEEDS}"
    return found[0].read_text(encoding="utf-8")


def _get(entry, dotted: str):
    value = entry
    for part in dotted.split("."):
        value = getattr(value, part)
    return value


def _num(cell: str) -> float | None | str:
    """A `_num` cell: a float, None for 'n/a', or '' for blank (unknown)."""
    cell = cell.strip()
    if cell == "":
        return ""
    if cell.lower() == "n/a":
        return None
    return float(cell)


def _source(entry, field: str) -> str:
    top = field.split(".")[0]
    return entry.sources.get(field) or entry.sources.get(top) or entry.sources["default"]


# ---------------------------------------------------------------------------------------------
# presence, sources, aliases


def test_every_contract_and_extra_gpu_is_present(catalog):
    missing = [gpu for gpu in CONTRACT_GPUS + EXTRA_GPUS if gpu not in catalog.gpus]
    assert missing == []


def test_every_contract_and_extra_model_is_present(catalog):
    missing = [model for model in CONTRACT_MODELS + EXTRA_MODELS if model not in catalog.models]
    assert missing == []
    assert [m.id for m in catalog.models.values() if m.generic] == ["generic-dense"]


@pytest.mark.parametrize("kind", ["gpus", "models"])
def test_every_entry_has_a_default_source_and_no_empty_source(catalog, kind):
    for entry in getattr(catalog, kind).values():
        assert entry.sources.get("default", "").strip(), entry.id
        assert all(text.strip() for text in entry.sources.values()), entry.id


@pytest.mark.parametrize("kind", ["gpus", "models"])
def test_aliases_are_unique_and_resolve_to_their_entry(catalog, kind):
    table = getattr(catalog, kind)
    lookup = catalog.gpu if kind == "gpus" else catalog.model
    owner: dict[str, str] = {entry_id.lower(): entry_id for entry_id in table}
    for entry in table.values():
        seen = set()
        for alias in entry.aliases:
            name = alias.lower()
            assert name not in seen, f"{entry.id}: alias {alias!r} listed twice"
            seen.add(name)
            assert owner.get(name, entry.id) == entry.id, (
                f"alias {alias!r} of {entry.id} also names {owner[name]}")
            owner[name] = entry.id
            assert lookup(alias).id == entry.id
            assert lookup(alias.upper()).id == entry.id


@pytest.mark.parametrize("alias, gpu", [
    ("A100", "a100-80gb-pcie"), ("A100 80GB", "a100-80gb-pcie"), ("A100-80", "a100-80gb-pcie"),
    ("A100 80GB PCIe", "a100-80gb-pcie"), ("A100 SXM", "a100-80gb-sxm"), ("A100 80GB SXM4", "a100-80gb-sxm"),
    ("A100 40GB", "a100-40gb-pcie"), ("A100 40GB SXM", "a100-40gb-sxm"),
    ("H100", "h100-sxm"), ("H100 SXM", "h100-sxm"), ("H100 PCIe", "h100-pcie"), ("H100 NVL", "h100-nvl"),
    ("L40S", "l40s"), ("RTX 4090", "rtx-4090"), ("4090", "rtx-4090"), ("A6000", "rtx-a6000"),
    ("A5000", "rtx-a5000"), ("MI300X", "mi300x"), ("Gaudi 3", "gaudi3"),
    ("RTX PRO 6000", "rtx-pro-6000"), ("RTX PRO 6000 Server Edition", "rtx-pro-6000-server"),
])
def test_gpu_alias_decisions(catalog, alias, gpu):
    assert catalog.gpu(alias).id == gpu


@pytest.mark.parametrize("alias, model", [
    ("Llama 3.1 8B", "llama-3.1-8b"), ("llama3.1-8b", "llama-3.1-8b"),
    ("Llama-3.1-8B-Instruct", "llama-3.1-8b"), ("Llama 3 8B", "llama-3-8b"),
    ("Llama-3.3-70B-Instruct", "llama-3.3-70b"), ("Mixtral 8x7B", "mixtral-8x7b"),
    ("Mistral-7B-v0.1", "mistral-7b"), ("Qwen2.5-72B-Instruct", "qwen2.5-72b"),
    ("google/gemma-2-9b-it", "gemma-2-9b"), ("CodeLlama 34B", "codellama-34b"),
    ("deepseek-ai/DeepSeek-V3", "deepseek-v3"), ("generic", "generic-dense"),
])
def test_model_alias_decisions(catalog, alias, model):
    assert catalog.model(alias).id == model


# ---------------------------------------------------------------------------------------------
# GPUs against the reference table


def test_every_reference_gpu_row_is_mapped(gpu_rows):
    assert set(gpu_rows) == set(GPU_ROWS)


@pytest.mark.parametrize("row_id", sorted(GPU_ROWS))
def test_gpu_numbers_equal_the_reference(catalog, gpu_rows, row_id):
    row, gpu = gpu_rows[row_id], catalog.gpus[GPU_ROWS[row_id]]
    for column, field in GPU_NUMBERS.items():
        expected, actual = _num(row[column]), _get(gpu, field)
        if expected == "":  # unknown in the reference: empty here, or labelled where a value is kept
            assert actual is None or any(
                label in _source(gpu, field).lower() for label in SOURCE_LABELS), (gpu.id, field)
        elif expected is None:
            assert actual is None, (gpu.id, field)
        else:
            assert actual == pytest.approx(expected), (gpu.id, field)


@pytest.mark.parametrize("row_id", sorted(GPU_ROWS))
def test_gpu_descriptive_fields_follow_the_reference(catalog, gpu_rows, row_id):
    row, gpu = gpu_rows[row_id], catalog.gpus[GPU_ROWS[row_id]]
    assert gpu.launch_year == int(re.search(r"\d{4}", row["launch"]).group())
    assert gpu.mig == row["mig"].lower().startswith("yes")
    ecc = row["ecc"].lower()
    if any(word in ecc for word in ("unverified", "unknown", "assumed")):
        assert gpu.ecc is None
    else:
        assert gpu.ecc is ecc.startswith("yes")
    for column, field in (("cuda_cores_or_stream_processors", "cuda_cores"),
                          ("tensor_or_matrix_cores", "tensor_cores")):
        published = re.match(r"\s*(\d+)\s*(\(|stream|matrix|$)", row[column])
        expected = int(published.group(1)) if published else None
        assert getattr(gpu, field) == expected, (gpu.id, field)
    assert gpu.memory_type.lower() in row["memory_type"].lower()


@pytest.mark.parametrize("row_id", sorted(GPU_ROWS))
def test_values_the_reference_marks_derived_are_labelled(catalog, gpu_rows, row_id):
    row, gpu = gpu_rows[row_id], catalog.gpus[GPU_ROWS[row_id]]
    text = row["derived_or_assumed"].lower()
    tensor = "dense =" in text or "tensor values" in text
    fields = set()
    if "fp16" in text or tensor:
        fields.add("fp16_tflops")
    if "fp8" in text or tensor:
        fields.add("fp8_tflops")
    if "int8" in text or tensor:
        fields.add("int8_tops")
    if "link bw" in text or "nvlink" in text:
        fields.add("interconnect")
    if "memory" in text:
        fields.add("memory_gb")
    if "tensor_cores" in text:
        fields.add("tensor_cores")
    for field in fields:
        if _get(gpu, field) is not None:
            assert any(label in _source(gpu, field).lower() for label in SOURCE_LABELS), (gpu.id, field)


FORM_GRADE = {
    "l4": ("pcie", "datacenter"), "a10": ("pcie", "datacenter"), "l40s": ("pcie", "datacenter"),
    "a100-40gb-pcie": ("pcie", "datacenter"), "a100-80gb-pcie": ("pcie", "datacenter"),
    "a100-40gb-sxm": ("sxm", "datacenter"), "a100-80gb-sxm": ("sxm", "datacenter"),
    "h100-pcie": ("pcie", "datacenter"), "h100-sxm": ("sxm", "datacenter"), "h100-nvl": ("nvl", "datacenter"),
    "h200": ("sxm", "datacenter"), "b200": ("sxm", "datacenter"),
    "rtx-a5000": ("pcie", "workstation"), "rtx-a6000": ("pcie", "workstation"),
    "rtx-6000-ada": ("pcie", "workstation"), "rtx-pro-6000": ("pcie", "workstation"),
    "rtx-pro-6000-server": ("pcie", "datacenter"),
    "rtx-4090": ("pcie", "consumer"), "rtx-5090": ("pcie", "consumer"),
    "mi300x": ("oam", "datacenter"), "mi325x": ("oam", "datacenter"),
    "gaudi2": ("oam", "datacenter"), "gaudi3": ("oam", "datacenter"),
}
LINK = {  # gpu -> (kind, max_gpus)
    "a100-40gb-sxm": ("nvlink", 8), "a100-80gb-sxm": ("nvlink", 8), "h100-sxm": ("nvlink", 8),
    "h200": ("nvlink", 8), "b200": ("nvlink", 8),
    "a100-40gb-pcie": ("nvlink-bridge", 2), "a100-80gb-pcie": ("nvlink-bridge", 2),
    "h100-pcie": ("nvlink-bridge", 2), "h100-nvl": ("nvlink-bridge", 2),
    "rtx-a6000": ("nvlink-bridge", 2), "rtx-a5000": ("nvlink-bridge", 2),
    "l40s": ("none", None), "l4": ("none", None), "a10": ("none", None), "rtx-4090": ("none", None),
    "rtx-5090": ("none", None), "rtx-6000-ada": ("none", None), "rtx-pro-6000": ("none", None),
    "rtx-pro-6000-server": ("none", None),
    "mi300x": ("infinity-fabric", 8), "mi325x": ("infinity-fabric", 8),
    "gaudi2": ("ethernet", 8), "gaudi3": ("ethernet", 8),
}


@pytest.mark.parametrize("gpu_id", sorted(FORM_GRADE))
def test_form_factor_grade_and_interconnect(catalog, gpu_id):
    gpu = catalog.gpus[gpu_id]
    assert (gpu.form_factor, gpu.grade) == FORM_GRADE[gpu_id]
    assert (gpu.interconnect.kind, gpu.interconnect.max_gpus) == LINK[gpu_id]
    if gpu.interconnect.kind in ("nvlink", "nvlink-bridge"):
        assert gpu.interconnect.generation and gpu.interconnect.bandwidth_gbs


def test_server_edition_grade_is_explained(catalog):
    gpu = catalog.gpus["rtx-pro-6000-server"]
    assert "datacenter" in gpu.notes and "grade" in gpu.sources


# ---------------------------------------------------------------------------------------------
# document 000: claims that differ from the vendor, and where it agrees


def _claims(gpu) -> dict[str, object]:
    return {claim.field: claim.value for claim in gpu.document_claims}


@pytest.mark.parametrize("gpu_id, field, value", [
    ("a100-80gb-pcie", "bandwidth_gbs", 2039),
    ("a100-80gb-pcie", "tdp_w", 400),
    ("a100-40gb-pcie", "tdp_w", 400),
    ("h100-pcie", "bandwidth_gbs", 3350),
    ("h100-pcie", "tdp_w", 700),
    ("h100-pcie", "cuda_cores", 16896),
    ("h100-pcie", "tensor_cores", 528),
    ("h100-nvl", "bandwidth_gbs", 3350),
    ("h100-nvl", "tdp_w", 700),
    ("h100-sxm", "bandwidth_ratio_vs_a100_80gb", 2.15),   # knowledge-inventory X3
    ("rtx-a6000", "interconnect.kind", "none"),            # knowledge-inventory X6
    ("rtx-4090", "purchase_chf", 1800),
])
def test_document_000_claims_are_recorded(catalog, gpu_id, field, value):
    assert _claims(catalog.gpus[gpu_id]).get(field) == value


def test_claims_record_differences_only_and_keep_the_vendor_value(catalog):
    for gpu in catalog.gpus.values():
        for claim in gpu.document_claims:
            try:
                vendor = _get(gpu, claim.field)
            except AttributeError:
                continue  # a value with no field of its own (a price, a ratio)
            assert vendor != claim.value, (gpu.id, claim.field)


def test_x3_and_x6_keep_the_arithmetic_and_the_vendor_fact(catalog):
    (x3,) = [c for c in catalog.gpus["h100-sxm"].document_claims if c.field == "bandwidth_ratio_vs_a100_80gb"]
    sxm, forty = catalog.gpus["a100-80gb-sxm"], catalog.gpus["a100-40gb-sxm"]
    assert round(3350 / sxm.bandwidth_gbs, 2) == 1.64 and "1.64" in x3.note
    assert round(3350 / forty.bandwidth_gbs, 2) == 2.15 and "1555" in x3.note
    a6000 = catalog.gpus["rtx-a6000"]
    assert a6000.interconnect.kind == "nvlink-bridge" and a6000.interconnect.max_gpus == 2


def test_unqualified_names_and_000s_figures(catalog):
    """"A100 80GB" is the rented PCIe card, described by 000 with SXM4 figures (kept as claims);
    "H100" is the module all of 000's H100 figures fit, so it carries none."""
    a100, a100_sxm, h100 = catalog.gpu("A100 80GB"), catalog.gpus["a100-80gb-sxm"], catalog.gpu("H100")
    assert (a100.bandwidth_gbs, a100.tdp_w, a100.interconnect.max_gpus) == (1935, 300, 2)
    assert _claims(a100)["bandwidth_gbs"] == a100_sxm.bandwidth_gbs == 2039
    assert _claims(a100)["tdp_w"] == a100_sxm.tdp_w == 400
    assert _claims(a100)["interconnect.max_gpus"] == a100_sxm.interconnect.max_gpus == 8
    assert a100_sxm.document_claims == []
    assert (h100.memory_gb, h100.bandwidth_gbs, h100.tdp_w, h100.cuda_cores, h100.tensor_cores) == (
        80, 3350, 700, 16896, 528)
    assert [c.field for c in h100.document_claims] == ["bandwidth_ratio_vs_a100_80gb"]


def test_l40s_agreement_with_000_is_cited(catalog):
    l40s = catalog.gpus["l40s"]
    assert (l40s.memory_gb, l40s.bandwidth_gbs, l40s.tdp_w) == (48, 864, 350)
    for field in ("memory_gb", "bandwidth_gbs", "tdp_w"):
        assert "agrees with 000 'NVIDIA L40S" in l40s.sources[field]
    assert l40s.document_claims == []


def test_claim_sections_are_headings_of_the_documents(catalog):
    texts = {"000": _seed("000"), "004": _seed("004")}
    for gpu in catalog.gpus.values():
        for claim in gpu.document_claims:
            for heading in claim.section.split(" / "):
                assert heading in texts[claim.document], (gpu.id, claim.section)


def test_sections_cited_in_sources_exist(catalog):
    texts = {"000": _seed("000"), "004": _seed("004")}
    cited = re.compile(r"\b(000|004) '([^']+)'")
    count = 0
    for gpu in catalog.gpus.values():
        for text in gpu.sources.values():
            for document, section in cited.findall(" ".join(text.split())):
                for heading in section.split(" / "):
                    assert heading in texts[document], (gpu.id, section)
                count += 1
    assert count >= 10


# ---------------------------------------------------------------------------------------------
# models against the reference table


def test_every_reference_model_row_is_mapped(model_rows):
    assert set(model_rows) == set(MODEL_ROWS)


@pytest.mark.parametrize("row_name", sorted(MODEL_ROWS))
def test_model_numbers_equal_the_reference(catalog, model_rows, row_name):
    row, model = model_rows[row_name], catalog.models[MODEL_ROWS[row_name]]
    for column, field in MODEL_NUMBERS.items():
        cell = row[column].strip()
        expected = float(cell) if cell else None
        actual = getattr(model, field)
        if model.id == "deepseek-v3" and field == "intermediate":
            # the reference lists the dense FFN (18432); the catalog keeps the per-expert width
            assert expected == 18432 and actual == 2048 and "moe_intermediate_size 2048" in row["source"]
            continue
        assert actual == (pytest.approx(expected) if expected is not None else None), (model.id, field)


def test_llama_3_3_shares_the_llama_3_1_70b_architecture(catalog):
    fields = ("params_b", "layers", "hidden", "heads", "kv_heads", "head_dim", "intermediate", "vocab",
              "max_context", "sliding_window")
    new, old = catalog.models["llama-3.3-70b"], catalog.models["llama-3.1-70b"]
    assert [getattr(new, f) for f in fields] == [getattr(old, f) for f in fields]
    assert "torchtune" in new.sources["default"]


def test_sliding_windows(catalog):
    windowed = {"mistral-7b": (4096, 1.0), "gemma-2-9b": (4096, 0.5), "gemma-2-27b": (4096, 0.5),
                # gpt-oss: alternating 128-token windows (config layer_types); Gemma 3: 5 local : 1 global,
                # 40 of 48 and 52 of 62 layers local; Llama 4: 8192-token chunks on 3 of 4 layers
                "gpt-oss-20b": (128, 0.5), "gpt-oss-120b": (128, 0.5), "gemma-3-12b": (1024, 0.8333),
                "gemma-3-27b": (1024, 0.8387), "llama-4-scout": (8192, 0.75), "llama-4-maverick": (8192, 0.75)}
    for model in catalog.models.values():
        expected = windowed.get(model.id, (None, 0.0))
        assert (model.sliding_window, model.sliding_window_share) == expected, model.id


def test_mixture_of_experts(catalog):
    mixtral, deepseek = catalog.models["mixtral-8x7b"], catalog.models["deepseek-v3"]
    assert (mixtral.experts, mixtral.experts_active, mixtral.active_params_b) == (8, 2, 12.9)
    assert (deepseek.experts, deepseek.shared_experts, deepseek.experts_active,
            deepseek.active_params_b) == (256, 1, 8, 37)
    moe = sorted(m.id for m in catalog.models.values() if m.is_moe)
    assert moe == ["deepseek-r1", "deepseek-v3", "deepseek-v3.1", "glm-4.5", "glm-4.5-air", "gpt-oss-120b",
                   "gpt-oss-20b", "kimi-k2", "llama-4-maverick", "llama-4-scout", "mixtral-8x7b",
                   "qwen3-235b-a22b", "qwen3-30b-a3b", "qwen3-coder-480b-a35b"]
    assert mixtral.decode_params_b == 12.9 and catalog.models["llama-2-7b"].decode_params_b == 7


def test_falcon_has_no_intermediate_in_its_config(catalog):
    falcon = catalog.models["falcon-40b"]
    assert falcon.intermediate is None and "4 x hidden" in falcon.notes


# ---------------------------------------------------------------------------------------------
# KV cache from the stored architecture (values from shared notes/sizing-references.md)


@pytest.mark.parametrize("model_id, bytes_per_token", [
    ("llama-3.1-8b", 131_072), ("llama-3.1-70b", 327_680), ("llama-2-7b", 524_288),
])
def test_kv_bytes_per_token_bf16_match_the_sizing_references(catalog, model_id, bytes_per_token):
    m = catalog.models[model_id]
    assert 2 * m.layers * m.kv_heads * m.head_dim * 2 == bytes_per_token
    assert m.layers * m.kv_values_per_token_layer * 2 == bytes_per_token


def test_deepseek_kv_cache_uses_the_mla_latent(catalog):
    m = catalog.models["deepseek-v3"]
    assert (m.kv_lora_rank, m.qk_rope_head_dim) == (512, 64)
    assert m.layers * m.kv_values_per_token_layer * 2 == 70_272
    assert "70 272" in m.notes
    mla = {"deepseek-v3", "deepseek-r1", "deepseek-v3.1", "kimi-k2"}  # the V3 architecture (config model_type)
    assert all(x.kv_lora_rank is None for x in catalog.models.values() if x.id not in mla)
    assert all(catalog.models[x].layers * catalog.models[x].kv_values_per_token_layer * 2 == 70_272 for x in mla)


# ---------------------------------------------------------------------------------------------
# the generic dense rule (formulas as written in generic-dense.notes)


def _round(x: float) -> int:
    return math.floor(x + 0.5)


def generic_architecture(params_b: float) -> dict[str, int]:
    hidden = 1024 * max(1, _round(2078 * params_b ** 0.335 / 1024))
    layers = max(1, _round(params_b * 1e9 / (13 * hidden ** 2)))
    heads = hidden // 128
    return {"hidden": hidden, "layers": layers, "heads": heads, "head_dim": 128,
            "kv_heads": heads if params_b < 30 else 8,
            "intermediate": 256 * math.ceil(8 / 3 * hidden / 256)}


def test_generic_entry_is_the_rule_at_7b(catalog):
    entry = catalog.models["generic-dense"]
    assert entry.generic and entry.params_b == 7
    assert {k: getattr(entry, k) for k in generic_architecture(7)} == generic_architecture(7)
    for formula in ("2078 x P^0.335", "13 x hidden^2", "P < 30", "8/3"):
        assert formula in entry.notes


@pytest.mark.parametrize("model_id, layers", [
    ("llama-2-7b", 32), ("llama-2-13b", 38), ("llama-2-70b", 80), ("llama-3-70b", 81),
    ("llama-3.1-405b", 132), ("codellama-34b", 51), ("llama-3-8b", 37),
])
def test_generic_rule_errors_stated_in_the_notes(catalog, model_id, layers):
    real = catalog.models[model_id]
    rule = generic_architecture(real.params_b)
    assert rule["layers"] == layers
    assert f"{layers} vs {real.layers}" in " ".join(catalog.models["generic-dense"].notes.split())
    if (real.kv_heads == real.heads) == (rule["kv_heads"] == rule["heads"]):  # same attention kind
        kv_rule = 2 * rule["layers"] * rule["kv_heads"] * 128 * 2
        kv_real = 2 * real.layers * real.kv_heads * real.head_dim * 2
        assert abs(kv_rule / kv_real - 1) <= 0.065, model_id


# ---------------------------------------------------------------------------------------------
# the shipped catalog as a whole


def test_builtin_catalog_loads():
    catalog = catalog_loader.build_catalog(())
    assert catalog.gpu("A100").id == "a100-80gb-pcie"
    assert catalog.model("Llama 3.1 8B").id == "llama-3.1-8b"
