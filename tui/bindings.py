"""Key bindings whose descriptions follow the chat's language.

Textual reads `BINDINGS` once, when the class is created, before any language is known. So each
key gets one binding per language, the language as the action's last argument (`scroll(-1,'de')`),
and `LangBindings.check_action` keeps those of the current language only: Textual's documented
"dynamic actions" (two mutually exclusive bindings on one key, each with its own description) —
the footer and the command palette's key panel then show the current language's words, and a key
runs the binding of the current language.
"""

from __future__ import annotations

from textual.binding import Binding

from expert.messages import LANGS, t


def lang_bindings(keys: str, action: str, message: str, show: bool = True,
                  priority: bool = False) -> list[Binding]:
    """One `Binding` per language for `keys`: `action` (`name` or `name(args)`) gets the language
    as its last argument, the description is the catalog's `message` in that language."""
    name, _, args = action.partition("(")
    args = args.rstrip(")")
    return [Binding(keys, f"{name}({args + ',' if args else ''}'{lang}')", t(message, lang), show=show,
                    priority=priority)
            for lang in LANGS]


def screen_bindings() -> list[Binding]:
    """Textual's keys of every screen per language: Tab / Shift+Tab ("Focus Next" / "Focus
    Previous", run by the app's `action_focus_next` / `_previous`) and Ctrl+C ("Copy selected text",
    `LangScreen.action_copy_text`)."""
    return [*lang_bindings("tab", "app.focus_next", "key.focus_next", show=False),
            *lang_bindings("shift+tab", "app.focus_previous", "key.focus_previous", show=False),
            *lang_bindings("ctrl+c,super+c", "screen.copy_text", "key.input.copy", show=False)]


class LangBindings:
    """Mixin for a screen or widget with `lang_bindings`: shows and runs those of `binding_lang`."""

    @property
    def binding_lang(self) -> str:
        """The language whose bindings are active: the node's `lang`, else the chat's."""
        lang = getattr(self, "lang", None)
        if lang is None:
            lang = getattr(getattr(self, "screen", None), "lang", None) or getattr(self.app, "lang", "en")
        return lang

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """A binding tagged with a language is active only in that language."""
        if parameters and parameters[-1] in LANGS:
            return parameters[-1] == self.binding_lang
        return True


class LangScreen(LangBindings):
    """Mixin for a screen with `screen_bindings`: its copy action takes the language argument."""

    def action_copy_text(self, lang: str | None = None) -> None:
        """Ctrl+C: copy the selected text."""
        super().action_copy_text()
