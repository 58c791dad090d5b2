"""`gpu-expert advise --format json` is byte-identical however often, wherever and in whichever rule
order it runs — the precondition for snapshots that only change when an outcome changes.

The scenario is the team's support chatbot (examples/team-repo) with the team's catalog and rule
pack, so the team's rules and negotiated offer take part. Compared byte for byte:

1. two evaluations in one process (the second reuses the cached catalog, rule base and engine);
2. two fresh processes with different PYTHONHASHSEED (set and dict-of-set orders differ);
3. a fresh process with every rule file loaded in the opposite order.

How (3) is done, honestly: built-in packs are always loaded and duplicate rule ids are refused, so
the packs cannot simply be passed twice. Instead the child process points `expert.engine.rule_base` at a
temporary copy of the built-in rules directory whose files are renamed so that the canonical
by-name order is reversed (`00-usecases.yaml` … `10-classification.yaml`), and the team's policy
pack is split into two packs written under names that sort them in the opposite order to the
first runs' directory. The loader then really reads, validates and compiles every pack in the
other order, and the engine ruleset is registered from that order (a fresh process: the engine
keys rulesets by a content hash that ignores order, so a same-process check would reuse the
first ruleset and prove nothing).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import yaml
from team_helpers import ROOT, TEAM_REPO, subprocess_env

from expert.cli.main import main

SCENARIOS = TEAM_REPO / "scenarios"

CHILD = """
import sys
from pathlib import Path
import expert.engine.rule_base
expert.engine.rule_base.rules_dir = lambda: Path(sys.argv[1])
from expert.cli.main import main
sys.exit(main(sys.argv[2:]))
"""


def split_policy(target: Path, names: tuple[str, str]) -> Path:
    """The team's policy pack as two packs (one rule each) in files `names[0]`, `names[1]`."""
    pack = yaml.safe_load((SCENARIOS / "rules" / "policy.yaml").read_text())
    assert len(pack["rules"]) == 2
    target.mkdir()
    for index, (name, rule) in enumerate(zip(names, pack["rules"])):
        part = {"pack": f"acme-policy-{index + 1}", "description": pack["description"], "rules": [rule]}
        (target / name).write_text(yaml.safe_dump(part, allow_unicode=True, sort_keys=False))
    return target


def reversed_builtin_rules(target: Path) -> Path:
    """A copy of the built-in rule files, renamed so that loading by name reverses their order."""
    files = sorted((ROOT / "rules").glob("*.yaml"), key=lambda p: p.name)
    target.mkdir()
    for rank, path in enumerate(reversed(files)):
        (target / f"{rank:02d}-{path.name}").write_text(path.read_text())
    assert [p.name.split("-", 1)[1] for p in sorted(target.glob("*.yaml"))] == [p.name for p in reversed(files)]
    return target


def advise_in_child(args: list[str], seed: str, rules: Path | None = None) -> bytes:
    """stdout of `gpu-expert advise ARGS` in a fresh interpreter (optionally with other built-in rules)."""
    command = ([sys.executable, "-c", CHILD, str(rules)] if rules is not None
               else [sys.executable, "-m", "expert"])
    proc = subprocess.run([*command, *args], cwd=ROOT, env=subprocess_env(PYTHONHASHSEED=seed),
                          capture_output=True, timeout=120)
    assert proc.returncode == 0, proc.stderr.decode()
    return proc.stdout


def test_advise_json_is_byte_identical(tmp_path, capsysbinary):
    scenario = yaml.safe_load((SCENARIOS / "support-chatbot-8b.scenario.yaml").read_text())
    workload = tmp_path / "workload.yaml"
    workload.write_text(yaml.safe_dump(scenario["workload"]))
    in_order = split_policy(tmp_path / "team-rules-a", ("a-policy.yaml", "b-policy.yaml"))
    reversed_order = split_policy(tmp_path / "team-rules-b", ("b-policy.yaml", "a-policy.yaml"))
    common = ["advise", str(workload), "--format", "json", "--catalog-dir", str(SCENARIOS / "catalog")]

    outputs = []
    for _ in range(2):  # (1) twice in this process
        assert main([*common, "--rules-dir", str(in_order)]) == 0
        outputs.append(capsysbinary.readouterr().out)
    assert outputs[0] == outputs[1]
    assert b'"offer": "acme-l40s"' in outputs[0]  # the team's catalog took part

    # (2) two processes, different hash seeds
    assert advise_in_child([*common, "--rules-dir", str(in_order)], seed="1") == outputs[0]
    assert advise_in_child([*common, "--rules-dir", str(in_order)], seed="2") == outputs[0]

    # (3) every rule file in the opposite order (built-in and team), fresh process
    builtin_reversed = reversed_builtin_rules(tmp_path / "rules-reversed")
    assert advise_in_child([*common, "--rules-dir", str(reversed_order)], seed="3",
                           rules=builtin_reversed) == outputs[0]


def test_team_rules_fire_in_the_json(tmp_path, capsysbinary):
    """The reordering above is not vacuous: the team's packs change the outcome of a scenario."""
    scenario = yaml.safe_load((SCENARIOS / "internal-search-any-host.scenario.yaml").read_text())
    workload = tmp_path / "workload.yaml"
    workload.write_text(yaml.safe_dump(scenario["workload"]))
    assert main(["advise", str(workload), "--format", "json",
                 "--rules-dir", str(split_policy(tmp_path / "r", ("a.yaml", "b.yaml")))]) == 0
    assert b'"rule_id": "acme-hosting-ch-only"' in capsysbinary.readouterr().out
