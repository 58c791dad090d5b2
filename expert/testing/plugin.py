"""pytest plugin: every `*.scenario.yaml` file becomes one syrupy snapshot test of its outcome.

Registered through the `pytest11` entry point, so a team needs no conftest.py at all: put scenario
files in the test tree, run `pytest --snapshot-update` once, commit the `__snapshots__/` folder,
and from then on every change of outcome (a price, a rule, a formula) shows up as a failing test
with a readable JSON diff (see `expert.testing.snapshot` for what a snapshot holds). Needs pytest
and syrupy: `pip install "gpu-expert[test]"`.

A scenario file holds either a workload (advice) or a setup (audit):

    description: ...    # optional, free text
    lang: en            # optional, en | de
    workload: {...}     # the workload file format, or:
    setup: {...}        # the setup file format
    expect: {...}       # optional: what must hold (rules that fire, GPU family, count...)

The `expect:` block (`expert.testing.expectations`) is checked before the snapshot: a violated
line fails the test with one message per line, so `--snapshot-update` cannot approve a lost
finding. With `xfail_reason` set, violations are reported as xfail (a known departure) and the
snapshot is still compared; once the expectations hold, a warning asks to remove the marker.

The organisation's own knowledge (as `--rules-dir` / `--catalog-dir` on the command line):

- a `rules/` folder and a `catalog/` folder in the same folder as the scenario files are used for
  them (only that folder: parent folders are not searched);
- `--gpu-expert-rules-dir DIR` / `--gpu-expert-catalog-dir DIR` (repeatable), or the ini options
  `gpu_expert_rules_dirs` / `gpu_expert_catalog_dirs` (paths relative to the ini file), add
  directories for every scenario; they come before the folder's own, so for the catalog the
  folder's files win.

A scenario with bad input fails with one line naming the file, the field path and the reason.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from expert.errors import InputError
from expert.testing.snapshot import scenario_result

SUFFIX = ".scenario.yaml"


def pytest_addoption(parser) -> None:
    """Extra rule and catalog directories for every scenario (CLI and ini)."""
    group = parser.getgroup("gpu-expert", "gpu-expert scenario snapshots")
    group.addoption("--gpu-expert-rules-dir", action="append", default=[], metavar="DIR",
                    help="rule packs added for every *.scenario.yaml (besides a rules/ folder beside them)")
    group.addoption("--gpu-expert-catalog-dir", action="append", default=[], metavar="DIR",
                    help="catalog files merged for every *.scenario.yaml (before a catalog/ folder beside them)")
    parser.addini("gpu_expert_rules_dirs", type="paths", default=[],
                  help="gpu-expert rule-pack directories for every scenario")
    parser.addini("gpu_expert_catalog_dirs", type="paths", default=[],
                  help="gpu-expert catalog directories for every scenario")


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


class OutcomeChanged(AssertionError):
    """A scenario's outcome differs from its stored snapshot; the message is the diff."""


class ExpectationFailed(AssertionError):
    """A scenario's outcome violates its `expect:` block; the message lists every violated line."""


def _terminal_color(config):
    """syrupy's colouring switch for the diff (colour only where pytest colours its output)."""
    from contextlib import nullcontext

    try:
        from syrupy import __terminal_color as switch  # type: ignore[attr-defined]
    except ImportError:
        return nullcontext()
    return switch(config)


def _scenario_function():
    """Stand-in test function: syrupy names snapshots after a test function's module and name."""


