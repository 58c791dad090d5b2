"""gpu-expert: which GPUs to run your AI agents on, and an audit of the ones you run.

Public API: `advise`, `audit`, `estimate` and the `Expert` class (see `expert.api`). They are
imported on first use, so `import expert` stays cheap for the chat's start-up.

The package has a submodule named `expert.audit` too. Importing a submodule makes Python set it as
an attribute of the package, which would replace the public `expert.audit` function with the module
after the first audit (`expert.audit(setup)` then fails with "'module' object is not callable").
The public names are therefore properties of the package's module class: they always return the API
function, and the import system's assignment of a submodule of the same name is ignored
(`from expert.audit import sizing_extras` still works: it reads `sys.modules`).
"""

from __future__ import annotations

import sys
import types

__all__ = ["Expert", "advise", "audit", "estimate"]
__version__ = "0.1.0"


def _public(name: str) -> property:
    def get(self):
        from expert import api

        return getattr(api, name)

    def set_(self, value) -> None:
        if not isinstance(value, types.ModuleType):  # only the import system's submodule binding is ignored
            raise AttributeError(f"expert.{name} is read-only")

    return property(get, set_)


class _Package(types.ModuleType):
    """The `expert` package: the public API names cannot be shadowed by submodules."""

    Expert = _public("Expert")
    advise = _public("advise")
    audit = _public("audit")
    estimate = _public("estimate")


sys.modules[__name__].__class__ = _Package
