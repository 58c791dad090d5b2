"""Code the standard library generates while a command starts, compiled once and kept between runs.

Two kinds, about 50 ms of an `advise` together, spent on the same texts in every run:

- `@dataclass` writes the source text of a class's `__init__`, `__repr__`, `__eq__`, `__hash__`, … and
  compiles each with `exec` while the class is created: an `advise` creates about 80 dataclasses (the
  package's, pydantic's and annotated_types') from about 350 texts, about 40 ms;
- `re.compile` parses each pattern and translates it into the code of the regular expression engine:
  about 60 patterns of PyYAML, pydantic, logging, … and ours, about 10 ms (PyYAML's check for
  printable characters alone 4.5 ms).

`remember(command)` (the console entry point calls it) installs, as soon as `dataclasses` is imported (a
`--help` never imports it and pays for nothing), an `exec` of that module's own (a module global
shadows the builtin there) and a compiler for `re` (`re._compiler.compile`, which `re` looks up at
each call) that take what an earlier run compiled from one file of the compiled cache's directory
(`expert.compiled`: the same place and owner checks, off with `GPU_EXPERT_CACHE_DIR=`; one file per
command), and compile only what is new; `store()` writes the file again when the run compiled anything new.

Why the result is the same:

- `exec(text, globals, locals)` compiles `text` as `compile(text, "<string>", "exec")` with the future
  flags of the code that calls it (`dataclasses` has none) and runs it in `globals`/`locals`. The
  stand-in compiles the same text the same way (`dont_inherit=True`: no future flags, where this
  module's would turn the annotations of `__init__` into strings) and runs that code object in the
  same namespaces. Anything but a text goes to the builtin `exec` with the caller's namespaces.
- `re._compiler.compile(pattern, flags)` parses the pattern, translates it and passes the flags,
  that code and the groups to `_sre.compile`, which builds the pattern object. The stand-in runs the
  real compiler for a pattern it does not hold, with a recorder in place of `_sre` in that module
  (`_Recorder`: every attribute handed through, the arguments of this thread's call of `compile`
  kept); those arguments depend on nothing but the pattern and the flags, and for a pattern it holds
  the stand-in makes that same call with them. A pattern object that is not a text, or debugging
  output (`re.DEBUG`), goes to the real compiler. Installed on Python 3.11 and 3.12 only (the
  versions the package runs on, whose `re._compiler` calls `_sre.compile` this way).
- `marshal` gives code objects, lists, dicts and tuples back unchanged to the interpreter that wrote
  them, and the file's name carries the bytecode magic number, as a `.pyc` does.
"""

from __future__ import annotations

import builtins
import marshal
import sys
import threading
import types
from re import _compiler, _constants

import _sre

MODULE = "dataclasses"
KEEP = 4096  # entries of one kind kept in the file; one that would grow beyond restarts with this run's
RE_VERSIONS = ((3, 11), (3, 12))  # where `re._compiler.compile` calls `_sre.compile` as `_Recorder` expects


class _Texts:
    """The `exec` of `dataclasses`: code objects by source text, read from the file or compiled now."""

    def __init__(self, known: dict) -> None:
        self.known = known
        self.new: dict[str, types.CodeType] = {}

    def exec(self, source, globals=None, locals=None, /, **options):  # noqa: A002 - exec's own names
        """The builtin `exec`, with a text replaced by its code object."""
        if globals is None:  # exec's defaults are the caller's namespaces, not this function's
            caller = sys._getframe(1)
            globals, locals = caller.f_globals, caller.f_locals if locals is None else locals
        if type(source) is str:
            code = self.known.get(source)
            if type(code) is not types.CodeType:
                code = self.known[source] = self.new[source] = compile(source, "<string>", "exec",
                                                                      dont_inherit=True)
            source = code
        return builtins.exec(source, globals, locals, **options)


class _Recorder:
    """`_sre` as `re._compiler` sees it while the real compiler compiles one pattern: every attribute
    of the real module, and the arguments of the call of `compile` made on the thread that installed
    it (another thread's call is only handed through)."""

    def __init__(self) -> None:
        self.owner = threading.get_ident()
        self.arguments: tuple | None = None

    def __getattr__(self, name: str):
        return getattr(_sre, name)

    def compile(self, pattern, *arguments):
        """`_sre.compile`, remembering its arguments after the pattern."""
        if threading.get_ident() == self.owner:
            self.arguments = arguments
        return _sre.compile(pattern, *arguments)


