"""The chat screen (Elia's shape): sentence panel, a scrolling log pinned to the bottom, a prompt.

The log is not focusable; the prompt keeps the focus, Tab reaches the rule cards. Every answer goes
through `Interview.answer`; commands through `tui.commands` (`chat_commands`); the report is
computed and shown by `chat_report`, in one `AnswerView` refilled (and the change marked) on every
what-if edit.
"""

from __future__ import annotations

import asyncio
import time

from textual import events, on
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.message import Message
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Footer, Input

from expert.messages import t

from .. import commands as cmd
from ..bindings import LangScreen, lang_bindings, screen_bindings
from ..session import Session, saved_lang
from ..widgets import AnswerView, QuestionBubble, ReplyBubble, SentencePanel, UserBubble
from ..widgets.cards import Card
from ..widgets.prompt import Prompt
from .chat_answers import AnswersMixin
from .chat_commands import CommandsMixin
from .chat_report import ReportMixin
from .cost import CostScreen
from .help import HelpScreen
from .resume import ResumeScreen


class ChatScreen(LangScreen, AnswersMixin, CommandsMixin, ReportMixin, Screen):
    """The interview, the answer and the what-if edits, in one conversation."""

    class Typed(Message):
        """A line to run as if typed at the prompt (the command palette posts it)."""

        def __init__(self, text: str) -> None:
            super().__init__()
            self.text = text

    BINDINGS = [
        # one binding per language; `LangBindings.check_action` keeps those of the session's language
        *lang_bindings("f1", "help", "chat.key.help"),
        *lang_bindings("f2", "cost", "chat.key.cost"),
        *lang_bindings("f3", "why", "chat.key.why"),
        *lang_bindings("escape", "focus_prompt", "key.focus_prompt", show=False),
        *lang_bindings("pageup", "scroll(-1)", "key.scroll_up", show=False),
        *lang_bindings("pagedown", "scroll(1)", "key.scroll_down", show=False),
        *lang_bindings("question_mark", "help", "key.help", show=False),
        *screen_bindings(),
    ]

    def __init__(self, session: Session, cursor_blink: bool = True, load: str | None = None,
                 saved: tuple[dict, str] | None = None, ask_resume: bool = True) -> None:
        """`load`: a file to start from; `saved`: an autosave (mapping, text) to offer (or, with
        `ask_resume=False`, to restore at once)."""
        super().__init__()
        self.session = session
        self.cursor_blink = cursor_blink
        self._load, self._saved, self._ask_resume = load, saved, ask_resume
        self.report = None
        """The report on screen (None before the interview is complete)."""
        self.bought = None
        """A purchase of the recommended GPUs at catalog price (`tui.costs.Line`), for the chart."""
        self.last_update_s: float | None = None
        """Seconds from the last answer (Enter) to the answer view holding the new report (for
        `benchmarks/tui.py`, which adds the time to the screen's next paint)."""
        self.last_pipeline_s: float | None = None
        """Seconds of that spent in the pipeline (advise / audit) itself."""
        self._asked_at = 0.0
        """`perf_counter()` at the last Enter."""
        self._undo = None
        self._typing = False   # keys went to the prompt from elsewhere: a burst's spaces follow them

    @property
    def lang(self) -> str:
        return self.session.lang

    def compose(self) -> ComposeResult:
        yield SentencePanel(id="sentence")
        yield VerticalScroll(id="log", can_focus=False)
        prompt = Prompt(placeholder=t("chat.placeholder", self.lang), id="prompt")
        prompt.cursor_blink = self.cursor_blink
        prompt.select_on_focus = False   # focus coming back must not select (and so lose) the text
        yield prompt
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#log").anchor()
        # the pipeline loads after the first paint, so it does not delay the first question
        self.set_timer(0.05, self.app.preload)
        if self._saved is not None and not self.session.lang_fixed:   # no --lang: the session's own
            lang = saved_lang(self._saved[1])
            if lang and lang != self.lang:
                self.session.set_lang(lang)
                self.relabel()
        self.say("info", t("chat.welcome", self.lang))
        if self._load:
            self.handle(f"/load {self._load}")
        elif self._saved is not None and self._ask_resume:
            probe = Session(self.lang)
            try:
                probe.load(*self._saved, complete=False)
            except Exception:  # noqa: BLE001 - an autosave this version cannot read: start afresh
                self.start()
                return
            probe.interview.lang = self.lang        # the saved answers, in the chat's language
            summary = probe.interview.sentence()
            self.app.push_screen(ResumeScreen(summary, self.lang),
                                 lambda yes: self.restore(self._saved) if yes else self.start())
        elif self._saved is not None:
            self.restore(self._saved)
        else:
            self.start()

    def restore(self, saved: tuple[dict, str]) -> None:
        """Continue the autosaved session: its answers, language and the questions already asked
        (an autosave that cannot be read is left alone and a new interview starts)."""
        try:
            self.session.load(*saved, complete=False)
        except Exception:  # noqa: BLE001 - one bad file must not keep the chat from starting
            self.session = Session(self.lang, self.session.models, self.session.gpus)
        self.relabel()
        self.say("info", self.session.interview.sentence())
        self.start()

    def prefill(self, text: str) -> None:
        """Put `text` into the prompt (command palette entries that need a file name)."""
        prompt = self.query_one("#prompt", Input)
        prompt.value = text
        prompt.cursor_position = len(text)
        prompt.focus()

    @on(Typed)
    def typed(self, message: Typed) -> None:
        """Run a command line as if typed (command palette)."""
        self.handle(message.text)

    # -- the log -----------------------------------------------------------------------------

    MAX_LOG_BUBBLES = 24
    """Older chat bubbles leave the screen (every answer is in the session file): a long session
    must not make each update slower, as every bubble is laid out again on each change."""

    def post(self, *widgets: Widget, pin: bool = True) -> None:
        """Append to the log; `pin` keeps it scrolled to the bottom as the widgets arrive."""
        log = self.query_one("#log", VerticalScroll)
        if pin:
            log.anchor()
        bubbles = [child for child in log.children if not isinstance(child, AnswerView)]
        excess = len(bubbles) + len(widgets) - self.MAX_LOG_BUBBLES
        if excess > 0:
            log.remove_children(bubbles[:excess])
        log.mount_all(widgets)

    def say(self, kind: str, text: str, example: str | None = None) -> None:
        self.post(ReplyBubble(kind, text, example, self.lang))

    def ask(self) -> bool:
        """Post the next question; False when the interview is complete."""
        iv = self.session.interview
        q = iv.next_question()
        self.show_sentence()
        if q is not None:
            progress = iv.progress() if hasattr(iv, "progress") else None
            self.post(QuestionBubble(q.text, q.example, self.lang, progress))
        return q is not None

    def relabel(self) -> None:
        """Put the prompt's placeholder and the key bar in the session's language."""
        self.query_one("#prompt", Input).placeholder = t("chat.placeholder", self.lang)
        self.app.title = t("chat.title", self.lang)
        self.refresh_bindings()

    def show_sentence(self) -> None:
        """The clarification sentence (advice) or the setup line (audit) in the top panel."""
        audit = self.session.mode == "audit"
        label = f"{t('chat.audit', self.lang)}{f' ({self.session.source})' if self.session.source else ''}"
        self.query_one(SentencePanel).show(self.session.interview.sentence(), self.lang,
                                           label=label if audit else None)

    def start(self) -> None:
        """Ask the first open question, or compute the answer when nothing is open."""
        if not self.ask():
            self.compute()

    # -- input ---------------------------------------------------------------------------------

    HOLD_LIMIT_S = 1.0
    """The prompt waits at most this long for the answer to be shown before the screen paints."""

    @on(Input.Submitted, "#prompt")
    async def submitted(self, event: Input.Submitted) -> None:
        """Run the line; the user's line, the reply and the answer are painted once, together."""
        text = event.value.strip()
        event.input.clear()
        if not text:
            return
        with self.app.batch_update():
            self.showing = None
            self.handle(text)
            showing, self.showing = self.showing, None
            if showing is not None:
                try:
                    await asyncio.wait_for(showing.wait(), self.HOLD_LIMIT_S)
                except Exception:  # noqa: BLE001 - cancelled, failed or slow: paint what there is
                    pass

    def handle(self, text: str) -> None:
        """One line from the prompt: a command or an answer."""
        self._asked_at = time.perf_counter()
        self.know_models()
        self.post(UserBubble(text, self.lang))
        command = cmd.parse_command(text)
        if command is not None:
            self.run_command(command)
        else:
            self.answer(text)

    # -- actions -------------------------------------------------------------------------------

    def type_in(self, typed: str | None = None) -> None:
        """Back to the prompt, with `typed` (a key pressed or text pasted elsewhere) added at its cursor."""
        prompt = self.query_one("#prompt", Input)
        prompt.focus()
        if typed:
            self._typing = True
            prompt.insert_text_at_cursor(typed)

    async def submit_prompt(self) -> None:
        """Send what the prompt holds, as Enter does (text typed at the resume dialog + Enter)."""
        await self.query_one("#prompt", Input).action_submit()

    def on_key(self, event: events.Key) -> None:
        """A printable key pressed while a rule card has focus goes to the prompt (Space and `?`
        stay the card's: open/close, help — except inside a burst of typing that already went to
        the prompt: keys queued before the focus moved keep their spaces)."""
        prompt = self.query_one("#prompt", Input)
        if (self.focused is not prompt and event.is_printable and event.character
                and (event.character not in " ?" or self._typing)):
            event.stop()
            event.prevent_default()
            self.type_in(event.character)

    def on_paste(self, event: events.Paste) -> None:
        """A paste while a rule card has focus lands whole in the prompt."""
        if self.focused is not self.query_one("#prompt", Input) and event.text:
            event.stop()
            self.type_in(event.text)

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        """The user moved to another widget (Tab, a click): Space there is that widget's again."""
        if event.widget is not self.query_one("#prompt", Input):
            self._typing = False

    def action_help(self, lang: str | None = None) -> None:
        self.app.push_screen(HelpScreen(self.lang), self.type_in)

    def action_cost(self, lang: str | None = None) -> None:
        if self.report is None or self.report.recommendation is None:
            self.say("info", t("chat.no_report", self.lang))
        else:
            self.app.push_screen(CostScreen(self.report, self.lang, self.bought), self.type_in)

    def action_why(self, lang: str | None = None) -> None:
        cards = list(self.query(Card))
        opened = any(c.collapsed for c in cards)
        for card in cards:
            card.collapsed = not opened

    def action_focus_prompt(self, lang: str | None = None) -> None:
        self.query_one("#prompt").focus()

    def action_scroll(self, direction: int, lang: str | None = None) -> None:
        log = self.query_one("#log", VerticalScroll)
        log.scroll_page_down() if direction > 0 else log.scroll_page_up()

    def autosave(self) -> None:
        """Save the answers so far; a failing disk never stops the chat."""
        from ..session import autosave_path

        try:
            self.session.save(autosave_path(), meta=True)
        except OSError:
            pass
