"""Package attributes imported on first use (PEP 562), so that importing a package stays cheap.

A package `__init__` that imports every submodule makes `import expert.sizing.engines` (or any one
submodule) pay for all of them; the command line's `--help` would import the whole sizing core. With

    __getattr__, __dir__ = lazy_exports(__name__, {"estimate": "combined", "ENGINES": "engines"})

in the package's `__init__`, `from expert.sizing import estimate` still works and imports
`expert.sizing.combined` only then. No exported name is also the name of a submodule
(tests/structure/test_layout.py): importing a submodule binds it as an attribute of its package,
which would then hide the exported name of the same spelling.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable


def lazy_exports(package: str, exports: dict[str, str]) -> tuple[Callable[[str], object], Callable[[], list[str]]]:
    """The module-level `__getattr__` and `__dir__` of `package` that read each name of `exports`
    from the submodule it maps to (`{"estimate": "combined"}`: `expert.sizing.combined.estimate`),
    importing it on first access; the value is then kept as an ordinary attribute of the package."""
    table = dict(exports)

    def __getattr__(name: str) -> object:
        submodule = table.get(name)
        if submodule is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f"{package}.{submodule}"), name)
        setattr(sys.modules[package], name, value)
        return value

    def __dir__() -> list[str]:
        return sorted(set(vars(sys.modules[package])) | set(table))

    return __getattr__, __dir__
