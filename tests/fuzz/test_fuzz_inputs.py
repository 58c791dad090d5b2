"""Fuzzed bad input for every file format and CLI option (issue 7).

Every run ends with exit code 0 (the mutation happened to be valid), 1 (audit --fail-on) or 2 with
one `gpu-expert: error:` line naming the file and the field — never a traceback, never exit 3
(internal error), never a hang. The CLI runs in-process (`expert.cli.main.main`) for speed; a few
cases go through the real entry point in a subprocess.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings, strategies as st

from expert.cli.main import main
from expert._plumbing.paths import knowledge_dir

ROOT = Path(__file__).resolve().parents[2]
FUZZ = settings(max_examples=40, deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])

WORKLOAD = {"model": "llama-3.1-8b", "requests_per_day": 20000, "peak_to_average": 3, "latency_target_s": 2.0,
            "prompt_tokens": 1500, "output_tokens": 250, "fine_tuning": "monthly", "data": "sensitive",
            "sector": "health", "hosting": "ch", "horizon_months": 36}
SETUP = {"gpu": "h100-sxm", "count": 2, "interconnect": "nvlink", "cpu_cores": 32, "ram_gb": 384,
         "storage": {"type": "nvme", "read_mb_s": 3500}, "network_gbps": 25,
         "hosting": {"country": "CH", "certifications": ["iso27001"]}, "utilization": {"mean": 0.35, "peak": 0.55},
         "latency_p95_s": 0.9, "workload": dict(WORKLOAD)}

BAD_VALUES = st.sampled_from([
    None, -1, 0, -0.0, 1e308, 10**30, -(10**30), float("nan"), float("inf"), float("-inf"), True, False,
    "", " ", "x" * 10_000, "ü🚀\u202e\x00", "12", "1e400", "nan", [], [1, 2], {}, {"a": 1}, "gpt-17",
    "h1000", "../../etc/passwd", 3.5, 2**63, "!!python/object:os.system"])


def _paths(data, prefix=()):
    """Every (path) to a value in a nested dict, for choosing what to mutate."""
    for key, value in data.items():
        yield prefix + (key,)
        if isinstance(value, dict):
            yield from _paths(value, prefix + (key,))


def _mutate(base: dict, path: tuple, action: str, value):
    data = json.loads(json.dumps(base))
    target = data
    for key in path[:-1]:
        target = target[key]
    if action == "set":
        target[path[-1]] = value
    elif action == "delete":
        target.pop(path[-1], None)
    else:
        target["unknown_" + str(path[-1])] = value
    return data


def _dump(data, fmt: str) -> str:
    if fmt == "json":
        return json.dumps(data, allow_nan=True, ensure_ascii=False)
    return yaml.safe_dump(data, allow_unicode=True)


def run_cli(capsys, *argv: str):
    try:
        code = main(list(argv))
    except SystemExit as exc:  # argparse
        code = exc.code if isinstance(exc.code, int) else 2
    out, err = capsys.readouterr()
    return code, out, err


def assert_clean(code, out, err, *, name: str | None = None, allowed=(0, 2)):
    assert code in allowed, (code, err[-2000:])
    assert "Traceback" not in err and "internal error" not in err, err[-2000:]
    if code == 2:
        lines = [line for line in err.splitlines() if line.strip()]
        assert lines and lines[-1].startswith("gpu-expert"), err
        if name is not None and lines[-1].startswith("gpu-expert: error:"):
            assert len(lines) == 1, err  # one line, argparse's errors too (QA 46)
            assert name in lines[0], lines[0]


def _write(text: str, suffix: str) -> str:
    handle, path = tempfile.mkstemp(suffix=suffix, dir=os.environ.get("PYTEST_TMP", None))
    with os.fdopen(handle, "w", encoding="utf-8") as file:
        file.write(text)
    return path


@FUZZ
@given(data=st.data(), action=st.sampled_from(["set", "set", "delete", "unknown"]), value=BAD_VALUES,
       fmt=st.sampled_from(["yaml", "json"]), command=st.sampled_from(["advise", "validate"]))
def test_mutated_workload_files(capsys, data, action, value, fmt, command):
    path = data.draw(st.sampled_from(list(_paths(WORKLOAD))))
    file = _write(_dump(_mutate(WORKLOAD, path, action, value), fmt), f".{fmt}")
    try:
        code, out, err = run_cli(capsys, command, file, *(["--format", "json"] if command == "advise" else []))
        assert_clean(code, out, err, name=file)
        if code == 2 and action != "delete":
            assert path[-1] in err or "field" in err or "malformed" in err or "finite" in err, err
    finally:
        os.unlink(file)


@FUZZ
@given(data=st.data(), action=st.sampled_from(["set", "set", "delete", "unknown"]), value=BAD_VALUES,
       fmt=st.sampled_from(["yaml", "json"]))
def test_mutated_setup_files(capsys, data, action, value, fmt):
    path = data.draw(st.sampled_from(list(_paths(SETUP))))
    file = _write(_dump(_mutate(SETUP, path, action, value), fmt), f".{fmt}")
    try:
        code, out, err = run_cli(capsys, "audit", file, "--format", "json", "--fail-on", "critical")
        assert_clean(code, out, err, name=file, allowed=(0, 1, 2))
    finally:
        os.unlink(file)


YAMLISH = st.one_of(
    st.text(max_size=400),
    st.lists(st.sampled_from(["model:", " llama-3.1-8b", "\n", "gpu:", " h100", "[", "]", "{", "}", "-", ":",
                              "&a", "*a", "!!str", "!!float", "'", '"', "#", "\t", " ", "count: ", "9" * 40,
                              ".nan", ".inf", "~", "<<: *a", "---", "...", "%YAML 1.2", "\\u0000"]),
             max_size=80).map("".join))


@FUZZ
@given(text=YAMLISH, command=st.sampled_from(["advise", "audit", "validate"]))
def test_random_text_files(capsys, text, command):
    file = _write(text, ".yaml")
    try:
        assert_clean(*run_cli(capsys, command, file), name=file, allowed=(0, 1, 2))
    finally:
        os.unlink(file)


CATALOG_FILES = ["gpus.yaml", "models.yaml", "packages.yaml", "offers.yaml", "tariffs.yaml"]


def _first_entry_paths(kind: str, data: dict):
    if kind == "tariffs":
        return [("tariffs", key) for key in data["tariffs"]]
    entry = data[kind][0]
    return [(kind, 0, key) for key in entry]


@settings(FUZZ, max_examples=15)
@given(data=st.data(), file=st.sampled_from(CATALOG_FILES), action=st.sampled_from(["set", "delete", "unknown"]),
       value=BAD_VALUES)
def test_mutated_catalog_dir(capsys, data, file, action, value):
    kind = file.split(".")[0]
    original = yaml.safe_load((knowledge_dir() / file).read_text(encoding="utf-8"))
    path = data.draw(st.sampled_from(_first_entry_paths(kind, original)))
    mutated = _mutate(original, path, action, value)
    with tempfile.TemporaryDirectory() as directory:
        Path(directory, file).write_text(yaml.safe_dump(mutated, allow_unicode=True), encoding="utf-8")
        from expert.catalog.loader import _load
        _load.cache_clear()
        code, out, err = run_cli(capsys, "catalog", "gpus", "--catalog-dir", directory, "--format", "json")
        _load.cache_clear()
    assert_clean(code, out, err, name=None)


RULE_PACK = """pack: fuzz-pack
description: fuzzed
rules:
  - id: fuzz-rule
    title: {en: "T", de: "T"}
    category: operations
    severity: info
    source: {document: "000", section: "S"}
    when:
      - fact: workload
        as: w
        where: {params_b: {gt: 1}}
    explanation: {en: "E {w.params_b}", de: "E {w.params_b}"}
    advice: {en: "A", de: "A"}
