"""Computing the answer and putting it on screen: a mixin of `ChatScreen`.

Once the pipeline is loaded, an answer is computed on the UI thread (10-30 ms) and shown by a
worker inside `App.batch_update()` (one layout and one paint for the user's line, the reply and
the answer); its sensitivity lines follow from a thread worker a moment later. Audits, and
answers asked before the pipeline has loaded, are computed in a thread. All of these are
exclusive workers of the group `report`: a newer answer, a new session or a file cancels the
older work, and a result is shown only while its worker is not cancelled.
"""

from __future__ import annotations

import inspect
import time
from functools import partial

from rich.text import Text
from textual.containers import VerticalScroll
from textual.worker import Worker, get_current_worker

from expert.messages import t

from ..widgets import AnswerView, ChangeBubble
from .change_lines import change_lines


def _two_step(advisor, mode: str) -> bool:
    """Whether an advice can come in two steps: the answer first, its sensitivity lines after
    (an advisor whose `advise` takes `sensitivity`; audits come in one)."""
    return mode != "audit" and "sensitivity" in inspect.signature(advisor.advise).parameters


class ReportMixin:
    """`compute` and `show`; uses the screen's `session`, `report`, `say`, `autosave`,
    `show_sentence` and the app's `advisor`."""

    REFINE_DELAY_S = 0.3
    """The refinement of an answer (its sensitivity lines, in a thread) starts this long after the
    answer is shown: started sooner, it shares the interpreter with Textual's layout passes and
    delays the paint by tens of milliseconds."""

    refining = False
    """True from an answer until its refinement (the sensitivity lines) is on screen or dropped."""
    stale = False
    """The answer on screen predates an `/unset`: recompute when the interview is complete again."""
    showing: Worker | None = None
    """The worker showing the answer just computed (the prompt waits for it, so that the user's
    line and the answer reach the screen in one paint)."""
    _change: ChangeBubble | None = None
    """The change line under the answer on screen (updated by the answer's refinement)."""
    _refine_timer = None

    def _stop_refining(self) -> None:
        if self._refine_timer is not None:
            self._refine_timer.stop()
            self._refine_timer = None
        self.refining = False

    def forget_report(self) -> None:
        """A new session or file: drop the answer on screen and any result still under way."""
        self.report, self.showing = None, None
        self._stop_refining()
        self.workers.cancel_group(self, "report")
        self._change = None
        log = self.query_one("#log")
        for view in log.query_children(AnswerView):
            view.add_class("gone")     # removed below, but not at once: never refilled again
        log.remove_children(AnswerView)

    def rejected(self, message: str) -> None:
        """The pipeline refused the input: say why, and undo the edit that caused it."""
        self.say("error", message)
        undo, self._undo = self._undo, None
        if undo is None or self.report is None:
            return
        if self.session.mode == "advice":
            iv = self.session.interview
            iv.answers, iv.done, iv.provisional = undo
        else:
            self.session.setup = undo
        self.show_sentence()
        self.say("info", t("chat.undone", self.lang))
        self.autosave()

    def compute(self) -> None:
        """Advise or audit. Once the pipeline is loaded, the answer (without the sensitivity lines)
        is computed right here, in about 10-30 ms: a worker thread would share the interpreter with
        the screen's own work and take two to three times as long. The rest runs in workers."""
        s, advisor = self.session, self.app.advisor
        data, lang, before = s.data(), s.lang, self.report
        self.stale = False
        self._stop_refining()
        fast = _two_step(advisor, s.mode) and getattr(advisor, "loaded", False)
        if not fast:
            self.run_worker(partial(self._compute_in_thread, data, lang, s.mode, before),
                            thread=True, group="report", exclusive=True, exit_on_error=False)
            return
        from expert.errors import InputError

        self.workers.cancel_group(self, "report")
        try:
            start = time.perf_counter()
            report = advisor.advise(data, lang, sensitivity=False)
            self.last_pipeline_s = time.perf_counter() - start
        except InputError as exc:
            self.rejected(str(exc))
            return
        except Exception as exc:  # noqa: BLE001 - the chat must survive a pipeline bug
            self.say("error", f"{type(exc).__name__}: {exc}")
            return
        self.refining = True
        self.showing = self.run_worker(partial(self._show_then_refine, report, data, lang, before),
                                       group="report", exclusive=True, exit_on_error=False)

    async def _show_then_refine(self, report, data: dict, lang: str, before) -> None:
        worker = get_current_worker()
        try:
            shown = await self.deliver(report, self.bought_for(report), before, worker)
        finally:
            if self.showing is worker:
                self.showing = None
        if shown:  # after the paint: the thread would otherwise slow the painting down
            self._refine_timer = self.set_timer(self.REFINE_DELAY_S,
                                                partial(self._start_refining, data, lang, before))
        elif not worker.is_cancelled:
            self.refining = False  # nothing shown, nothing to refine

    def _start_refining(self, data: dict, lang: str, before) -> None:
        self._refine_timer = None
        self.run_worker(partial(self._refine, data, lang, before), thread=True, group="report",
                        exclusive=True, exit_on_error=False)

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

    def _refine(self, data: dict, lang: str, before) -> None:
        """The full report (with the sensitivity lines), shown quietly over the fast one, unless
        its worker was cancelled by a newer answer meanwhile (a thread worker)."""
        worker = get_current_worker()
        try:
            full = self.app.advisor.advise(data, lang)
        except Exception:  # noqa: BLE001 - the answer is already shown; the lines are optional
            full = None
        if not worker.is_cancelled:
            self.app.call_from_thread(self._refined, full, before, worker)

    async def _refined(self, report, before, worker: Worker) -> None:
        if worker.is_cancelled:
            return
        if report is not None:
            await self.deliver(report, self.bought, before, worker, refinement=True)
        self.refining = False

    def _compute_in_thread(self, data: dict, lang: str, mode: str, before) -> None:
        """Advise or audit `data` (taken on the UI thread when asked) in a thread worker; the
        results come back through `deliver`, which drops them once the worker is cancelled."""
        from expert.errors import InputError

        worker = get_current_worker()
        advisor = self.app.advisor
        two_step = _two_step(advisor, mode)
        call = self.app.call_from_thread
        try:
            start = time.perf_counter()
            if mode == "audit":
                report = advisor.audit(data, lang)
            else:
                report = advisor.advise(data, lang, **({"sensitivity": False} if two_step else {}))
            self.last_pipeline_s = time.perf_counter() - start
        except InputError as exc:
            call(self._if_current, worker, self.rejected, str(exc))
            return
        except Exception as exc:  # noqa: BLE001 - the chat must survive a pipeline bug
            call(self._if_current, worker, self.say, "error", f"{type(exc).__name__}: {exc}")
            return
        bought = self.bought_for(report)
        call(self.deliver, report, bought, before, worker)
        if two_step and not worker.is_cancelled:
            try:
                full = advisor.advise(data, lang)
            except Exception:  # noqa: BLE001 - the answer is already shown; the lines are optional
                return
            call(self.deliver, full, bought, before, worker, True)

    @staticmethod
    def _if_current(worker: Worker, action, *args) -> None:
        if not worker.is_cancelled:
            action(*args)

    async def deliver(self, report, bought, before, worker: Worker, refinement: bool = False) -> bool:
        """Show `report` unless its worker was cancelled (a newer answer, session or file came
        first), in one batch of screen updates; errors in showing it become one line in the chat.
        True when it was shown."""
        if worker.is_cancelled:
            return False
        try:
            with self.app.batch_update():
                await self.show(report, bought, before, refinement)
        except Exception as exc:  # noqa: BLE001 - a display bug must not end the chat
            self.say("error", f"{type(exc).__name__}: {exc}")
            return False
        return True

    @staticmethod
    def _show_start(log: VerticalScroll, answer: AnswerView) -> None:
        """Scroll to the start of a new answer (the recommendation), not its end; an answer whose
        start is already in view stays pinned to the bottom with the log. (Unpinning a log whose
        content is shorter than the screen left it at a negative offset: the findings of a short
        audit were drawn below the visible area.)"""
        if answer.virtual_region.y < log.max_scroll_y:
            log.anchor(False)
            log.scroll_to_widget(answer, top=True, animate=False, immediate=True)
        else:
            log.anchor()

    async def show(self, report, bought=None, before=None, refinement: bool = False) -> None:
        """Show `report`: the first answer is mounted and scrolled to its start; later ones refill
        the same view, move it below the latest bubbles and put the change line under it, right
        above the prompt, where the log stays anchored (one layout, no extra scroll). `before` is
        the report to compare with; a `refinement` of an answer already shown updates its change
        line in place and leaves the view where the reader is."""
        self.report, self.bought = report, bought
        lines = change_lines(before, report, self.lang) if before is not None else []
        old = {f.rule_id for f in before.findings} if before is not None else None
        new_rules = frozenset(f.rule_id for f in report.findings) - old if old is not None else frozenset()
        rec_changed = before is not None and before.recommendation != report.recommendation and (
            report.recommendation is not None)
        log = self.query_one("#log", VerticalScroll)
        shown = [view for view in log.query_children(AnswerView) if not view.has_class("gone")]
        if not shown:
            answer = AnswerView(report, self.lang, changed=rec_changed, new_rules=new_rules,
                                bought=bought)
            await log.mount(answer)
            self.call_after_refresh(self._show_start, log, answer)
        else:
            answer = shown[0]
            change = self._change if refinement and self._change in log.children else None
            if not refinement and log.children[-1] is not answer:
                log.move_child(answer, after=log.children[-1])
            await answer.show(report, self.lang, changed=rec_changed, new_rules=new_rules, bought=bought)
            if change is not None:
                change.update(Text("\n".join(lines)))
            elif lines and not refinement:
                self._change = ChangeBubble(lines)
                await log.mount(self._change)
            if not refinement:
                log.anchor()
        if self._asked_at and not refinement:
            self.last_update_s = time.perf_counter() - self._asked_at
