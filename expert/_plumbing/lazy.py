"""Package attributes imported on first use (PEP 562), so that importing a package stays cheap.

A package `__init__` that imports every submodule makes `import expert.sizing.engines` (or any one
submodule) pay for all of them; the command line's `--help` would import the whole sizing core. With

    lazy_exports(__name__, {"estimate": "estimate", "ENGINES": "engines"})

`from expert.sizing import estimate` still works and imports `expert.sizing.estimate` only then.

Several public names are also the names of submodules (`expert.sizing.cost` is the module that
defines the function `cost`). Importing a submodule makes Python set it as an attribute of its
package; eagerly, the package's own `from .cost import cost` then overwrote it with the function.
Lazily nothing would, so the package's module class ignores that assignment for an exported name:
the name stays the function, as before (the module is still in `sys.modules`).
"""

from __future__ import annotations

import importlib
import sys
import types

_EXPORTS = "__lazy_exports__"


class LazyPackage(types.ModuleType):
    """A package whose exported names are never replaced by a submodule of the same name."""

    def __setattr__(self, name: str, value: Any) -> None:
        if isinstance(value, types.ModuleType) and name in self.__dict__.get(_EXPORTS, {}):
            return
        super().__setattr__(name, value)

    def __getattr__(self, name: str) -> Any:
        submodule = self.__dict__.get(_EXPORTS, {}).get(name)
        if submodule is None:
            raise AttributeError(f"module {self.__name__!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f"{self.__name__}.{submodule}"), name)
        super().__setattr__(name, value)
        return value

    def __dir__(self) -> list[str]:
        return sorted(set(self.__dict__) | set(self.__dict__.get(_EXPORTS, {})))


def lazy_exports(package: str, exports: dict[str, str]) -> None:
    """Make each name of `exports` an attribute of `package` read from the submodule it maps to
    (`{"estimate": "estimate"}`: `expert.sizing.estimate.estimate`) on first access."""
    module = sys.modules[package]
    module.__dict__[_EXPORTS] = dict(exports)
    module.__class__ = LazyPackage
