"""Every stored snapshot belongs to a test that still exists.

syrupy fails a run on unused snapshots only in a single process; under pytest-xdist (`make test`
runs `-n auto`) that check is off. This static check keeps it: a snapshot file whose scenario file
or test function is gone fails here, whichever way the suite runs.
"""

from __future__ import annotations

import re
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]


def snapshot_files() -> list[Path]:
    """Every file under a `__snapshots__` folder of the test tree."""
    return sorted(p for p in TESTS.rglob("__snapshots__/*/*") if p.is_file())


def orphan_reason(path: Path) -> str | None:
    """Why a snapshot file has no owner, or None when its scenario file or test function exists.

    Layout (syrupy's single-file extensions): `__snapshots__/<test_module>/<test_name>[<param>].<ext>`;
    scenarios (expert.testing.plugin): `__snapshots__/<name>.scenario/<name>.json` next to `<name>.scenario.yaml`."""
    folder = path.parent
    home = folder.parent.parent  # the folder that holds __snapshots__
    if folder.name.endswith(".scenario"):
        if not (home / f"{folder.name}.yaml").is_file():
            return f"no scenario file {folder.name}.yaml in {home}"
        return None
    module = home / f"{folder.name}.py"
    if not module.is_file():
        return f"no test module {module.name}"
    name = path.name.split(".")[0].split("[")[0]
    if not re.search(rf"^\s*(async\s+)?def {re.escape(name)}\(", module.read_text(encoding="utf-8"), re.M):
        return f"no test function {name} in {module.name}"
    return None


def test_there_are_snapshots_to_check():
    files = snapshot_files()
    assert any(p.parent.name.endswith(".scenario") for p in files)
    assert any(p.suffix == ".svg" for p in files)


def test_no_orphaned_snapshot():
    orphans = {str(p.relative_to(TESTS)): r for p in snapshot_files() if (r := orphan_reason(p))}
    assert not orphans, orphans


def test_an_orphan_is_recognised(tmp_path):
    folder = tmp_path / "__snapshots__" / "test_gone"
    folder.mkdir(parents=True)
    (folder / "test_x.json").write_text("{}")
    assert orphan_reason(folder / "test_x.json") == "no test module test_gone.py"
    (tmp_path / "test_gone.py").write_text("def test_y():\n    pass\n")
    assert orphan_reason(folder / "test_x.json") == "no test function test_x in test_gone.py"
    (tmp_path / "test_gone.py").write_text("async def test_x():\n    pass\n")
    assert orphan_reason(folder / "test_x.json") is None
    scenario = tmp_path / "__snapshots__" / "a.scenario"
    scenario.mkdir()
    (scenario / "a.json").write_text("{}")
    assert orphan_reason(scenario / "a.json").startswith("no scenario file a.scenario.yaml")