class ScenarioItem(pytest.Item):
    """Evaluates a scenario and compares its outcome with the stored snapshot."""

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.obj = _scenario_function  # read by syrupy's PyTestLocation

    def knowledge_dirs(self) -> tuple[tuple[Path, ...], tuple[Path, ...]]:
        """(rules dirs, catalog dirs) for this scenario: options and ini first, then the folder's own."""
        config = self.config
        folder = self.path.parent
        rules = [*_paths(config.getoption("gpu_expert_rules_dir"), config), *config.getini("gpu_expert_rules_dirs"),
                 *_existing(folder / "rules")]
        catalog = [*_paths(config.getoption("gpu_expert_catalog_dir"), config),
                   *config.getini("gpu_expert_catalog_dirs"), *_existing(folder / "catalog")]
        return _unique(rules), _unique(catalog)

    def runtest(self) -> None:
        """Run the scenario and assert its outcome against the snapshot."""
        session = getattr(self.config, "_syrupy", None)
        if session is None:
            raise InputError("scenario snapshots need the syrupy pytest plugin",
                             allowed='pip install "gpu-expert[test]" (or: pip install syrupy)')
        from syrupy.assertion import SnapshotAssertion
        from syrupy.extensions.json import JSONSnapshotExtension
        from syrupy.location import PyTestLocation

        rules_dirs, catalog_dirs = self.knowledge_dirs()
        display = os.path.relpath(self.path, self.config.invocation_params.dir)
        shown = display if not display.startswith("..") else str(self.path)
        outcome, problems, xfail_reason = scenario_result(self.path, rules_dirs=rules_dirs,
                                                          catalog_dirs=catalog_dirs, display=shown)
        if problems and not xfail_reason:
            lines = [f"  {problem}" for problem in problems]
            raise ExpectationFailed("\n".join([f"{shown}: the outcome violates its expect: block", *lines]))
        if xfail_reason and not problems:
            self.warn(pytest.PytestWarning(f"{shown}: expectations hold; remove xfail_reason ({xfail_reason})"))
        snapshot = SnapshotAssertion(update_snapshots=self.config.option.update_snapshots,
                                     extension_class=JSONSnapshotExtension,
                                     test_location=PyTestLocation(self), session=session)
        if not snapshot == outcome:
            raise OutcomeChanged(self._diff(snapshot))
        if problems:
            pytest.xfail(f"{xfail_reason} — " + "; ".join(problems))

    def _diff(self, snapshot) -> str:
        """A unified diff of the stored and the new outcome (every changed line, 2 lines of context)."""
        import difflib

        result = snapshot.executions[snapshot.num_executions - 1]
        head = f"{self.path.name}: the outcome differs from its snapshot"
        if result.recalled_data is None or result.asserted_data is None:  # no snapshot stored yet
            with _terminal_color(self.config):
                lines = snapshot.get_assert_diff(diff_mode=self.config.option.diff_mode)
            return "\n".join([head, *lines, "create it with: pytest --snapshot-update"])
        stored = str(result.recalled_data).splitlines()
        now = str(result.asserted_data).splitlines()
        lines = difflib.unified_diff(stored, now, "snapshot", "now", n=2, lineterm="")
        return "\n".join([f"{head} (- snapshot, + now); if the change is intended: pytest --snapshot-update",
                          *lines])

    def repr_failure(self, excinfo, style=None):
        """Bad input: one line (file, field path, reason); a changed outcome: the snapshot diff."""
        if isinstance(excinfo.value, InputError):
            return f"invalid scenario: {excinfo.value}"
        if isinstance(excinfo.value, (OutcomeChanged, ExpectationFailed)):
            return str(excinfo.value)
        return super().repr_failure(excinfo, style=style)

    def reportinfo(self):
        """Where the test comes from, for pytest's report."""
        return self.path, 0, f"scenario {self.name}"


def _existing(path: Path) -> tuple[Path, ...]:
    return (path,) if path.is_dir() else ()


def _paths(values, config) -> list[Path]:
    """Command-line directories, relative to the directory pytest was started in."""
    return [Path(config.invocation_params.dir, value) for value in values]


def _unique(paths) -> tuple[Path, ...]:
    seen: dict[Path, None] = {}
    for path in paths:
        seen.setdefault(Path(path).resolve(), None)
    return tuple(seen)
