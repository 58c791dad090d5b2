"""The slash commands of the chat screen, one `cmd_NAME(arg)` method each (see `tui.commands`).

A mixin of `ChatScreen`: it uses the screen's `session`, `report`, `say`, `ask`, `start`, `apply`,
`compute` and `autosave`. A `ValueError` or `InputError` becomes one error line in the chat.
"""

from __future__ import annotations

from pathlib import Path

from expert.messages import t

from .. import commands as cmd
from ..session import Session


class CommandsMixin:
    """`/set`, `/unset`, `/load`, `/audit`, `/save`, `/export`, `/lang`, `/new`, `/cost`, `/why`,
    `/explain`, `/help`, `/quit`."""

    def run_command(self, c: cmd.Command) -> None:
        handler = getattr(self, f"cmd_{c.name}", None)
        if handler is None:
            self.say("unclear", f"/{c.name}?", "/help")
            return
        try:
            handler(c.arg)
        except ValueError as exc:
            self.say("error", str(exc))
        except Exception as exc:  # noqa: BLE001 - InputError and friends: one line, no crash
            self.say("error", str(exc).splitlines()[0] if str(exc) else type(exc).__name__)

    def cmd_set(self, arg: str) -> None:
        if self.session.mode == "audit":
            before = self.session.setup
            self.session.setup = cmd.setup_edit(before, arg, self.lang)
            self._undo = before
            self.say("understood", arg)
            self.autosave()
            if not self.ask():
                self.compute()
        else:
            self.apply(cmd.field_edit(arg, self.lang), arg)

    def cmd_unset(self, arg: str) -> None:
        field = arg.strip()
        if self.session.mode == "advice":
            field, _ = cmd.ALIASES.get(field.lower(), (field, None))
        if self.session.interview.set(field, None):
            self.stale = True   # recomputed once its question is answered or skipped again
        self.say("understood", f"{field}: —")
        self.autosave()
        if not self.ask() and self.stale:
            self.compute()

    def cmd_load(self, arg: str, audit: bool = False) -> None:
        from ..advisor import read_file
        from ..session import is_setup

        if not arg:
            usage = "/audit FILE.yaml" if audit else "/load FILE.yaml"
            raise ValueError(t("chat.usage", self.lang, usage=usage))
        data, text = read_file(arg, self.lang)
        if audit and not is_setup(data):
            raise ValueError(t("chat.not_a_setup", self.lang, path=arg))
        self.session.load(data, text)
        self.session.source = arg
        self.forget_report()
        self.say("info", t("chat.loaded", self.lang, path=arg))
        self.autosave()
        self.start()

    def cmd_audit(self, arg: str) -> None:
        """`/audit FILE.yaml` audits a setup file; `/audit` alone asks about the setup instead."""
        if arg:
            self.cmd_load(arg, audit=True)
            return
        self.session = Session(self.lang, self.session.models, self.session.gpus)
        self.session.start_audit()
        self.forget_report()
        self.say("info", t("chat.audit_start", self.lang))
        self.autosave()
        self.start()

    def cmd_save(self, arg: str) -> None:
        if not arg:
            raise ValueError(t("chat.usage", self.lang, usage="/save FILE.yaml"))
        path = self.session.save(arg)
        self.say("info", t("chat.saved", self.lang, path=path))

    def cmd_export(self, arg: str) -> None:
        from datetime import date

        from ..export import export_text

        if self.report is None:
            raise ValueError(t("chat.no_report", self.lang))
        if not arg:
            raise ValueError(t("chat.usage", self.lang, usage="/export FILE.md|FILE.json"))
        path = Path(arg).expanduser()
        fmt = "json" if path.suffix.lower() == ".json" else "markdown"
        text = export_text(self.report, self.session.data(), self.session.to_yaml(), fmt, self.lang, date.today())
        path.write_text(text, encoding="utf-8", newline="\n")
        self.say("info", t("chat.exported", self.lang, path=path))

    def cmd_lang(self, arg: str) -> None:
        if arg not in ("en", "de"):
            raise ValueError(t("chat.usage", self.lang, usage="/lang en|de"))
        self.session.set_lang(arg)
        self.relabel()
        self.say("info", t("chat.lang_set", arg))
        self.autosave()
        if self.session.mode == "audit":
            self.start()
        elif not self.ask() or self.report is not None:
            self.compute()

    def cmd_new(self, arg: str) -> None:
        """A new interview; with answers given, only after a yes (the autosave holds them)."""
        if not self.session.data():
            self.new_session(True)
            return
        from .resume import ResumeScreen

        self.app.push_screen(ResumeScreen(self.session.interview.sentence(), self.lang,
                                          question=t("chat.new_confirm", self.lang),
                                          on_typing=False),
                             self.new_session)

    def new_session(self, yes: bool | None) -> None:
        """Start the new interview (`yes`), or keep the answers."""
        if not yes:
            self.say("info", t("chat.new_kept", self.lang))
            self.type_in()
            return
        self.session = Session(self.lang, self.session.models, self.session.gpus)
        self.forget_report()
        self.query_one("#log").remove_children()
        self.type_in()
        self.start()

    def cmd_cost(self, arg: str) -> None:
        self.action_cost()

    def cmd_why(self, arg: str) -> None:
        self.action_why()

    def cmd_explain(self, arg: str) -> None:
        """`/explain RULE-ID`: the rule in words with its source, as the CLI's `explain` (QA 46)."""
        if not arg:
            raise ValueError(t("chat.usage_example", self.lang, usage="/explain RULE-ID",
                               example="/explain m2-pick-at-least-a100"))
        self.say("info", self.app.advisor.explain(arg.split()[0], self.lang))

    def cmd_help(self, arg: str) -> None:
        self.action_help()

    def cmd_quit(self, arg: str) -> None:
        self.app.exit(0)
