"""The code kept between command-line runs (`expert.cli.generated_code`): every dataclass text is served
as the code object the builtin `exec` compiles from it, every pattern as the pattern object `re`
compiles, the command's output is the same with the file, without it and from a damaged one, and
`--help` never imports `dataclasses`."""

from __future__ import annotations

import marshal
import os
import re
import subprocess
import sys
import types
from pathlib import Path

import _sre
import pytest

from expert.cli import generated_code

ROOT = Path(__file__).resolve().parents[2]
GLOBAL_VALUE = 41
# exec as `dataclasses` calls it: from code compiled without future flags (this module has some)
PLAIN_EXEC = eval(compile("lambda text, ns: exec(text, {}, ns)", "<plain>", "eval", dont_inherit=True))


def _run(cache: str, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "GPU_EXPERT_CACHE_DIR": cache}
    return subprocess.run([sys.executable, "-m", "expert", *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=300, check=True)


def _file(cache: Path, command: str = "advise") -> Path:
    (path,) = cache.glob(f"generated-code-{command}-*.marshal")
    return path


@pytest.fixture(scope="module")
def kept(tmp_path_factory) -> dict:
    """The files of an advice of a pool, an audit and an estimate, together."""
    cache = tmp_path_factory.mktemp("cache")
    _run(str(cache), "advise", "examples/agent-pool-t3.yaml")
    _run(str(cache), "audit", "examples/idle-h100.yaml")
    _run(str(cache), "estimate", "--model", "llama-3.1-8b", "--gpu", "l40s")
    assert sorted(path.name.split("-")[2] for path in cache.iterdir()
                  if path.name.startswith("generated")) == ["advise", "audit", "estimate"]   # one per command
    files = [marshal.loads(_file(cache, command).read_bytes()) for command in ("advise", "audit", "estimate")]
    return {kind: {key: value for kept in files for key, value in kept[kind].items()} for kind in files[0]}


def test_each_text_is_served_as_the_code_exec_compiles(kept):
    codes = kept["dataclasses"]
    assert len(codes) > 300   # the package's, pydantic's and annotated_types' dataclasses
    for text, code in codes.items():
        plain: dict = {}
        PLAIN_EXEC(text, plain)
        served: dict = {}
        exec(code, {}, served)
        assert type(code) is types.CodeType and code.co_filename == "<string>"
        assert code == compile(text, "<string>", "exec", dont_inherit=True)
        assert served["__create_fn__"].__code__ == plain["__create_fn__"].__code__


@pytest.mark.skipif(sys.version_info[:2] not in generated_code.RE_VERSIONS, reason="not installed there")
def test_each_pattern_is_served_as_the_pattern_re_compiles(kept):
    patterns = kept["re"]
    assert re._compiler.compile.__module__ == "re._compiler"   # the real one: no stand-in in this process
    assert any("\ud7ff" in p for p, _ in patterns if isinstance(p, str))  # PyYAML's printable characters
    for (pattern, flags), arguments in patterns.items():
        served = _sre.compile(pattern, *arguments)
        real = re._compiler.compile(pattern, flags)
        assert served == real and (served.groups, served.groupindex) == (real.groups, real.groupindex)
        assert served.pattern is pattern and served.flags == real.flags


def test_the_recorder_keeps_only_its_own_threads_call():
    """`_Recorder` hands every call through; only the call of the thread that installed it is kept (the
    chat compiles patterns on two threads)."""
    import threading

    recorder = generated_code._Recorder()
    assert recorder.CODESIZE == _sre.CODESIZE and recorder.unicode_iscased is _sre.unicode_iscased
    done = []
    original = re._compiler._sre
    re._compiler._sre = recorder
    try:
        other = threading.Thread(target=lambda: done.append(re._compiler.compile("b+", 0)))
        other.start()
        other.join()
        assert recorder.arguments is None and done[0].pattern == "b+"
        mine = re._compiler.compile("(?P<x>a)|c", re.IGNORECASE)
    finally:
        re._compiler._sre = original
    arguments = generated_code._recorded(recorder.arguments)
    assert _sre.compile("(?P<x>a)|c", *arguments) == mine
    assert all(type(word) is int for word in arguments[1]) and arguments[3] == {"x": 1}


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
    assert len(marshal.loads(_file(cache).read_bytes())["dataclasses"]) > 300   # written again


def test_the_namespaces_default_to_the_callers_as_for_the_builtin():
    stand_in = generated_code._Texts({})
    found: dict = {}
    stand_in.exec("value = GLOBAL_VALUE + 1", None, found)
    assert found == {"value": 42} and list(stand_in.new) == ["value = GLOBAL_VALUE + 1"]
    stand_in.exec(compile("value = 7", "<t>", "exec"), {}, found)     # a code object goes through as it is
    assert found == {"value": 7} and len(stand_in.new) == 1


def test_other_patterns_go_to_the_real_compiler():
    calls = []
    patterns = generated_code._Patterns({}, lambda p, f: calls.append((p, f)) or "real")
    parsed = re._parser.parse("a+", 0)
    assert patterns.compile(parsed, 0) == "real" and patterns.compile("a+", re.DEBUG) == "real"
    assert calls == [(parsed, 0), ("a+", re.DEBUG)] and not patterns.new
    patterns = generated_code._Patterns({}, re._compiler.compile)    # a text: the real compiler, recorded
    assert patterns.compile("(?P<x>a)+", re.I.value) == re._compiler.compile("(?P<x>a)+", re.I.value)
    assert list(patterns.new) == [("(?P<x>a)+", re.I.value)]   # re passes the flags as an int
    assert re._compiler._sre is _sre                            # the recorder is gone again
    again = generated_code._Patterns(dict(patterns.new), None)   # held: served without any compiler
    assert again.compile("(?P<x>a)+", re.I.value) == re._compiler.compile("(?P<x>a)+", re.I.value)


def test_help_never_imports_dataclasses():
    probe = ("import sys\nsys.argv = ['gpu-expert', '--help']\nimport expert.cli.main as cli\n"
             "try:\n    cli.run()\nexcept SystemExit:\n    pass\nprint('dataclasses' in sys.modules)")
    got = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, timeout=120,
                         check=True)
    assert got.stdout.strip().splitlines()[-1] == "False"
