"""Fine-tuning jobs against published runs (tests/data/measurements.yaml, key `finetune_jobs`):
memory per GPU and training tokens/s per GPU from `expert.sizing.ft_job`, each row within its ceiling."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from expert.catalog import load_catalog
from expert.sizing.constants import GIB
from expert.sizing.ft_job import layout_on

ROWS = yaml.safe_load((Path(__file__).parents[1] / "data" / "measurements.yaml").read_text())["finetune_jobs"]
CATALOG = load_catalog()
TOKENS = 1e6  # any run length: tokens/s does not depend on it


def _layout(row):
    return layout_on(CATALOG.model(row["model"]), CATALOG.gpu(row["gpu"]), row["method"], row["gpus"], TOKENS)


def _estimate(row) -> float:
    lay = _layout(row)
    if row["kind"] == "job_memory":
        return lay.memory_per_gpu_gb
    per_gpu = TOKENS / (lay.hours * 3600) / row["gpus"]
    if row.get("peak_scale") == "fp8":  # NeMo trained in FP8: scale the BF16 plan by the dense-peak ratio
        gpu = CATALOG.gpu(row["gpu"])
        per_gpu *= gpu.fp8_tflops / gpu.fp16_tflops
    return per_gpu


def _measured(row) -> float:
    return row["value"] * (GIB if row["unit"] == "GiB" else 1.0)


@pytest.mark.parametrize("row", [r for r in ROWS if r["kind"] in ("job_memory", "job_speed")], ids=lambda r: r["id"])
def test_job_row_within_ceiling(row):
    est, meas = _estimate(row), _measured(row)
    error = est / meas - 1
    assert abs(error) <= row["ceiling"], f"{row['id']}: estimate {est:.1f} vs measured {meas:.1f} ({error:+.0%})"


@pytest.mark.parametrize("row", [r for r in ROWS if r["kind"] == "job_fit"], ids=lambda r: r["id"])
def test_published_layout_fits(row):
    assert _layout(row).fits


def test_bf16_lora_measurement_inside_the_band():
    # NeMo AutoModel BF16 LoRA (18 % MFU) must lie inside the core's hours band (LoRA MFU 15-40 %)
    row = next(r for r in ROWS if r["id"] == "nemo-automodel-llama3-70b-lora-8xh100-bf16-speed")
    lay = _layout(row)
    measured_hours = TOKENS / (row["value"] * row["gpus"]) / 3600
    assert lay.hours_band.low <= measured_hours <= lay.hours_band.high


def test_every_row_is_cited():
    for row in ROWS:
        assert row["source"] and row["quote"] and row["ceiling"] >= 0, row["id"]
