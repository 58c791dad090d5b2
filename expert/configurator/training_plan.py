"""Where a fine-tuning run's GPUs come from (issue 12, point 2), cheapest first, all three shown:

1. `serving-idle`: the serving GPUs themselves in their idle hours (nights; `idle_hours_per_day`,
   default 8). The run must fit their memory (training share, `ft_job.TRAIN_MEMORY_SHARE`) and their
   server's RAM, and finish within half the period between runs using only idle hours (it checkpoints
   and resumes each night). Extra cost 0: 000 T1 already prices the serving GPUs 24/7 (energy
   included); the nights of degraded service are a cost line of their own and the nights are taken
   only when they save more than a stated minimum (`idle_nights.py`).
2. `rented-per-run`: GPUs rented for the run's hours only, from offers with a published hourly price
   whose hosting the workload admits. Billed hours = run + setup (`SETUP_HOURS`) rounded up to the
   provider's billing granularity (`knowledge/training-billing.yaml`); multi-node runs pay a fabric
   share. Energy is in the hourly price. A run with CPU offload skips an offer whose instance RAM
   (`offers.yaml` `host_ram`, per GPU × the node's GPUs) is below its host RAM; unknown RAM is said.
3. `dedicated`: GPUs bought or rented monthly for training only (the workload's own sources), priced
   like any configuration (000 T1, `objective.gpu_cost`), plus the fabric for more than one node. They
   are held for the whole period, so their cost grows with their count, not with the run's hours: the
   cheapest layout that finishes each run within half the period is taken (`_dedicated`), CPU offload
   included, where option 2 takes the fewest GPU-hours.

Team time (000 M2) is a separate line and opt-in (`fine_tuning.team_waits`): the attended hours the
team waits for each run (`attended_hours`), × `team_hourly_rate_chf`; a rate of 0 drops it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from expert.catalog.billing import training_billing
from expert.catalog.bom import m3_ram_gb
from expert.catalog.models import LlmModel
from expert.configurator.candidates import Source, admissible_sources, hosting_allowed, location_must_be_known
from expert.configurator.idle_nights import nights_per_run, price_nights, worth_it
from expert.configurator.keys import inputs
from expert.configurator.objective import gpu_cost
from expert.messages import t
from expert.sizing.constants import Assumptions, ranged
from expert.sizing.ft_job import (FABRIC_CHF_PER_GPU, FABRIC_RENT_SHARE, GPUS_PER_NODE, LAYOUTS, JobLayout,
                                  layout_on, plan_job)
from expert.sizing.training import ATTENDED_PER_DAY, attended_hours  # noqa: F401 (re-exported)

SETUP_HOURS = ranged(0.25, 1.0, "h per run", "own estimate: provisioning, image pull, model download and the "
                     "final checkpoint upload of a rented run", value=0.5)
PERIOD_SHARE = 0.5  # a run must finish within half the period between runs (a retry still fits)
HOURS_PER_YEAR = 8760.0
KINDS = ("serving-idle", "rented-per-run", "dedicated")


def billed_hours(hours: float, provider: str | None, rules: dict) -> tuple[float, dict]:
    """Hours billed for a run of `hours` (setup included) under the provider's granularity (`rules`:
    the billing rules kept with the catalog, `catalog.billing.training_billing`)."""
    rule = rules.get(provider or "", rules["default"])
    seconds = (hours + SETUP_HOURS.value) * 3600
    g = rule["granularity_s"]
    billed = max(rule["minimum_s"], math.ceil(seconds / g - 1e-9) * g)
    return billed / 3600, rule


@dataclass
class TrainingOption:
    """One way to get the run's GPUs, with its cost per run and over the horizon."""

    kind: str
    fits: bool
    gpu: str | None = None
    gpus: int = 0
    nodes: int = 0
    sharding: str | None = None
    memory_per_gpu_gb: float | None = None
    host_ram_gb: float = 0.0                 # optimizer state offloaded to host RAM, per node
    server_ram_gb: float | None = None       # the serving server's RAM by 000 M3 (4 × VRAM), serving-idle only
    hours_per_run: float | None = None
    elapsed_hours_per_run: float | None = None
    billed_hours_per_run: float | None = None
    cost_per_run_chf: float = 0.0
    cost_horizon_chf: float = 0.0
    team_horizon_chf: float = 0.0
    offer: str | None = None
    provider: str | None = None
    billing: str | None = None
    interconnect: str | None = None
    reason: str | None = None
    reason_de: str | None = None
    instance_ram_gb: float | None = None     # rented: the instance's host RAM per node (None: unknown)
    # serving-idle (issue 33, `idle_nights.py`): the nights of degraded service and what they cost
    degraded_nights_per_run: int | None = None
    degraded_nights_per_month: float | None = None
    degraded_hours_per_run: float | None = None
    degraded_chf_per_run: float | None = None
    degraded_horizon_chf: float = 0.0
    saving_per_run_chf: float | None = None      # against `saving_against`, after the degraded service
    min_saving_per_run_chf: float | None = None
    saving_against: str | None = None
    declined: bool = False                       # fits, but saves less than the minimum
    server_ram_stated: bool = False              # server_ram_gb is an audited setup's own `ram_gb`, not 000 M3's

    @property
    def total(self) -> float:
        return self.cost_horizon_chf + self.team_horizon_chf


