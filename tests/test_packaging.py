"""A non-editable install carries rules/ and knowledge/ and works from any directory."""

import json
import os
import subprocess
import sys
import zipfile

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """Build the wheel offline and install it (without dependencies) into a private folder."""
    pytest.importorskip("hatchling")
    work = tmp_path_factory.mktemp("wheel")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
                    "-w", str(work / "dist"), ROOT], check=True, capture_output=True)
    wheel = next((work / "dist").glob("gpu_expert-*.whl"))
    target = work / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(target),
                    str(wheel)], check=True, capture_output=True)
    return wheel, target


def test_wheel_contains_data(installed):
    wheel, _ = installed
    names = zipfile.ZipFile(wheel).namelist()
    assert "expert/_data/knowledge/gpus.yaml" in names
    assert "expert/_data/knowledge/schemas/workload.schema.json" in names
    assert any(n.startswith("expert/_data/rules/") and n.endswith(".yaml") for n in names)
    assert "tui/app.py" in names


def test_installed_package_runs_from_another_directory(installed, tmp_path):
    _, target = installed
    env = {**os.environ, "PYTHONPATH": str(target)}
    where = subprocess.run([sys.executable, "-c", "import expert._plumbing.paths as p; print(p.knowledge_dir())"],
                           cwd=tmp_path, env=env, capture_output=True, text=True, check=True).stdout
    assert where.startswith(str(target))
    out = subprocess.run([sys.executable, "-m", "expert", "catalog", "gpus", "--format", "json"],
                         cwd=tmp_path, env=env, capture_output=True, text=True, check=True).stdout
    assert "h100-sxm" in {gpu["id"] for gpu in json.loads(out)}
