"""Every `$ gpu-expert ...` example of README.md prints what the README shows (tools/readme_examples.py).

When an intended change moves an output, refresh the README with `make readme`
(`python -m tools.readme_examples --update`) and review its diff.
"""

from __future__ import annotations

import subprocess
import sys

from tools.readme_examples import differences, examples, update

FAKE = """# x
```
$ gpu-expert validate examples/rag-agent.yaml
examples/rag-agent.yaml: valid workload
$ gpu-expert rules | head -2
first
second
```
```
$ gpu-expert validate examples/idle-h100.yaml examples/rag-agent.yaml
examples/idle-h100.yaml: valid setup
…
```
```
make test
```
"""


def test_readme_examples_match_the_real_output():
    found = differences()
    assert not found, ("README.md differs from the real output; refresh with `make readme`:\n\n"
                       + "\n\n".join(found))


def test_the_agent_shapes_in_docs_agents_match_the_real_output():
    from tools.readme_examples import DOCS

    found = differences(DOCS[1])
    assert not found, ("docs/agents.md differs from the real output; refresh with `make readme`:\n\n"
                       + "\n\n".join(found))
    shapes = [e.command for e in examples(DOCS[1].read_text(encoding="utf-8").split("\n"))]
    assert len(shapes) == 6 and all(c.startswith("gpu-expert advise examples/") for c in shapes)


def test_the_readme_has_an_example_of_every_command():
    commands = {example.command.split()[1] for example in examples(_readme_lines())}
    assert {"advise", "audit", "estimate", "cost", "rules", "explain", "catalog", "validate"} <= commands


def test_a_wrong_output_is_reported_and_update_fixes_it(tmp_path):
    readme = tmp_path / "README.md"
    readme.write_text(FAKE, encoding="utf-8")
    assert [e.command for e in examples(FAKE.split("\n"))] == [
        "gpu-expert validate examples/rag-agent.yaml", "gpu-expert rules | head -2",
        "gpu-expert validate examples/idle-h100.yaml examples/rag-agent.yaml"]
    found = differences(readme)
    assert len(found) == 1 and found[0].startswith("$ gpu-expert rules | head -2")  # the … example is a prefix
    first_rule = subprocess.run([sys.executable, "-m", "expert", "rules"], capture_output=True, text=True,
                                check=True).stdout.split()[0]
    assert "-first" in found[0] and f"+{first_rule}" in found[0]
    assert update(readme) == 1
    assert differences(readme) == []
    text = readme.read_text(encoding="utf-8")
    assert text.endswith("```\nmake test\n```\n") and "examples/idle-h100.yaml: valid setup\n…\n" in text


def _readme_lines() -> list[str]:
    from tools.readme_examples import README

    return README.read_text(encoding="utf-8").split("\n")
