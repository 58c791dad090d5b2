"""QA 46 #4: the estimate's memory line states its basis: "85.0 GB usable" on an H100 "80 GB" is the
device memory the driver reports (80 GiB × 0.99 = 79.2 GiB = 85.0 GB), not more than the card has."""

import pytest


@pytest.mark.parametrize(("engine", "usable"), [("sglang", "85.0"), ("vllm", "78.2"), ("tensorrt-llm", "78.4")])
def test_the_memory_line_names_the_device_memory_in_gb_and_gib(cli, engine, usable):
    result = cli("estimate", "--model", "qwen3-8b", "--gpu", "h100-sxm", "--engine", engine)
    assert result.code == 0, result.err
    line = result.out.splitlines()[2]
    # device: 80 GiB × 0.99 (device_visible_share) = 79.2 GiB × 1.0737 GB/GiB = 85.04 GB
    assert f"of {usable} GB usable of the 85.0 GB (79.2 GiB) the driver reports →" in line, line


def test_the_json_keeps_its_fields_and_the_device_memory(cli):
    memory = cli("estimate", "--model", "qwen3-8b", "--gpu", "h100-sxm", "--engine", "sglang",
                 "--format", "json").json()["memory"]
    assert memory["device_memory_gb"] == pytest.approx(80 * 2**30 / 1e9 * 0.99)        # 85.04 GB
    assert memory["usable_per_gpu_gb"] == pytest.approx(memory["device_memory_gb"])  # SGLang holds it all
