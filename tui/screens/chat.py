"""The chat screen (Elia's shape): sentence panel, a scrolling log pinned to the bottom, a prompt.

The log is not focusable; the prompt keeps the focus, Tab reaches the rule cards. Every answer goes
through `Interview.answer`; commands through `tui.commands`; reports are computed in a thread
worker and shown as one `AnswerView`, replaced (and the change marked) on every what-if edit.
"""

from __future__ import annotations

import inspect
import time

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Footer, Input

from .. import commands as cmd
from ..session import Session
from ..texts import t
from ..widgets import (AnswerView, ChangeBubble, QuestionBubble, ReplyBubble, SentencePanel,
                       UserBubble)
from ..widgets.cards import Card, choice_title, money
from .chat_commands import CommandsMixin
from .cost import CostScreen
from .help import HelpScreen
from .resume import ResumeScreen


class ChatScreen(CommandsMixin, Screen):
    """The interview, the answer and the what-if edits, in one conversation."""

    BINDINGS = [
        Binding("f1", "help", "Help"),
        Binding("f2", "cost", "Cost"),
        Binding("f3", "why", "Rule cards"),
        Binding("escape", "focus_prompt", "Prompt", show=False),
        Binding("pageup", "scroll(-1)", "Scroll up", show=False),
        Binding("pagedown", "scroll(1)", "Scroll down", show=False),
        Binding("question_mark", "help", "Help", show=False),
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
        """Seconds from the last answer to the updated view (for `benchmarks/tui.py`)."""
        self.last_pipeline_s: float | None = None
        """Seconds of that spent in the pipeline (advise / audit) itself."""
        self._asked_at = 0.0
        self._generation = 0
        """Counts answers asked for; a refinement shows only if no newer answer was asked."""
        self._undo = None

    @property
    def lang(self) -> str:
        return self.session.lang

    def compose(self) -> ComposeResult:
        yield SentencePanel(id="sentence")
        yield VerticalScroll(id="log", can_focus=False)
        prompt = Input(placeholder=t("placeholder", self.lang), id="prompt")
        prompt.cursor_blink = self.cursor_blink
        yield prompt
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#log").anchor()
        # the pipeline loads after the first paint, so it does not delay the first question
        self.set_timer(0.05, self.app.preload)
        self.say("info", t("welcome", self.lang))
        if self._load:
            self.handle(f"/load {self._load}")
        elif self._saved is not None and self._ask_resume:
            probe = Session(self.lang)
            probe.load(*self._saved, complete=False)
            summary = (probe.interview.sentence() if probe.mode == "advice"
                       else f"setup: {probe.setup.get('count', 1)}× {probe.setup.get('gpu')}")
            self.app.push_screen(ResumeScreen(summary, self.lang),
                                 lambda yes: self.restore(self._saved) if yes else self.start())
        elif self._saved is not None:
            self.restore(self._saved)
        else:
            self.start()

    def restore(self, saved: tuple[dict, str]) -> None:
        """Continue the autosaved session: its answers, language and the questions already asked."""
        self.session.load(*saved, complete=False)
        self.query_one("#prompt", Input).placeholder = t("placeholder", self.lang)
        self.say("info", self.session.interview.sentence() if self.session.mode == "advice"
                 else t("audit", self.lang))
        self.start()

    def prefill(self, text: str) -> None:
        """Put `text` into the prompt (command palette entries that need a file name)."""
        prompt = self.query_one("#prompt", Input)
        prompt.value = text
        prompt.cursor_position = len(text)
        prompt.focus()

    def run_command_text(self, text: str) -> None:
        """Run a command line as if typed (command palette)."""
        self.handle(text)

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
        q = self.session.interview.next_question()
        self.query_one(SentencePanel).show(self.session.interview.sentence(), self.lang)
        if q is not None:
            self.post(QuestionBubble(q.text, q.example, self.lang))
        return q is not None

    def start(self) -> None:
        """Ask the first open question, or compute the answer when nothing is open."""
        self.query_one(SentencePanel).show(self.session.interview.sentence(), self.lang)
        if self.session.mode == "audit":
            setup = self.session.setup
            self.query_one(SentencePanel).show(
                f"{setup.get('count', 1)}× {setup.get('gpu')} ({self.session.source or 'setup'})",
                self.lang, label=t("audit", self.lang))
            self.compute()
        elif not self.ask():
            self.compute()

    # -- input ---------------------------------------------------------------------------------

    @on(Input.Submitted, "#prompt")
    def submitted(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        event.input.clear()
        if text:
            self.handle(text)

    def handle(self, text: str) -> None:
        """One line from the prompt: a command or an answer."""
        self._asked_at = time.perf_counter()
        self.post(UserBubble(text))
        command = cmd.parse_command(text)
        if command is not None:
            self.run_command(command)
        elif self.session.mode == "audit":
            self.say("info", "audit: /set FIELD VALUE, /save, /export, /new")
        else:
            self.answer(text)

    def answer(self, text: str) -> None:
        """Give `text` to the interview; fall back to a keyword what-if after the interview."""
        iv = self.session.interview
        reply = iv.answer(text)
        if not reply.ok and self.report is not None:
            fields = cmd.what_if(text, self.lang)
            if fields:
                self.apply(fields, text)
                return
        if reply.kind == "unclear":
            self.say("unclear", reply.reason or "", reply.example)
            self.ask()
            return
        if reply.kind == "help":
            self.say("help", reply.help or "")
            return
        kind = "skip" if reply.kind == "skip" else "understood"
        self.say(kind, reply.understood + (f" ({reply.note})" if reply.note else ""))
        self.autosave()
        more = self.ask()
        if not more and self.report is None:
            self.say("info", t("complete", self.lang))
        if (not more or self.report is not None) and (reply.changed or self.report is None):
            self.compute()

    def apply(self, fields: dict, said: str = "") -> None:
        """A what-if edit of workload fields: set them, say so, recompute."""
        import copy

        from expert.interview import describe

        iv = self.session.interview
        self._undo = (copy.deepcopy(iv.answers), set(iv.done), set(iv.provisional))
        changed: dict = {}
        for name, value in fields.items():
            changed.update(self.session.interview.set(name, value))
        self.say("understood", describe(fields, self.lang) or said)
        self.autosave()
        self.ask()
        if changed and (self.report is not None or self.session.complete):
            self.compute()

    # -- actions -------------------------------------------------------------------------------

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen())

    def action_cost(self) -> None:
        if self.report is None or self.report.recommendation is None:
            self.say("info", t("no_report", self.lang))
        else:
            self.app.push_screen(CostScreen(self.report, self.lang, self.bought))

    def action_why(self) -> None:
        cards = list(self.query(Card))
        opened = any(c.collapsed for c in cards)
        for card in cards:
            card.collapsed = not opened

    def action_focus_prompt(self) -> None:
        self.query_one("#prompt").focus()

    def action_scroll(self, direction: int) -> None:
        log = self.query_one("#log", VerticalScroll)
        log.scroll_page_down() if direction > 0 else log.scroll_page_up()

    # -- the report ----------------------------------------------------------------------------

    def rejected(self, message: str) -> None:
        """The pipeline refused the input: say why, and undo the what-if edit that caused it."""
        self.say("error", message)
        undo, self._undo = self._undo, None
        if undo is not None and self.report is not None and self.session.mode == "advice":
            iv = self.session.interview
            iv.answers, iv.done, iv.provisional = undo
            self.query_one(SentencePanel).show(iv.sentence(), self.lang)
            self.say("info", t("undone", self.lang))
            self.autosave()

    def autosave(self) -> None:
        """Save the answers so far; a failing disk never stops the chat."""
        from ..session import autosave_path

        try:
            self.session.save(autosave_path(), meta=True)
        except OSError:
            pass

    def compute(self) -> None:
        """Advise or audit. Once the pipeline is loaded, the answer (without the sensitivity lines)
        is computed right here, in about 10-30 ms: a worker thread would share the interpreter with
        the screen's own work and take two to three times as long. The rest runs in a worker."""
        s = self.session
        advisor = self.app.advisor
        fast = (s.mode != "audit" and getattr(advisor, "loaded", False)
                and "sensitivity" in inspect.signature(advisor.advise).parameters)
        if not fast:
            self.compute_in_thread()
            return
        from expert.errors import InputError

        try:
            data, lang = s.data(), s.lang
            start = time.perf_counter()
            report = advisor.advise(data, lang, sensitivity=False)
            self.last_pipeline_s = time.perf_counter() - start
        except InputError as exc:
            self.rejected(str(exc))
            return
        except Exception as exc:  # noqa: BLE001 - the chat must survive a pipeline bug
            self.say("error", f"{type(exc).__name__}: {exc}")
            return
        before = self.report
        self._generation += 1
        generation = self._generation

        async def show_then_refine() -> None:
            await self.show(report, self.bought_for(report))
            # after the answer is painted: the worker would otherwise slow the painting down
            self.set_timer(0.05, lambda: self.refine(data, lang, before, generation))

        self.run_worker(show_then_refine(), group="show", exclusive=True)

    def bought_for(self, report):
        """Buying the recommended GPUs, for the cost comparison (None without a price)."""
        advisor, rec = self.app.advisor, report.recommendation
        if rec is None or not hasattr(advisor, "purchase"):
            return None
        got = advisor.purchase(rec.gpu, rec.count, rec.horizon_months)
        if got is None:
            return None
        from ..costs import Line

        return Line(f"{rec.count}× {rec.gpu}", *got)

    @work(thread=True, exclusive=True, group="report")
    def refine(self, data: dict, lang: str, before, generation: int) -> None:
        """The full report (with the sensitivity lines), shown quietly over the fast one, unless a
        newer answer has been asked for meanwhile."""
        if generation != self._generation:
            return
        try:
            full = self.app.advisor.advise(data, lang)
        except Exception:  # noqa: BLE001 - the answer is already shown; the extra lines are optional
            return
        self.app.call_from_thread(self._show_if_current, full, before, generation)

    async def _show_if_current(self, report, before, generation: int) -> None:
        if generation == self._generation:
            await self.show(report, self.bought, before, False)

    @work(thread=True, exclusive=True, group="report")
    def compute_in_thread(self) -> None:
        """Advise (or audit) in a thread; the result comes back through `show`."""
        from expert.errors import InputError

        self._generation += 1

        s = self.session
        advisor = self.app.advisor
        # advice in two steps: the answer at once, then the sensitivity lines (half the search time)
        two_step = s.mode != "audit" and "sensitivity" in inspect.signature(advisor.advise).parameters
        try:
            data, lang = s.data(), s.lang
            start = time.perf_counter()
            if s.mode == "audit":
                report = advisor.audit(data, lang)
            elif two_step:
                report = advisor.advise(data, lang, sensitivity=False)
            else:
                report = advisor.advise(data, lang)
            self.last_pipeline_s = time.perf_counter() - start
        except InputError as exc:
            self.app.call_from_thread(self.rejected, str(exc))
            return
        except Exception as exc:  # noqa: BLE001 - the chat must survive a pipeline bug
            self.app.call_from_thread(self.say, "error", f"{type(exc).__name__}: {exc}")
            return
        bought = None
        rec = report.recommendation
        if rec is not None and hasattr(advisor, "purchase"):
            got = advisor.purchase(rec.gpu, rec.count, rec.horizon_months)
            if got is not None:
                from ..costs import Line

                bought = Line(f"{rec.count}× {rec.gpu}", *got)
        before = self.report
        self.app.call_from_thread(self.show, report, bought)
        if two_step:
            from textual.worker import get_current_worker

            try:
                full = advisor.advise(data, lang)
            except Exception:  # noqa: BLE001 - the answer is already shown; the extra lines are optional
                return
            if not get_current_worker().is_cancelled:  # a newer answer supersedes this one
                self.app.call_from_thread(self.show, full, bought, before, False)

    async def show(self, report, bought=None, before=..., measure: bool = True) -> None:
        """Replace the answer in the log; mark what changed since the previous report (`before`:
        the report to compare with, when a second step refines an answer already shown)."""
        if before is ...:
            before = self.report
        self.report, self.bought = report, bought
        lines = self.changes(before, report) if before is not None else []
        old = {f.rule_id for f in before.findings} if before is not None else None
        new_rules = frozenset(f.rule_id for f in report.findings) - old if old is not None else frozenset()
        rec_changed = before is not None and before.recommendation != report.recommendation and (
            report.recommendation is not None)
        log = self.query_one("#log", VerticalScroll)
        await log.remove_children(AnswerView)
        top = ChangeBubble(lines) if lines else None
        answer = AnswerView(report, self.lang, changed=rec_changed, new_rules=new_rules, bought=bought)
        log.anchor(False)
        await log.mount_all([w for w in (top, answer) if w is not None])
        first = top or answer
        # show the start of the new answer (the change line, the recommendation), not its end
        self.call_after_refresh(lambda: log.scroll_to_widget(first, top=True, animate=False,
                                                             immediate=True))
        if self._asked_at and measure:
            self.last_update_s = time.perf_counter() - self._asked_at

    def changes(self, before, after) -> list[str]:
        """`changed: 1× l40s → 1× h100-nvl` (+ cost), then rules that came and went."""
        lines: list[str] = []
        a, b = before.recommendation, after.recommendation
        if after.kind == "audit" and a is None and b is None:
            return self.rule_changes(before, after) or [t("changed", self.lang) + ": —"]
        name = lambda c: choice_title(c) if c else t("nothing_fits", self.lang)  # noqa: E731
        if name(a) != name(b):
            lines.append(f"{t('changed', self.lang)}: {name(a)} → {name(b)}")
        else:
            lines.append(t("unchanged", self.lang) + f": {name(b)}")
        if a and b and round(a.monthly_cost_chf) != round(b.monthly_cost_chf):
            lines.append(f"  {money(a.monthly_cost_chf)} → {money(b.monthly_cost_chf)} "
                         f"{t('per_month', self.lang)}")
        return lines + self.rule_changes(before, after)

    def rule_changes(self, before, after) -> list[str]:
        """`+ new: title (rule)` and `− no longer: title (rule)`, in rule-id order."""
        was = {f.rule_id: f.title for f in before.findings}
        now = {f.rule_id: f.title for f in after.findings}
        lines = [f"  + {t('new_rules', self.lang)}: {now[r]}" for r in sorted(now.keys() - was.keys())]
        lines += [f"  − {t('gone_rules', self.lang)}: {was[r]}" for r in sorted(was.keys() - now.keys())]
        return lines
