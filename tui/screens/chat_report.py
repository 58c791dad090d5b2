"""Computing the answer and putting it on screen: a mixin of `ChatScreen`.

Once the pipeline is loaded, an answer is computed on the UI thread (10-30 ms) and shown at once;
its sensitivity lines follow from a thread worker a moment later. Between Enter and the paint the
screen is held (one layout and one paint for the user's line, the reply and the answer, instead
of one each) and the garbage collector is paused (a full collection of a running Textual app
takes 50-80 ms; it runs after the paint instead).
"""

from __future__ import annotations

import gc
import inspect
import time

from rich.text import Text
from textual import work
from textual.containers import VerticalScroll

from expert.numbers import chf, dec

from ..texts import t
from ..widgets import AnswerView, ChangeBubble, SentencePanel
from ..widgets.recommendation import choice_title


class ReportMixin:
    """`compute`, `show` and the change lines; uses the screen's `session`, `report`, `say`,
    `autosave` and the app's `advisor`."""

    REFINE_DELAY_S = 0.3
    """The refinement of an answer (its sensitivity lines, in a thread) starts this long after the
    answer is shown: started sooner, it shares the interpreter with Textual's layout passes and
    delays the paint by tens of milliseconds."""

    HOLD_LIMIT_S = 1.0
    """A held screen is released after this long whatever happens (it can never stay frozen)."""

    _held = False
    refining = False
    """True from an answer until its refinement (the sensitivity lines) is on screen or dropped."""
    _change: ChangeBubble | None = None
    """The change line under the answer on screen (updated by the answer's refinement)."""

    def hold_screen(self) -> None:
        """Hold painting and garbage collection until `release_screen` (idempotent)."""
        if self._held:
            return
        self._held = True
        self.app._begin_batch()  # the public `batch_update` is a `with` block; this spans a worker
        gc.disable()
        self.set_timer(self.HOLD_LIMIT_S, self.release_screen)

    def forget_report(self) -> None:
        """A new session or file: drop the answer on screen and any refinement still under way."""
        self.report = None
        self._generation += 1
        self.refining = False
        self._change = None
        self.query_one("#log").remove_children(AnswerView)

    def release_screen(self) -> None:
        """Paint what changed; collect garbage once the paint is done."""
        if not self._held:
            return
        self._held = False
        self.app._end_batch()
        self.call_after_refresh(gc.enable)

    def rejected(self, message: str) -> None:
        """The pipeline refused the input: say why, and undo the what-if edit that caused it."""
        self.say("error", message)
        undo, self._undo = self._undo, None
        if undo is not None and self.report is not None and self.session.mode == "advice":
            iv = self.session.interview
            iv.answers, iv.done, iv.provisional = undo
            self.show_sentence()
            self.say("info", t("undone", self.lang))
            self.autosave()

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

        self.hold_screen()
        try:
            data, lang = s.data(), s.lang
            start = time.perf_counter()
            report = advisor.advise(data, lang, sensitivity=False)
            self.last_pipeline_s = time.perf_counter() - start
        except InputError as exc:
            self.release_screen()
            self.rejected(str(exc))
            return
        except Exception as exc:  # noqa: BLE001 - the chat must survive a pipeline bug
            self.release_screen()
            self.say("error", f"{type(exc).__name__}: {exc}")
            return
        before = self.report
        self._generation += 1
        generation = self._generation

        async def show_then_refine() -> None:
            try:
                if generation != self._generation:  # a new session or file came first
                    return
                await self.show(report, self.bought_for(report))
            finally:
                self.release_screen()
            # after the answer is painted: the worker would otherwise slow the painting down
            self.set_timer(self.REFINE_DELAY_S, lambda: self.refine(data, lang, before, generation))

        self.refining = True
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
        full = None
        if generation == self._generation:
            try:
                full = self.app.advisor.advise(data, lang)
            except Exception:  # noqa: BLE001 - the answer is already shown; the lines are optional
                pass
        self.app.call_from_thread(self._show_if_current, full, before, generation)

    async def _show_if_current(self, report, before, generation: int) -> None:
        if generation != self._generation:
            return
        if report is not None:
            await self.show(report, self.bought, before, False)
        self.refining = False

    @work(thread=True, exclusive=True, group="report")
    def compute_in_thread(self) -> None:
        """Advise (or audit) in a thread; the result comes back through `show`."""
        from expert.errors import InputError

        self._generation += 1
        self.refining = False

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
        """Show `report`: the first answer is mounted and scrolled to its start; later ones refill
        the same view, move it below the latest bubbles and put the change line under it, right
        above the prompt, where the log stays anchored (one layout, no extra scroll). `before` is
        the report to compare with when a second step refines an answer already shown."""
        refining = before is not ...
        if before is ...:
            before = self.report
        self.report, self.bought = report, bought
        lines = self.changes(before, report) if before is not None else []
        old = {f.rule_id for f in before.findings} if before is not None else None
        new_rules = frozenset(f.rule_id for f in report.findings) - old if old is not None else frozenset()
        rec_changed = before is not None and before.recommendation != report.recommendation and (
            report.recommendation is not None)
        log = self.query_one("#log", VerticalScroll)
        shown = log.query_children(AnswerView)
        if not shown:
            answer = AnswerView(report, self.lang, changed=rec_changed, new_rules=new_rules,
                                bought=bought)
            log.anchor(False)
            await log.mount(answer)
            # the start of the answer (the recommendation), not its end
            self.call_after_refresh(lambda: log.scroll_to_widget(answer, top=True, animate=False,
                                                                 immediate=True))
        else:
            answer = shown.first()
            change = self._change if refining and self._change in log.children else None
            if change is None and log.children[-1] is not answer:
                log.move_child(answer, after=log.children[-1])
            await answer.show(report, self.lang, changed=rec_changed, new_rules=new_rules, bought=bought)
            if change is not None:   # the refinement of this answer: same place, final numbers
                change.update(Text("\n".join(lines)))
            elif lines and not refining:
                self._change = ChangeBubble(lines)
                await log.mount(self._change)
            if not refining:         # a refinement leaves the view where the reader is
                log.anchor()
        if self._asked_at and measure:
            self.last_update_s = time.perf_counter() - self._asked_at

    def changes(self, before, after) -> list[str]:
        """`changed: 1× l40s → 1× h100-nvl`, the cost change, what is recommended now (the line sits
        below the answer, where the log is anchored), then rules that came and went."""
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
            lines.append(f"  {chf(a.monthly_cost_chf)} → {chf(b.monthly_cost_chf)} "
                         f"{t('per_month', self.lang)}")
        if b is not None:
            where = f"package {b.package}" if b.package else (b.provider or b.source)
            p95 = f", p95 {dec(b.latency_p95_s, self.lang, 2)} s" if b.latency_p95_s is not None else ""
            lines.append(f"  {t('now', self.lang)}: {choice_title(b)} ({where}{', ' + b.country if b.country else ''}), "
                         f"{b.precision}{p95}")
        return lines + self.rule_changes(before, after)

    def rule_changes(self, before, after) -> list[str]:
        """`+ new: title (rule)` and `− no longer: title (rule)`, in rule-id order."""
        was = {f.rule_id: f.title for f in before.findings}
        now = {f.rule_id: f.title for f in after.findings}
        lines = [f"  + {t('new_rules', self.lang)}: {now[r]}" for r in sorted(now.keys() - was.keys())]
        lines += [f"  − {t('gone_rules', self.lang)}: {was[r]}" for r in sorted(was.keys() - now.keys())]
        return lines
