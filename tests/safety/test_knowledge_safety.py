"""Knowledge files only describe knowledge: safe YAML, no code, no includes, no attribute access,
unknown keys refused, size and depth limits, alias bombs refused (issue 7)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from expert.cli.main import main

PACK = """pack: safety-pack
description: test
rules:
  - id: safety-rule
    title: {en: "T", de: "T"}
    category: operations
    severity: info
    source: {document: "000", section: "S"}
    when:
      - fact: workload
        as: w
    explanation: {en: "EXPLANATION", de: "E"}
    advice: {en: "A", de: "A"}
"""


def run(capsys, *argv):
    try:
        code = main(list(argv))
    except SystemExit as exc:
        code = exc.code
    out, err = capsys.readouterr()
    assert "Traceback" not in err and "internal error" not in err, err
    return code, out, err


TAGS = ["!!python/object/apply:os.system ['touch PWNED']", "!!python/object:builtins.dict {}",
        "!!python/name:os.system", "!!python/module:os", "!include /etc/passwd", "!!binary aGVsbG8="]


@pytest.mark.parametrize("tag", TAGS)
@pytest.mark.parametrize("kind", ["workload", "setup", "validate"])
def test_code_tags_are_refused(capsys, tmp_path, monkeypatch, tag, kind):
    monkeypatch.chdir(tmp_path)
    file = tmp_path / "f.yaml"
    if kind == "setup":
        file.write_text(f"gpu: h100-sxm\nname: {tag}\n")
        argv = ["audit", str(file)]
    else:
        file.write_text(f"model: llama-3.1-8b\nname: {tag}\n")
        argv = ["advise" if kind == "workload" else "validate", str(file)]
    code, _, err = run(capsys, *argv)
    assert code == 2 and str(file) in err
    assert not (tmp_path / "PWNED").exists()


@pytest.mark.parametrize("tag", TAGS[:-1])  # !!binary is plain data (bytes), not code
def test_code_tags_refused_in_rule_packs(capsys, tmp_path, monkeypatch, tag):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pack.yaml").write_text(PACK.replace('description: test', f'description: {tag}'))
    code, _, err = run(capsys, "rules", "--rules-dir", str(tmp_path))
    assert code == 2 and "pack.yaml" in err
    assert not (tmp_path / "PWNED").exists()


@pytest.mark.parametrize("file", ["gpus.yaml", "models.yaml", "offers.yaml", "packages.yaml", "tariffs.yaml"])
def test_code_tags_refused_in_catalog_files(capsys, tmp_path, monkeypatch, file):
    monkeypatch.chdir(tmp_path)
    (tmp_path / file).write_text(f"{file.split('.')[0]}: !!python/object/apply:os.system ['touch PWNED']\n")
    code, _, err = run(capsys, "catalog", "gpus", "--catalog-dir", str(tmp_path))
    assert code == 2 and file in err
    assert not (tmp_path / "PWNED").exists()


@pytest.mark.parametrize("template", [
    "{w.__class__}", "{w.__class__.__mro__}", "{w.params_b.__class__}", "{w.params_b!r}", "{w.params_b:>99999}",
    "{0}", "{}", "{w[params_b]}", "{__import__('os')}", "{w.params_b|__class__}", "{{w.params_b}",
])
def test_templates_cannot_reach_attributes(capsys, tmp_path, template):
    (tmp_path / "pack.yaml").write_text(PACK.replace("EXPLANATION", template.replace('"', '\\"')))
    code, out, err = run(capsys, "rules", "--rules-dir", str(tmp_path))
    if code == 0:  # accepted only if it renders as plain text: check it on a real evaluation
        import expert
        report = expert.advise({"model": "llama-3.1-8b"}, rules_dirs=[tmp_path])
        texts = [f.explanation for f in report.findings if f.rule_id == "safety-rule"]
        assert texts and all("class" not in t and "module" not in t for t in texts), texts
    else:
        assert code == 2 and "pack.yaml" in err


def test_include_keys_and_unknown_keys_are_refused(capsys, tmp_path):
    for extra in ["include: /etc/passwd\n", "imports: [os]\n", "python: print(1)\n"]:
        (tmp_path / "pack.yaml").write_text(PACK + extra)
        code, _, err = run(capsys, "rules", "--rules-dir", str(tmp_path))
        assert code == 2 and "pack.yaml" in err, err
    (tmp_path / "pack.yaml").write_text(PACK.replace("severity: info", "severity: info\n    exec: rm -rf /"))
    code, _, err = run(capsys, "rules", "--rules-dir", str(tmp_path))
    assert code == 2 and "exec" in err


def test_catalog_unknown_keys_are_refused(capsys, tmp_path):
    (tmp_path / "tariffs.yaml").write_text("tariffs:\n  include: /etc/passwd\n")
    code, _, err = run(capsys, "catalog", "gpus", "--catalog-dir", str(tmp_path))
    assert code == 2 and "include" in err


def _big(tmp_path: Path, name: str, prefix: str) -> Path:
    file = tmp_path / name
    file.write_text(prefix + "# " + "x" * (2 * 1024 * 1024) + "\n")
    return file


@pytest.mark.parametrize("argv_of", [
    lambda f, d: ["advise", str(f)], lambda f, d: ["audit", str(f)], lambda f, d: ["validate", str(f)],
    lambda f, d: ["rules", "--rules-dir", str(d)], lambda f, d: ["catalog", "gpus", "--catalog-dir", str(d)]])
def test_two_mib_files_refused(capsys, tmp_path, argv_of):
    name = "gpus.yaml" if "catalog" in argv_of(None, None) else "pack.yaml"
    file = _big(tmp_path, name, "model: llama-3.1-8b\n")
    code, _, err = run(capsys, *argv_of(file, tmp_path))
    assert code == 2 and "larger than" in err


DEEP = {"yaml": lambda n: "model: llama-3.1-8b\nname: " + "[" * n + "]" * n + "\n",
        "json": lambda n: '{"model": "llama-3.1-8b", "name": ' + "[" * n + "]" * n + "}",
        "map": lambda n: "model: llama-3.1-8b\nname:\n" + "".join("  " * (i + 1) + f"k{i}:\n" for i in range(n))}


@pytest.mark.parametrize("style", list(DEEP))
@pytest.mark.parametrize("depth", [100, 999, 5000, 50_000])
def test_deep_nesting_refused_without_recursion_error(capsys, tmp_path, style, depth):
    if style == "map" and depth > 999:
        pytest.skip("indentation makes this beyond the size limit")
    file = tmp_path / "deep.yaml"
    text = DEEP[style](depth)
    if len(text) > 1024 * 1024:
        pytest.skip("beyond the size limit")
    file.write_text(text)
    code, _, err = run(capsys, "advise", str(file))
    assert code == 2 and ("nest" in err or "malformed" in err) and "Recursion" not in err, err


def test_deep_nesting_refused_in_rule_packs(capsys, tmp_path):
    (tmp_path / "pack.yaml").write_text(PACK.replace("description: test", "description: " + "[" * 5000 + "]" * 5000))
    code, _, err = run(capsys, "rules", "--rules-dir", str(tmp_path))
    assert code == 2 and "pack.yaml" in err


BOMB = "a: &a [x,x,x,x,x,x,x,x,x,x]\n" + "".join(
    f"{chr(98 + i)}: &{chr(98 + i)} [" + ",".join([f"*{chr(97 + i)}"] * 10) + "]\n" for i in range(9))


def test_regression_billion_laughs_hang(capsys, tmp_path):
    """A 1 KB file of nested YAML aliases expands to 10^10 values: parsing was quick, but checking
    every number for NaN walked all of them and `advise`/`validate` hung. Now refused at once."""
    for name, text in [("w.yaml", BOMB + "model: llama-3.1-8b\n"), ("s.yaml", BOMB + "gpu: l40s\n")]:
        file = tmp_path / name
        file.write_text(text)
        for command in ("advise", "audit", "validate"):
            code, _, err = run(capsys, command, str(file))
            assert code == 2 and "aliases" in err, err


def test_regression_deep_nesting_reported_as_malformed(capsys, tmp_path):
    """Nesting beyond Python's recursion limit was reported as 'malformed YAML/JSON' and nesting just
    below it could reach unguarded recursive code; now any depth over the limit says so."""
    file = tmp_path / "w.json"
    file.write_text('{"model": "llama-3.1-8b", "agents": ' + "[" * 900 + "]" * 900 + "}")
    code, _, err = run(capsys, "advise", str(file))
    assert code == 2 and "nested more than" in err


def test_recursive_alias_refused(capsys, tmp_path):
    file = tmp_path / "w.yaml"
    file.write_text("model: llama-3.1-8b\nname: &a [*a]\n")
    code, _, err = run(capsys, "advise", str(file))
    assert code == 2 and str(file) in err


def test_small_aliases_still_work(capsys, tmp_path):
    file = tmp_path / "w.yaml"
    file.write_text("ft: &ft {frequency: monthly, method: lora}\n"[0:0]
                    + "model: llama-3.1-8b\nfine_tuning: &ft {frequency: monthly, method: lora}\n"
                    + "agents:\n  - {name: a, params_b: 7, fine_tuning: *ft}\n")
    code, out, err = run(capsys, "validate", str(file))
    assert code == 0, err


@pytest.mark.parametrize("value", ["true", "'12'", "[1]"])
def test_regression_lax_types_accepted_by_advise(capsys, tmp_path, value):
    """`validate` refused `requests_per_day: true` (schema) while `advise` silently used it as 1 request
    a day (pydantic's lax mode): the same file got two different answers. Both refuse it now."""
    file = tmp_path / "w.yaml"
    file.write_text(f"model: llama-3.1-8b\nrequests_per_day: {value}\n")
    for command in ("advise", "validate"):
        code, _, err = run(capsys, command, str(file))
        assert code == 2 and "requests_per_day" in err, (command, err)
    setup = tmp_path / "s.yaml"
    setup.write_text(f"gpu: l40s\ncount: {value}\n")
    for command in ("audit", "validate"):
        code, _, err = run(capsys, command, str(setup))
        assert code == 2 and "count" in err, (command, err)
