"""pytest plugin: every `*.scenario.yaml` file becomes one syrupy snapshot test of its outcome.

Registered through the `pytest11` entry point, so a team needs no conftest.py at all: put scenario
files in the test tree, run `pytest --snapshot-update` once, commit the `__snapshots__/` folder,
and from then on every change of outcome (a price, a rule, a formula) shows up as a failing test
with a readable JSON diff.

A scenario file holds either a workload (advice) or a setup (audit):

    lang: en            # optional, en | de
    workload: {...}     # the workload file format, or:
    setup: {...}        # the setup file format

Rule packs in a `rules/` folder and catalog files in a `catalog/` folder next to the scenario
files are used for them (the organisation's own knowledge, see `--rules-dir`/`--catalog-dir`).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from expert.errors import InputError
from expert.testing.snapshot import scenario_outcome

SUFFIX = ".scenario.yaml"


def pytest_collect_file(parent, file_path: Path):
    """Collect each scenario file as one test."""
    if file_path.name.endswith(SUFFIX):
        return ScenarioFile.from_parent(parent, path=file_path)
    return None


class ScenarioFile(pytest.File):
    """A scenario file: yields one ScenarioItem."""

    def collect(self):
        """One test named after the file."""
        yield ScenarioItem.from_parent(self, name=self.path.name[: -len(SUFFIX)])


def _scenario_function():
    """Stand-in test function: syrupy names snapshots after a test function's module and name."""


class ScenarioItem(pytest.Item):
    """Evaluates a scenario and compares its outcome with the stored snapshot."""

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.obj = _scenario_function  # read by syrupy's PyTestLocation

    def runtest(self) -> None:
        """Run the scenario and assert its outcome against the snapshot."""
        from syrupy.assertion import SnapshotAssertion
        from syrupy.extensions.json import JSONSnapshotExtension
        from syrupy.location import PyTestLocation

        folder = self.path.parent
        outcome = scenario_outcome(self.path, rules_dirs=_existing(folder / "rules"),
                                   catalog_dirs=_existing(folder / "catalog"))
        session = self.config._syrupy  # type: ignore[attr-defined]
        snapshot = SnapshotAssertion(update_snapshots=self.config.option.update_snapshots,
                                     extension_class=JSONSnapshotExtension,
                                     test_location=PyTestLocation(self), session=session)
        assert snapshot == outcome

    def repr_failure(self, excinfo, style=None):
        """Bad scenario input: the one-line message (file, field path, reason), no traceback."""
        if isinstance(excinfo.value, InputError):
            return f"invalid scenario: {excinfo.value}"
        return super().repr_failure(excinfo, style=style)

    def reportinfo(self):
        """Where the test comes from, for pytest's report."""
        return self.path, 0, f"scenario {self.name}"


def _existing(path: Path) -> tuple[Path, ...]:
    return (path,) if path.is_dir() else ()
