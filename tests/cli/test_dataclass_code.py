"""The dataclass methods' code kept between command-line runs (`expert.cli.dataclass_code`): every
text is served as the code object the builtin `exec` compiles from it, the command's output is the
same with the file, without it, and from a damaged one, and `--help` never imports `dataclasses`."""

from __future__ import annotations

import marshal
import os
import subprocess
import sys
import types
from pathlib import Path

from expert.cli import dataclass_code

ROOT = Path(__file__).resolve().parents[2]
GLOBAL_VALUE = 41
# exec as `dataclasses` calls it: from code compiled without future flags (this module has some)
PLAIN_EXEC = eval(compile("lambda text, ns: exec(text, {}, ns)", "<plain>", "eval", dont_inherit=True))


def _run(cache: str, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "GPU_EXPERT_CACHE_DIR": cache}
    return subprocess.run([sys.executable, "-m", "expert", *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=300, check=True)


def _file(cache: Path) -> Path:
    (path,) = cache.glob("dataclass-code-*.marshal")
    return path


def test_each_text_is_served_as_the_code_exec_compiles(tmp_path):
    _run(str(tmp_path), "advise", "examples/rag-agent.yaml")
    _run(str(tmp_path), "audit", "examples/idle-h100.yaml")
    codes = marshal.loads(_file(tmp_path).read_bytes())
    assert len(codes) > 300   # the package's, pydantic's and annotated_types' dataclasses
    for text, code in codes.items():
        plain: dict = {}
        PLAIN_EXEC(text, plain)
        served: dict = {}
        exec(code, {}, served)
        assert type(code) is types.CodeType and code.co_filename == "<string>"
        assert code == compile(text, "<string>", "exec", dont_inherit=True)
        assert served["__create_fn__"].__code__ == plain["__create_fn__"].__code__


def test_output_is_the_same_without_with_and_from_a_damaged_file(tmp_path):
    cache = tmp_path / "cache"
    args = ("advise", "examples/agent-pool-t3.yaml", "--format", "json")
    off = _run("", *args).stdout                       # no cache at all: dataclasses compiles everything
    first = _run(str(cache), *args).stdout             # compiles, then writes the file
    written = _file(cache).stat().st_mtime_ns
    second = _run(str(cache), *args).stdout            # every text served from the file
    assert _file(cache).stat().st_mtime_ns == written  # nothing new to write
    _file(cache).write_bytes(b"not marshal data")
    damaged = _run(str(cache), *args).stdout
    assert off == first == second == damaged
    assert len(marshal.loads(_file(cache).read_bytes())) > 300   # written again


def test_the_namespaces_default_to_the_callers_as_for_the_builtin():
    stand_in = dataclass_code._Code({})
    found: dict = {}
    stand_in.exec("value = GLOBAL_VALUE + 1", None, found)
    assert found == {"value": 42} and list(stand_in.new) == ["value = GLOBAL_VALUE + 1"]
    stand_in.exec(compile("value = 7", "<t>", "exec"), {}, found)     # a code object goes through as it is
    assert found == {"value": 7} and len(stand_in.new) == 1


def test_help_never_imports_dataclasses():
    probe = ("import sys\nsys.argv = ['gpu-expert', '--help']\nimport expert.cli.main as cli\n"
             "try:\n    cli.run()\nexcept SystemExit:\n    pass\nprint('dataclasses' in sys.modules)")
    got = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, timeout=120,
                         check=True)
    assert got.stdout.strip().splitlines()[-1] == "False"