@inputs
class TuningJob:
    """What a run's layouts read besides the GPU and its count (`ft_job.layout_on`, `plan_job`): the
    model, the method, the tokens, the epochs and the assumptions."""

    model: LlmModel
    method: str
    tokens: float
    epochs: float
    a: Assumptions


class TrainingPlanner:
    """The sourcing options of one workload's runs (method, tokens and epochs fixed)."""

    def __init__(self, w, model, tuning, catalog, a, sources: list[Source], tokens: float,
                 caches: dict | None = None):
        self.w, self.model, self.t, self.catalog, self.a = w, model, tuning, catalog, a
        # the job's layouts, shared by the planners of one catalog that agree on `TuningJob`
        self.layouts = ({} if caches is None else
                        caches.setdefault(TuningJob(model, tuning.method, tokens, tuning.epochs, a), {}))
        self.tokens, self.sources = tokens, sources
        self.runs = tuning.runs_per_year * w.horizon_months / 12
        self.limit_h = PERIOD_SHARE * HOURS_PER_YEAR / max(1, tuning.runs_per_year)
        self._external: list[TrainingOption] | None = None
        self._best: TrainingOption | None | bool = False  # `best_external`, False before the first call

    def layout_on(self, gpu, count: int) -> JobLayout:
        """`ft_job.layout_on` for this run on `count` GPUs of `gpu` (kept in `layouts`: the idle option and an
        audit's plan read the same one)."""
        key = ("on", gpu.id, count)
        lay = self.layouts.get(key)
        if lay is None:
            lay = self.layouts[key] = layout_on(self.model, gpu, self.t.method, count, self.tokens, self.t.epochs,
                                                self.a)
        return lay

    def _team(self, elapsed: float) -> float:
        if not getattr(self.t, "team_waits", False) or self.w.team_hourly_rate_chf <= 0:
            return 0.0
        return attended_hours(elapsed) * self.w.team_hourly_rate_chf * self.runs

    def idle(self, gpu, count: int, gpu_hour_chf: float | None = None,
             server_ram_gb: float | None = None) -> TrainingOption:
        """Option 1 on `count` serving GPUs of this kind; `gpu_hour_chf`: the serving configuration's own cost
        per GPU-hour, which prices the nights of degraded service (`idle_nights.py`); `server_ram_gb`: the
        server's RAM where an audited setup states it (else 000 M3's rule)."""
        lay = self.layout_on(gpu, count)
        per_day = getattr(self.t, "idle_hours_per_day", 8.0)
        nights = nights_per_run(lay.hours, per_day) if per_day > 0 else math.inf
        elapsed = lay.hours if nights <= 1 else nights * 24.0
        opt = self._from_layout("serving-idle", lay, elapsed)
        # the serving server's RAM: 000 M3's rule (4 × VRAM), as the catalog builds owned servers (issue 33)
        opt.server_ram_gb = m3_ram_gb(gpu, count) if server_ram_gb is None else server_ram_gb
        opt.server_ram_stated = server_ram_gb is not None
        if not lay.fits:
            opt.fits = False
            values = {"memory": f"{lay.memory_per_gpu_gb:.1f}", "count": count, "gpu": gpu.id,
                      "usable": f"{lay.usable_per_gpu_gb:.1f}"}
            opt.reason = t("configurator.training.idle.memory", "en", **values)
            # German: every decimal point of the sentence becomes a comma
            opt.reason_de = t("configurator.training.idle.memory", "de", **values).replace(".", ",")
        elif lay.host_ram_gb > opt.server_ram_gb:
            opt.fits = False
            values = {"host": f"{lay.host_ram_gb:.0f}", "ram": f"{opt.server_ram_gb:.0f}", "count": count,
                      "gpu": gpu.id}
            key = "configurator.training.idle.host_ram" + (".stated" if opt.server_ram_stated else "")
            opt.reason, opt.reason_de = t(key, "en", **values), t(key, "de", **values)
        elif per_day <= 0 or elapsed > self.limit_h:
            opt.fits = False
            values = {"hours": f"{lay.hours:.1f}", "per_day": f"{per_day:g}", "nights": nights,
                      "days": f"{self.limit_h / 24:.1f}"}
            opt.reason = t("configurator.training.idle.too_long", "en", **values)
            opt.reason_de = t("configurator.training.idle.too_long", "de", **values).replace(".", ",")
        else:
            opt.team_horizon_chf = self._team(elapsed)
            price_nights(opt, count, per_day, self.t.runs_per_year, gpu_hour_chf, self.runs)
        return opt

    def choose(self, idle: TrainingOption, ext: TrainingOption | None) -> TrainingOption | None:
        """Where the run goes: the idle nights when they fit and save more than the minimum against the best
        other source (or there is none); else that source; None when neither fits. Marks a fitting idle
        option that saves too little as `declined`."""
        other = ext if ext is not None and ext.fits else None
        if idle.fits and (other is None or worth_it(idle, other, self.runs, self.a)):
            return idle
        idle.declined = idle.fits
        return other

    def _from_layout(self, kind: str, lay: JobLayout, elapsed: float) -> TrainingOption:
        return TrainingOption(kind, lay.fits, lay.gpu, lay.gpus, lay.nodes, lay.sharding, lay.memory_per_gpu_gb,
                              lay.host_ram_gb, None, lay.hours, elapsed, interconnect=lay.interconnect)

    def external(self) -> list[TrainingOption]:
        """The best rented-per-run and the best dedicated option (each may be missing)."""
        if self._external is None:
            def job(gpu):  # `_job` of each GPU, worked out once: many offers and sources share a GPU
                key = ("within", gpu.id, self.limit_h)
                if key not in self.layouts:
                    self.layouts[key] = self._job(gpu)
                return self.layouts[key]
            self._external = [o for o in (self._rented(job), self._dedicated()) if o is not None]
        return self._external

    def _job(self, gpu):
        """The layout of an external run on `gpu` that finishes within its period (None: none)."""
        lay = plan_job(self.model, gpu, self.t.method, self.tokens, self.t.epochs, a=self.a).layout
        if lay is not None:
            while lay.hours > self.limit_h and lay.gpus < 64:  # more GPUs until the run fits its period
                lay = self.layout_on(gpu, lay.gpus * 2 if lay.gpus < 8 else lay.gpus + 8)
            if not (lay.fits and lay.hours <= self.limit_h):
                lay = None
        return lay

    def _rented(self, job) -> TrainingOption | None:
        w = self.w
        if w.deployment == "on_premise":
            return None
        known = location_must_be_known(w)
        rules = training_billing(self.catalog)
        best, best_rank = None, None
        for offer, gpu, hourly_chf in _hourly_offers(self.catalog):
            if not hosting_allowed(offer.country, w.hosting) or (known and offer.country is None):
                continue
            if not _grade_ok(gpu, w):
                continue
            lay = job(gpu)
            if lay is None or too_little_ram(offer, lay):
                continue  # no layout, or CPU offload needs more host RAM than the instance has
            price = hourly_chf * (1 + FABRIC_RENT_SHARE.value) if lay.nodes > 1 else hourly_chf
            billed, rule = billed_hours(lay.hours, offer.provider, rules)
            per_run = billed * lay.gpus * price
            elapsed = lay.hours + SETUP_HOURS.value
            # the option's total (cost over the horizon + team time), before building the option
            rank = (round(per_run * self.runs + self._team(elapsed), 2), lay.gpus)
            if best_rank is None or rank < best_rank:
                best, best_rank = (offer, lay, billed, rule, per_run, elapsed), rank
        return None if best is None else self._rented_option(*best)

    def _rented_option(self, offer, lay: JobLayout, billed: float, rule: dict, per_run: float,
                       elapsed: float) -> TrainingOption:
        opt = self._from_layout("rented-per-run", lay, elapsed)
        opt.billed_hours_per_run, opt.cost_per_run_chf = billed, per_run
        opt.cost_horizon_chf, opt.team_horizon_chf = per_run * self.runs, self._team(elapsed)
        opt.offer, opt.provider = offer.id, offer.provider
        opt.instance_ram_gb = instance_ram_gb(offer, lay)
        opt.billing = (f"billed per {_granularity(rule)}"
                       + ("; a stopped GPU VM still bills: delete it after the run"
                          if rule.get("stopped_gpu_bills") else "") + f" ({rule['source']})")
        return opt

    def held_layouts(self, gpu) -> list[JobLayout]:
        """Every layout of the run on `gpu` (`LAYOUTS`, CPU offload where one node needs it: `layout_on`)
        that fits and finishes within its period: the candidates of GPUs held for the whole period."""
        key = ("held", gpu.id, self.limit_h)
        if key not in self.layouts:
            lays = (self.layout_on(gpu, n) for n in LAYOUTS)
            self.layouts[key] = [lay for lay in lays if lay.fits and lay.hours <= self.limit_h]
        return self.layouts[key]

    def _dedicated(self) -> TrainingOption | None:
        """GPUs held for the whole period (rented monthly or bought) cost the same however long a run takes:
        the cheapest layout that finishes each run within half the period wins (with the team time where it
        is counted), not the fewest GPU-hours, which is the rule of hourly billing (`_rented`)."""
        best, best_rank = None, None
        months = self.w.horizon_months
        for s in admissible_sources(self.sources, self.w):
            if s.kind == "package":
                continue
            for lay in self.held_layouts(s.gpu):
                if too_little_ram(self._offer(s), lay):
                    continue
                n = lay.gpus
                if s.kind == "purchase" and s.gpu.form_factor in ("sxm", "oam"):
                    n = max(4, math.ceil(n / 4) * 4)
                if n > GPUS_PER_NODE and s.kind == "purchase" and n % GPUS_PER_NODE:
                    n = math.ceil(n / GPUS_PER_NODE) * GPUS_PER_NODE
                cost = gpu_cost(s, n, months, self.a)
                if lay.nodes > 1:
                    cost += FABRIC_CHF_PER_GPU.value * n if s.kind != "cloud" else \
                        FABRIC_RENT_SHARE.value * s.rent_chf * n * months
                rank = (round(cost + self._team(lay.hours), 2), n)  # the option's total, before building it
                if best_rank is None or rank < best_rank:
                    best, best_rank = (s, lay, n, cost), rank
        return None if best is None else self._dedicated_option(*best)

    def _offer(self, s: Source):
        """The cloud offer behind source `s` (None for a purchase)."""
        return self.catalog.offers.get(s.key) if s.kind == "cloud" else None

    def _dedicated_option(self, s: Source, lay: JobLayout, n: int, cost: float) -> TrainingOption:
        opt = self._from_layout("dedicated", lay, lay.hours)
        opt.gpus, opt.cost_horizon_chf = n, cost
        opt.cost_per_run_chf = cost / self.runs if self.runs else cost
        opt.team_horizon_chf = self._team(lay.hours)
        opt.offer = s.key
        opt.provider = s.provider
        opt.instance_ram_gb = instance_ram_gb(self._offer(s), lay)
        opt.billing = "rented monthly" if s.kind == "cloud" else f"bought ({s.condition or 'new'})"
        return opt

    def best_external(self) -> TrainingOption | None:
        """The cheaper of `external`'s options (kept: they are fixed once made)."""
        if self._best is False:
            ext = self.external()
            self._best = min(ext, key=lambda o: (round(o.total, 2), KINDS.index(o.kind))) if ext else None
        return self._best

    def options_for(self, gpu, count: int, gpu_hour_chf: float | None = None,
                    server_ram_gb: float | None = None) -> list[TrainingOption]:
        """All three options for a configuration of `count` serving GPUs, the chosen one first (`choose`),
        then the other feasible ones by cost (the idle nights with their degraded service); `server_ram_gb`
        as for `idle`."""
        idle = self.idle(gpu, count, gpu_hour_chf, server_ram_gb)
        chosen = self.choose(idle, self.best_external())
        kinds = {o.kind for o in self.external()}
        missing = [TrainingOption(k, False, reason=_missing_reason(k, self.w, "en"),
                                  reason_de=_missing_reason(k, self.w, "de")) for k in KINDS[1:] if k not in kinds]
        opts = [idle] + self.external() + missing
        return sorted(opts, key=lambda o: (o is not chosen, not o.fits, round(o.total + o.degraded_horizon_chf, 2),
                                           KINDS.index(o.kind)))