"""


@settings(FUZZ, max_examples=25)
@given(cut=st.integers(0, len(RULE_PACK)), insert=YAMLISH)
def test_mutated_rule_packs(capsys, cut, insert):
    with tempfile.TemporaryDirectory() as directory:
        Path(directory, "pack.yaml").write_text(RULE_PACK[:cut] + insert + RULE_PACK[cut:], encoding="utf-8")
        result = run_cli(capsys, "rules", "--rules-dir", directory, "--format", "json")
        assert_clean(*result, name=None)
        assert_clean(*run_cli(capsys, "validate", str(Path(directory, "pack.yaml"))), name=None)


def test_valid_rule_pack_is_accepted(capsys, tmp_path):
    (tmp_path / "pack.yaml").write_text(RULE_PACK, encoding="utf-8")
    code, out, err = run_cli(capsys, "rules", "--rules-dir", str(tmp_path), "--format", "json")
    assert code == 0, err
    assert "fuzz-rule" in out


# --- every CLI option ------------------------------------------------------------------------------

NUMBER_OPTIONS = {
    "estimate": ["--params-b", "--count", "--batch", "--prompt-tokens", "--output-tokens", "--context-tokens"],
    "cost": ["--count", "--months", "--utilization"],
}
CHOICE_OPTIONS = {"estimate": ["--precision", "--mode", "--format"], "cost": ["--mode", "--format"],
                  "advise": ["--format", "--lang"], "audit": ["--format", "--lang", "--fail-on"],
                  "rules": ["--format", "--lang"], "explain": ["--lang", "--format"], "catalog": ["--format"]}
BASE = {"estimate": ["estimate", "--model", "llama-3.1-8b", "--gpu", "l40s"], "cost": ["cost", "--gpu", "l40s"]}
BAD_TEXT = ["-1", "0", "nan", "inf", "-inf", "1e999", "abc", "", "1.5.2", "9" * 400, "０", "ü", "1,5", "0x10"]


@pytest.mark.parametrize("command,option", [(c, o) for c, opts in NUMBER_OPTIONS.items() for o in opts])
@pytest.mark.parametrize("value", BAD_TEXT)
def test_bad_numeric_options(capsys, command, option, value):
    argv = [a for a in BASE[command]]
    if option == "--params-b":
        argv = ["estimate", "--gpu", "l40s"]
    code, out, err = run_cli(capsys, *argv, f"{option}={value}")
    assert_clean(code, out, err, allowed=(0, 2))
    if code == 2:
        assert option in err, err


@pytest.mark.parametrize("command,option", [(c, o) for c, opts in CHOICE_OPTIONS.items() for o in opts])
def test_bad_choice_options(capsys, command, option, tmp_path):
    args = {"advise": ["advise", "w.yaml"], "audit": ["audit", "s.yaml"], "rules": ["rules"],
            "explain": ["explain", "x"], "catalog": ["catalog", "gpus"]}.get(command, BASE.get(command))
    code, out, err = run_cli(capsys, *args, option, "bogus\u202e")
    assert_clean(code, out, err)
    assert code == 2 and option in err, err


@pytest.mark.parametrize("argv,fragment", [
    (["estimate", "--model", "nope", "--gpu", "l40s"], "unknown model"),
    (["estimate", "--params-b", "7", "--gpu", "nope"], "unknown gpu"),
    (["cost", "--gpu", "nope"], "unknown gpu"),
    (["cost", "--gpu", "l40s", "--offer", "nope"], "offer"),
    (["explain", "x" * 5000], "unknown rule"),
    (["catalog", "gpus", "--catalog-dir", "/nonexistent/dir"], "not found"),
    (["rules", "--rules-dir", "/nonexistent/dir"], "not found"),
    (["advise", "/nonexistent.yaml"], "not found"),
    (["validate", "/"], "directory"),
])
def test_unknown_ids_and_paths(capsys, argv, fragment):
    code, out, err = run_cli(capsys, *argv)
    assert_clean(code, out, err)
    assert code == 2 and fragment in err, err


OPTION_TOKENS = st.sampled_from(["estimate", "cost", "rules", "catalog", "gpus", "models", "explain", "validate",
                                 "--model", "--params-b", "--gpu", "--count", "--precision", "--mode", "--batch",
                                 "--format", "--lang", "--months", "--utilization", "--offer", "--prompt-tokens",
                                 "--context-tokens", "json", "text", "llama-3.1-8b", "l40s", "h100", "7", "-3",
                                 "nan", "0", "1e9", "int4", "fp8", "full", "qlora", "rent", "buy", "de", "x",
                                 "--catalog-dir", "--rules-dir", "/nonexistent", "--help"])


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(argv=st.lists(OPTION_TOKENS, min_size=1, max_size=10).filter(lambda a: a[0] not in ("--help",)))
def test_random_command_lines(capsys, argv):
    if argv[0].startswith("-") or argv[0] in ("gpus", "models", "json", "text"):
        argv = ["rules", *argv]  # no command means the chat (a full-screen app): not fuzzed here
    code, out, err = run_cli(capsys, *argv)
    assert code in (0, 2), (argv, code, err)
    assert "Traceback" not in err and "internal error" not in err, (argv, err)


def test_stdin_garbage(capsys, monkeypatch):
    import io
    for text in ["", "\x00\x01", "[", "model: [", "a: &a [*a]"]:
        monkeypatch.setattr(sys, "stdin", io.StringIO(text))
        code, out, err = run_cli(capsys, "advise", "-")
        assert_clean(code, out, err, name="<stdin>")
        assert code == 2


@pytest.mark.parametrize("content", [b"\xff\xfe\x00garbage", b"", b"model: llama-3.1-8b\nparams_b: 7\n",
                                     b"- 1\n- 2\n"])
def test_real_entry_point(tmp_path, content):
    """The installed entry point (`python -m expert`) behaves like the in-process runs."""
    bad = tmp_path / "w.yaml"
    bad.write_bytes(content)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("GPU_EXPERT_DEBUG", None)
    proc = subprocess.run([sys.executable, "-m", "expert", "advise", str(bad)], capture_output=True, text=True,
                          timeout=300, env=env, cwd=ROOT)
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and str(bad) in lines[0], proc.stderr


def test_real_entry_point_bad_option():
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.run([sys.executable, "-m", "expert", "estimate", "--params-b", "nan", "--gpu", "l40s"],
                          capture_output=True, text=True, timeout=300, env=env, cwd=ROOT)
    assert proc.returncode == 2 and "--params-b" in proc.stderr and "Traceback" not in proc.stderr


@pytest.mark.parametrize("text", ["!!float", "!!int", "model: !!float\n", "model: llama-3.1-8b\nparams_b: !!int ''\n",
                                  "!!timestamp x", "model: !!timestamp 2024-99-99\n"])
@pytest.mark.parametrize("command", ["advise", "audit", "validate"])
def test_regression_empty_tagged_scalar_internal_error(capsys, tmp_path, text, command):
    """Found by `test_random_text_files`: a file `!!float` (a tag on an empty value) made PyYAML raise
    IndexError, which reached the user as 'internal error' (exit 3) instead of exit 2."""
    file = tmp_path / "w.yaml"
    file.write_text(text)
    code, out, err = run_cli(capsys, command, str(file))
    assert_clean(code, out, err, name=str(file))
    assert code == 2


def test_regression_empty_tagged_scalar_in_rule_pack(capsys, tmp_path):
    (tmp_path / "pack.yaml").write_text(RULE_PACK.replace("description: fuzzed", "description: !!float"))
    code, out, err = run_cli(capsys, "rules", "--rules-dir", str(tmp_path))
    assert_clean(code, out, err)
    assert code == 2 and "pack.yaml" in err
