"""pydantic's plugin look-up, kept out of a command-line process that uses no plugins.

pydantic finds plugins through package metadata: the first validator a process builds imports
`pydantic.plugin._loader`, which imports `importlib.metadata` (and with it `email`, `zipfile`,
`socket`, …: about 14 ms of a 270 ms `advise`) even when `PYDANTIC_DISABLE_PLUGINS` says that no
plugin is to be loaded. `skip_plugin_lookup()` registers a stand-in for that module which answers
`get_plugins()` with no plugins — exactly what the real function returns for those values — and
hands every other name to the real module, imported on first use. It does nothing when the user
asked for plugins (any other value of the variable) or the real module is already imported.
"""

from __future__ import annotations

import os
import sys
import types

LOADER = "pydantic.plugin._loader"
DISABLED = ("__all__", "1", "true")  # the values for which pydantic's own get_plugins() returns ()


def _no_plugins() -> tuple:
    """pydantic's `get_plugins()` when every plugin is disabled."""
    return ()


def _real(name: str):
    """Any other name: the real loader module, imported now in place of the stand-in. The import
    system's own questions (`__path__`, `__spec__`, …) are answered as for a plain module."""
    if name.startswith("__"):
        raise AttributeError(name)
    del sys.modules[LOADER]
    import importlib

    return getattr(importlib.import_module(LOADER), name)


def skip_plugin_lookup() -> bool:
    """Register the stand-in when plugins are disabled; whether it was registered."""
    if os.environ.get("PYDANTIC_DISABLE_PLUGINS") not in DISABLED or LOADER in sys.modules:
        return False
    stand_in = types.ModuleType(LOADER, __doc__)
    stand_in.get_plugins = _no_plugins
    stand_in.__getattr__ = _real
    sys.modules[LOADER] = stand_in
    return True