def instance_ram_gb(offer, lay: JobLayout) -> float | None:
    """The host RAM of one node of `offer`'s instances for the layout `lay`: RAM per GPU (`offers.yaml`
    `host_ram`) × the node's GPUs; None where the catalog does not know it (or no offer)."""
    ram = getattr(offer, "host_ram", None)
    if ram is None or ram.gb_per_gpu is None:
        return None
    return ram.gb_per_gpu * min(lay.gpus, GPUS_PER_NODE)


def too_little_ram(offer, lay: JobLayout) -> bool:
    """Whether the layout's host RAM (CPU offload) exceeds what `offer`'s instance has; unknown RAM passes."""
    return lay.host_ram_gb > (instance_ram_gb(offer, lay) or math.inf)


def _hourly_offers(catalog) -> list:
    """(offer, GPU, hourly price in CHF) of every provider offer with a published hourly price, in
    catalog order (kept with the catalog)."""
    def build() -> list:
        return [(o, catalog.gpus[o.gpu], catalog.to_chf(o.hourly.amount.mid, o.hourly.currency))
                for o in catalog.offers.values() if o.hourly is not None and o.kind == "provider-catalog"]
    return catalog.memo("training.hourly_offers", build)


def _grade_ok(gpu, w) -> bool:
    from expert.configurator.candidates import grade_allowed
    return grade_allowed(gpu, w)


def _granularity(rule: dict) -> str:
    g = rule["granularity_s"]
    return "second" if g == 1 else "minute" if g == 60 else "started hour" if g == 3600 else f"{g} s"


def _missing_reason(kind: str, w, lang: str) -> str:
    if kind == "rented-per-run":
        if w.deployment == "on_premise":
            return t("configurator.training.missing.on_premise", lang)
        return t("configurator.training.missing.no_price", lang, hosting=w.hosting)
    return t("configurator.training.missing.none", lang)
