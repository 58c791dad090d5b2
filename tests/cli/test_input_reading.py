"""Issue 34: only regular files are read, bounded and without blocking; standard input that is closed,
empty or not UTF-8 has its own message; duplicate keys are refused in every input; messages escape
control characters and shorten values pasted whole. Each case failed before (a hang, exit 3, or a
silent acceptance) and now ends with exit 2 and one line naming the file."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from test_bad_input import assert_clean_error

ROOT = Path(__file__).resolve().parents[2]
GOOD = "model: llama-3.1-8b\nrequests_per_day: 1000\n"


def _fifo(path: Path) -> Path:
    os.mkfifo(path)  # nobody writes: open() without O_NONBLOCK would wait forever
    return path


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")
def test_named_pipe_as_workload_is_refused_not_waited_on(cli, tmp_path):
    fifo = _fifo(tmp_path / "w.yaml")
    assert_clean_error(cli("advise", str(fifo)), str(fifo), "is a named pipe, not a regular file")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")
def test_named_pipe_as_rule_pack_and_catalog_file(cli, tmp_path):
    (tmp_path / "w.yaml").write_text(GOOD)
    rules, catalog = tmp_path / "rules", tmp_path / "catalog"
    rules.mkdir(), catalog.mkdir()
    _fifo(rules / "org.yaml"), _fifo(catalog / "gpus.yaml")
    assert_clean_error(cli("advise", str(tmp_path / "w.yaml"), "--rules-dir", str(rules)),
                       "org.yaml: is a named pipe")
    assert_clean_error(cli("advise", str(tmp_path / "w.yaml"), "--catalog-dir", str(catalog)),
                       "gpus.yaml: is a named pipe")


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom"])
def test_device_files_are_not_read(cli, device):
    """Before: read until memory ran out (the size check saw st_size 0)."""
    assert_clean_error(cli("validate", device), device, "is a character device")


def test_oversized_file(cli, tmp_path):
    big = tmp_path / "w.yaml"
    big.write_text("# " + "x" * (1024 * 1024) + "\n")
    assert_clean_error(cli("advise", str(big)), "larger than 1024 KiB")


def _stdin_run(stdin_bytes: bytes | None) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "GPU_EXPERT_CACHE_DIR": ""}
    kwargs = {"input": stdin_bytes} if stdin_bytes is not None else {  # fd 0 closed, as `<&-` does
        "preexec_fn": lambda: os.close(0)}
    return subprocess.run([sys.executable, "-m", "expert", "advise", "-"], capture_output=True,
                          env=env, timeout=60, **kwargs)


@pytest.mark.skipif(os.name != "posix", reason="closing fd 0 in the child is POSIX")
@pytest.mark.parametrize("stdin_bytes, message", [
    (None, "standard input is closed"),          # before: exit 3, AttributeError on None.read
    (b"", "standard input is empty"),
    (b"model: \xff\xfe\n", "standard input is not UTF-8 text (byte 8"),  # before: "malformed YAML"
])
def test_standard_input_closed_empty_or_not_utf8(stdin_bytes, message):
    result = _stdin_run(stdin_bytes)
    assert result.returncode == 2, result.stderr
    err = result.stderr.decode()
    assert len(err.splitlines()) == 1 and err.startswith(f"gpu-expert: error: <stdin>: {message}"), err


def test_file_of_separator_characters_is_malformed_not_empty(cli, tmp_path):
    """U+001C is whitespace to Python's str.strip() but not to YAML: the file is not empty."""
    bad = tmp_path / "w.yaml"
    bad.write_text("\x1c\x1c\x1c")
    result = cli("advise", str(bad))
    assert_clean_error(result, "malformed YAML/JSON")
    assert "empty" not in result.err


@pytest.mark.parametrize("command, text", [
    ("advise", "model: llama-3.1-8b\nmodel: qwen2.5-7b\nrequests_per_day: 1000\n"),
    ("audit", "gpu: l40s\ncount: 1\ncount: 2\nworkload: {model: llama-3.1-8b, requests_per_day: 10}\n"),
    ("audit", "gpu: l40s\nworkload: {model: llama-3.1-8b, requests_per_day: 10, requests_per_day: 20}\n"),
])
def test_duplicate_keys_in_workload_and_setup(cli, tmp_path, command, text):
    """Before: the later value silently won (rule packs already refused duplicates)."""
    bad = tmp_path / "w.yaml"
    bad.write_text(text)
    assert_clean_error(cli(command, str(bad)), "duplicate key")


def test_duplicate_key_in_catalog_file(cli, tmp_path):
    (tmp_path / "w.yaml").write_text(GOOD)
    catalog = tmp_path / "catalog"
    catalog.mkdir()
    (catalog / "tariffs.yaml").write_text("tariffs:\n  electricity_chf_per_kwh: 0.2\n"
                                         "  electricity_chf_per_kwh: 0.3\n")
    assert_clean_error(cli("advise", str(tmp_path / "w.yaml"), "--catalog-dir", str(catalog)),
                       "tariffs.yaml", "duplicate key 'electricity_chf_per_kwh'")


def test_merge_key_may_be_overridden(cli, tmp_path):
    """YAML merge keys (`<<:`) are not duplicates: the mapping's own key overrides the merged one."""
    good = tmp_path / "s.yaml"
    good.write_text("gpu: l40s\ncount: 1\n"
                    "workload: {<<: {model: llama-3.1-8b, requests_per_day: 5}, requests_per_day: 10}\n")
    assert cli("validate", str(good)).code == 0


def test_long_values_are_shortened_and_control_characters_escaped(cli, tmp_path):
    bad = tmp_path / "w.yaml"
    bad.write_text('model: "' + "x" * 500_000 + '"\nrequests_per_day: 10\n')
    result = cli("advise", str(bad))
    assert_clean_error(result, "…(500002 characters)")  # the quoted value: 500 000 + 2 quotes
    assert len(result.err) < 2000, len(result.err)
    bad.write_text('model: "a\\x1b[31mred\\x07"\nrequests_per_day: 10\n')
    result = cli("advise", str(bad))
    assert_clean_error(result, "unknown model 'a\\x1b[31mred\\x07'")
    assert "\x1b" not in result.err and "\x07" not in result.err


def test_cache_never_creates_a_missing_home(tmp_path, monkeypatch):
    """Before: with HOME=/nonexistent the cache created /nonexistent/.cache/gpu-expert."""
    from expert._plumbing.compiled import cache_dir

    home = tmp_path / "nonexistent"
    monkeypatch.delenv("GPU_EXPERT_CACHE_DIR", raising=False)
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.setenv("HOME", str(home))
    assert cache_dir() is None
    home.mkdir()
    assert cache_dir() == home / ".cache" / "gpu-expert"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")
def test_named_pipe_in_the_cache_is_a_miss_not_a_hang(tmp_path, monkeypatch):
    from expert._plumbing.compiled import read_owned

    assert read_owned(_fifo(tmp_path / "catalog-x.pickle")) is None
