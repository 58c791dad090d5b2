"""`GpuExpertApp`: the chat interview, the answer with its reasons, what-if edits, audit mode.

`run_app` is what `gpu-expert chat` calls. The heavy pipeline (`expert.api`: catalog, rule packs,
engine) is loaded in a worker after the first question is on screen, so launch stays under a second.
"""

from __future__ import annotations

from pathlib import Path
from typing import Iterable

from textual.app import App, SystemCommand
from textual.screen import Screen

from expert.messages import t

from .advisor import Advisor
from .bindings import LangBindings, lang_bindings
from .screens import ChatScreen
from .session import Session, read_autosave


TEXTUAL_COMMANDS = {"Theme": "theme", "Quit": "quit", "Keys": "keys", "Maximize": "maximize",
                    "Minimize": "minimize", "Screenshot": "screenshot"}
"""Textual's own palette commands (by their English title) → `chat.palette.textual.NAME`: said in
the chat's language; one a later Textual adds keeps its English until it is listed here."""


class GpuExpertApp(LangBindings, App[int]):
    """The app: one `ChatScreen`; `advisor` computes reports (injectable for tests)."""

    CSS_PATH = "app.tcss"
    TITLE = "gpu-expert"
    # Textual's Ctrl+Q "Quit" and Ctrl+P "palette", described in the chat's language (a binding
    # of `command_palette` by another action name: Textual adds its own, listed after these)
    BINDINGS = [*lang_bindings("ctrl+q", "quit", "key.quit", show=False, priority=True),
                *lang_bindings("ctrl+p", "command_palette", "key.palette", show=False, priority=True)]

    def __init__(self, lang: str = "en", load: str | None = None, advisor=None,
                 resume: bool | None = None, cursor_blink: bool = True,
                 watch_terminal: bool = False, lang_chosen: bool = True) -> None:
        """`load`: a workload or setup file to start from; `resume`: None asks about an autosave,
        True/False answers in advance (tests); `cursor_blink=False` for deterministic snapshots;
        `watch_terminal`: exit on SIGHUP/SIGTERM or a hung-up terminal (`tui.terminal`);
        `lang_chosen=False`: the first German answer switches the chat to German."""
        super().__init__()
        self.lang_chosen = lang_chosen
        self.watch_terminal = watch_terminal
        self.lang = "de" if lang == "de" else "en"
        self.load_path = load
        self.advisor = advisor if advisor is not None else Advisor()
        self.resume = resume
        self.cursor_blink = cursor_blink

    @property
    def binding_lang(self) -> str:
        """The chat's language (it follows `/lang`), for the app's own key descriptions."""
        chats = [s for s in self.screen_stack if isinstance(s, ChatScreen)]
        return chats[0].lang if chats else self.lang

    async def action_quit(self, lang: str | None = None) -> None:
        """Ctrl+Q: quit (the answers are autosaved)."""
        await super().action_quit()

    def action_focus_next(self, lang: str | None = None) -> None:
        """Tab: the next widget (the prompt, the rule cards)."""
        super().action_focus_next()

    def action_focus_previous(self, lang: str | None = None) -> None:
        """Shift+Tab: the previous widget."""
        super().action_focus_previous()

    def action_command_palette(self, lang: str | None = None) -> None:
        """Ctrl+P: the command palette."""
        super().action_command_palette()

    @property
    def chat(self) -> ChatScreen:
        """The chat screen (under any open modal)."""
        return next(s for s in self.screen_stack if isinstance(s, ChatScreen))

    def on_mount(self) -> None:
        if self.watch_terminal:
            from .terminal import watch

            watch(self)
        self.title = t("chat.title", self.lang)
        saved = None if self.load_path or self.resume is False else read_autosave()
        session = Session(self.lang)
        session.lang_fixed = self.lang_chosen
        self.push_screen(ChatScreen(session, self.cursor_blink, load=self.load_path,
                                    saved=saved, ask_resume=self.resume is None))

    def preload(self) -> None:
        """Load the pipeline in a thread (called once the first question is on screen)."""
        self.run_worker(self.advisor.load, thread=True, group="load", exit_on_error=False)

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        chat = self.chat
        lang = chat.lang
        for command in super().get_system_commands(screen):
            name = TEXTUAL_COMMANDS.get(command.title)
            yield command if name is None else command._replace(
                title=t(f"chat.palette.textual.{name}", lang), help=t(f"chat.palette.textual.{name}.help", lang))
        prefill = lambda text: lambda: chat.prefill(text)  # noqa: E731
        typed = lambda text: lambda: chat.post_message(ChatScreen.Typed(text))  # noqa: E731
        entries = (("help", "F1", chat.action_help), ("cost", "F2", chat.action_cost),
                   ("why", "F3", chat.action_why), ("save", "/save", prefill("/save session.yaml")),
                   ("export_md", "/export", prefill("/export report.md")),
                   ("export_json", "/export", prefill("/export report.json")),
                   ("audit", "/audit", prefill("/audit ")), ("load", "/load", prefill("/load ")),
                   ("set", "/set", prefill("/set ")), ("new", "/new", typed("/new")))
        for name, how, run in entries:
            yield SystemCommand(t(f"chat.palette.{name}", lang), how, run)
        yield SystemCommand("Sprache: Deutsch", "/lang de", typed("/lang de"))
        yield SystemCommand("Language: English", "/lang en", typed("/lang en"))


def run_app(lang: str = "en", load: str | None = None, catalog_dirs=(), rules_dirs=(),
            lang_chosen: bool = True) -> int:
    """Run the chat app until the user quits; the exit code (0, or 2 for a file that cannot load).
    `lang_chosen=False` (no `--lang`): the first German answer switches the chat to German."""
    if load is not None and not Path(load).is_file():
        import sys

        print(t("chat.file.not_found", lang, path=load), file=sys.stderr)
        return 2
    app = GpuExpertApp(lang=lang, load=load, advisor=Advisor(catalog_dirs, rules_dirs),
                       watch_terminal=True, lang_chosen=lang_chosen)
    result = app.run()
    return result if isinstance(result, int) else (app.return_code or 0)