def _recorded(arguments: tuple | None) -> tuple | None:
    """The recorded arguments as `marshal` can keep them (the opcodes are an `int` subclass: plain ints
    of the same values), or None when none were recorded."""
    if arguments is None or len(arguments) != 5:
        return None
    flags, code, groups, groupindex, indexgroup = arguments
    return flags, [int(word) for word in code], groups, dict(groupindex), tuple(indexgroup)


class _Patterns:
    """The compiler of `re`: `_sre.compile`'s arguments by (pattern, flags), read or worked out now."""

    def __init__(self, known: dict, original) -> None:
        self.known = known
        self.new: dict[tuple, tuple] = {}
        self.original = original

    def compile(self, pattern, flags=0):
        """`re._compiler.compile` for a text pattern, the real one for anything else."""
        if type(pattern) not in (str, bytes) or type(flags) is not int or flags & _constants.SRE_FLAG_DEBUG:
            return self.original(pattern, flags)
        key = (pattern, flags)
        arguments = self.known.get(key)
        if type(arguments) is tuple and len(arguments) == 5:
            return _sre.compile(pattern, *arguments)
        recorder = _Recorder()
        _compiler._sre = recorder
        try:
            compiled = self.original(pattern, flags)
        finally:
            _compiler._sre = _sre
        arguments = _recorded(recorder.arguments)
        if arguments is not None:
            self.known[key] = self.new[key] = arguments
        return compiled


_TEXTS: _Texts | None = None
_PATTERNS: _Patterns | None = None
_COMMAND = ""


def _path():
    from importlib.util import MAGIC_NUMBER

    from expert.compiled import cache_dir

    directory = cache_dir()
    return None if directory is None else directory / f"generated-code-{_COMMAND}-{MAGIC_NUMBER.hex()}.marshal"


def _install(module: types.ModuleType) -> None:
    global _TEXTS, _PATTERNS
    from expert.compiled import read_owned

    try:
        path = _path()
        data = None if path is None else read_owned(path)
        kept = marshal.loads(data) if data else {}
    except Exception:  # noqa: BLE001 - no usable directory or a damaged file: compile everything
        kept = {}
    kept = kept if type(kept) is dict else {}
    _TEXTS = _Texts(_dict(kept.get("dataclasses")))
    module.exec = _TEXTS.exec
    if sys.version_info[:2] in RE_VERSIONS:
        _PATTERNS = _Patterns(_dict(kept.get("re")), _compiler.compile)
        _compiler.compile = _PATTERNS.compile


def _dict(value) -> dict:
    return value if type(value) is dict else {}


class _OnImport:
    """A finder that hands `dataclasses` to the import system as usual and installs the stand-ins
    right after the module ran."""

    def find_spec(self, name, path=None, target=None):
        if name != MODULE:
            return None
        from importlib.machinery import PathFinder

        sys.meta_path.remove(self)
        spec = PathFinder.find_spec(name, path)
        if spec is not None and spec.loader is not None:
            run = spec.loader.exec_module

            def exec_module(module):
                run(module)
                _install(module)

            spec.loader.exec_module = exec_module  # this spec's own loader object
        return spec


def remember(command: str) -> None:
    """Serve the code compiled by earlier runs of `command` (from the import of `dataclasses` on, or now
    if it is in). Each command has its own file: one holds what that command compiles (the chat's
    Textual and Rich would make an `advise` read several times as much)."""
    global _COMMAND
    if _TEXTS is not None:
        return
    _COMMAND = command
    if MODULE in sys.modules:
        _install(sys.modules[MODULE])
    elif not any(isinstance(finder, _OnImport) for finder in sys.meta_path):
        sys.meta_path.insert(0, _OnImport())


def store() -> None:
    """Write the file again when this run compiled something it did not hold."""
    kinds = {"dataclasses": _TEXTS, "re": _PATTERNS}
    if not any(kind is not None and kind.new for kind in kinds.values()):
        return
    try:
        path = _path()
    except Exception:  # noqa: BLE001 - no usable cache directory (no home): nothing to keep
        return
    if path is None:
        return
    from expert.compiled import write_atomic

    kept = {name: kind.known if len(kind.known) <= KEEP else kind.new
            for name, kind in kinds.items() if kind is not None}
    try:
        data = marshal.dumps(kept)
    except Exception:  # noqa: BLE001 - not writable as marshal data: the next run compiles again
        return
    write_atomic(path.parent, path.name, data)
