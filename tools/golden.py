"""Golden outputs of every scenario and example: `python -m tools.golden [--update] [NAME ...]`.

Each input (a `*.scenario.yaml` under tests/scenarios and examples/team-repo, or a workload/setup file
in examples/) is run through the real command line in this process, `advise` for a workload and
`audit` for a setup, in text and JSON, English and German; the four outputs are stored together in
`tests/data/golden/NAME.txt`. `tests/structure/test_golden.py` compares them with the current
outputs: a change to an answer shows there as a diff and, when intended, is recorded with
`--update` and named in CHANGELOG.md with its reason.
"""

from __future__ import annotations

import contextlib
import io
import sys
import tempfile
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "data" / "golden"
VARIANTS = (("text", "en"), ("text", "de"), ("json", "en"), ("json", "de"))


def inputs() -> dict[str, Path]:
    """Every golden input by its stored name."""
    found = {f"example-{p.stem}": p for p in sorted((ROOT / "examples").glob("*.yaml"))}
    for base, prefix in ((ROOT / "tests" / "scenarios", ""), (ROOT / "examples" / "team-repo", "team-")):
        for p in sorted(base.rglob("*.scenario.yaml")):
            found[prefix + p.name.removesuffix(".scenario.yaml")] = p
    return found


def _command(path: Path, tmp: Path) -> tuple[list[str], list[str]]:
    """(command and input file, extra options) for one input: scenarios are unwrapped into a file."""
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    extra: list[str] = []
    if path.name.endswith(".scenario.yaml"):
        kind = "workload" if "workload" in data else "setup"
        body = data[kind]
        for folder, option in (("rules", "--rules-dir"), ("catalog", "--catalog-dir")):
            if (path.parent / folder).is_dir():  # a team's own packs and prices beside its scenarios
                extra += [option, str(path.parent / folder)]
        target = tmp / path.name
        target.write_text(yaml.safe_dump(body, sort_keys=False, allow_unicode=True), encoding="utf-8")
        return ["advise" if kind == "workload" else "audit", str(target)], extra
    kind = "audit" if "gpu" in data and "workload" in data else "advise"
    return [kind, str(path)], extra


def render(path: Path) -> str:
    """The four outputs of one input, each under a header line."""
    from expert.cli.main import main

    parts = []
    with tempfile.TemporaryDirectory() as tmp:
        command, extra = _command(path, Path(tmp))
        for fmt, lang in VARIANTS:
            out, err = io.StringIO(), io.StringIO()
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                code = main([*command, "--format", fmt, "--lang", lang, *extra])
            parts.append(f"=== {command[0]} --format {fmt} --lang {lang}: exit {code}\n{out.getvalue()}"
                         f"{err.getvalue()}".replace(tmp, "TMP"))
    return "".join(parts)


def main(argv: list[str]) -> int:
    """Compare (default) or record (`--update`) the golden outputs; exit 1 on a difference."""
    update = "--update" in argv
    names = [a for a in argv if not a.startswith("--")]
    table = inputs()
    GOLDEN.mkdir(parents=True, exist_ok=True)
    differ = 0
    for name, path in table.items():
        if names and name not in names:
            continue
        now = render(path)
        stored = GOLDEN / f"{name}.txt"
        if update:
            stored.write_text(now, encoding="utf-8")
        elif not stored.exists() or stored.read_text(encoding="utf-8") != now:
            differ += 1
            print(f"differs: {name}")
    print(f"{len(table)} inputs, {differ} differ" + (" (recorded)" if update else ""))
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
