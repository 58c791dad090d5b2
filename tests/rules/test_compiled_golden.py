"""Golden snapshot of the built-in rule packs as compiled for durable-rules.

A change to any rule's conditions shows up here as a reviewed diff of the engine-level ruleset,
separately from the outcome snapshots of tests/scenarios (as ansible-rulebook tests its compiled
rulesets).
"""

import pytest
from syrupy.extensions.json import JSONSnapshotExtension

from expert.engine import compile_packs
from expert.engine.rule_base import load_rule_packs


@pytest.fixture
def snapshot_json(snapshot):
    return snapshot.use_extension(JSONSnapshotExtension)


def test_builtin_rulesets_compile_to_golden(snapshot_json):
    assert compile_packs(load_rule_packs()) == snapshot_json
