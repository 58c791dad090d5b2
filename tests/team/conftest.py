"""Fixture: a fresh copy of examples/team-repo."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from team_helpers import TEAM_REPO


@pytest.fixture
def team_repo(tmp_path) -> Path:
    """A fresh copy of examples/team-repo (scenarios, rules, catalog, committed snapshots)."""
    target = tmp_path / "team-repo"
    shutil.copytree(TEAM_REPO, target)
    assert not (target / "conftest.py").exists() and not list(target.rglob("conftest.py"))
    return target
