"""The methods `dataclasses` writes for each class, compiled once and kept between command-line runs.

`@dataclass` writes the source text of a class's `__init__`, `__repr__`, `__eq__`, `__hash__`, … and
compiles each with `exec` while the class is created. An `advise` creates 82 dataclasses (the
package's, pydantic's and annotated_types'): 372 texts, about 40 ms of compiling. `remember()` (the
console entry point calls it) gives the `dataclasses` module, as soon as it is imported, an `exec` of
its own (a module global shadows the builtin there): it runs the code object compiled from the same
text by an earlier run, read from one file of the compiled cache's directory (`expert.compiled`:
same place, same owner checks, off with `GPU_EXPERT_CACHE_DIR=`), and compiles only a text not seen
before; `store()` writes the file again when the run compiled new ones.

Why every class gets the same methods: `exec(text, globals, locals)` compiles `text` as
`compile(text, "<string>", "exec")` with the future flags of the code that calls it (`dataclasses`
has none) and runs the result in `globals`/`locals`. The stand-in compiles the same text the same way
(`dont_inherit=True`: no future flags, where this module's would otherwise turn the annotations of
`__init__` into strings) and runs that code object in the same `globals`/`locals`; `marshal` gives a
code object back unchanged to the interpreter that wrote it, and the file's name carries the bytecode
magic number, as a `.pyc` does. Anything that is not a text, or comes without its namespaces, goes
to the builtin `exec` with the caller's namespaces, as before.
"""

from __future__ import annotations

import builtins
import marshal
import sys
import types

MODULE = "dataclasses"
KEEP = 4096  # texts kept in the file; a file that would grow beyond restarts with this run's


class _Code:
    """Code objects by source text: those read from the file and those this run compiled."""

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


_CODE: _Code | None = None


def _path():
    from importlib.util import MAGIC_NUMBER

    from expert.compiled import cache_dir

    directory = cache_dir()
    return None if directory is None else directory / f"dataclass-code-{MAGIC_NUMBER.hex()}.marshal"


def _install(module: types.ModuleType) -> None:
    global _CODE
    from expert.compiled import read_owned

    path = _path()
    data = None if path is None else read_owned(path)
    try:
        known = marshal.loads(data) if data else {}
    except Exception:  # noqa: BLE001 - a damaged file: compile everything, as without it
        known = {}
    _CODE = _Code(known if type(known) is dict else {})
    module.exec = _CODE.exec


class _OnImport:
    """A finder that hands `dataclasses` to the import system as usual and installs the stand-in
    right after the module ran (a `--help` never imports it and pays for nothing)."""

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


def remember() -> None:
    """Serve `dataclasses` the code compiled by earlier runs (on its import, or now if it is in)."""
    if _CODE is not None:
        return
    if MODULE in sys.modules:
        _install(sys.modules[MODULE])
    elif not any(isinstance(finder, _OnImport) for finder in sys.meta_path):
        sys.meta_path.insert(0, _OnImport())


def store() -> None:
    """Write the file again when this run compiled texts it did not hold."""
    if _CODE is None or not _CODE.new:
        return
    path = _path()
    if path is None:
        return
    from expert.compiled import write_atomic

    keep = _CODE.known if len(_CODE.known) <= KEEP else _CODE.new
    write_atomic(path.parent, path.name, marshal.dumps(keep))
