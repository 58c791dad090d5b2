"""The chat's prompt: Textual's `Input` with its editing keys described in the chat's language.

Textual's `Input` describes its keys in English ("Move cursor left"), and the command palette's key
panel lists them. `Prompt` binds the same keys to the same actions, one binding per language (see
`tui.bindings`), through one action `edit(NAME, ARGS…, LANG)` that runs `Input`'s `action_NAME`. A
key a later Textual adds that the catalog has no words for keeps Textual's own binding.
"""

from __future__ import annotations

from textual.binding import Binding
from textual.widgets import Input

from expert.messages import has

from ..bindings import LangBindings, lang_bindings


def _input_bindings() -> list[Binding]:
    """`Input`'s own bindings (its class and its bases', the nearest first), as declared."""
    out: list[Binding] = []
    for cls in Input.__mro__:
        out += [b for b in cls.__dict__.get("BINDINGS", []) if isinstance(b, Binding)]
    return out


def _localized() -> list[Binding]:
    out, seen = [], set()
    for binding in _input_bindings():
        name, _, args = binding.action.partition("(")
        args = args.rstrip(")")
        message = f"key.input.{name}" + ("_select" if args == "True" else "")
        if binding.key in seen:
            continue
        seen.add(binding.key)
        if not has(message) or args not in ("", "True"):
            out.append(binding)
            continue
        action = f"edit('{name}'{',' + args if args else ''})"
        out += lang_bindings(binding.key, action, message, show=binding.show, priority=binding.priority)
    return out


class Prompt(LangBindings, Input):
    """The chat's one-line input; its keys' descriptions follow the chat's language."""

    BINDINGS = _localized()

    def action_edit(self, name: str, *args: object) -> object:
        """Run `Input`'s `action_NAME` with `args` (the last one, the language, is left out)."""
        return getattr(self, f"action_{name}")(*args[:-1])
