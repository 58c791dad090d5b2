"""Answer parsers for the parts of the clarification sentence: volume, fine-tuning and data.

Each parser takes what the user typed (English or German) and returns a `Parsed` whose `fields` use
the workload field names of CONTRACT.md. Parsers never raise: any failure becomes `ok=False` with a
short reason and an example answer in the user's language. This module also re-exports the model
parser and the follow-up parsers, so `expert.interview.parse` is the one place to import them from.
"""

from __future__ import annotations

import re

from . import fine_tuning, lexicon as lx, numbers as nb
from .choices import (parse_budget, parse_deployment, parse_hosting, parse_sector,
                      parse_yes_no)
from .dataset import parse_dataset
from .followups import parse_context, parse_growth, parse_horizon, parse_latency
from .model import parse_model
from .polarity import affirmed, answers_no, denied
from .rates import HOURS, rate_basis
from .result import Parsed, fail, num, safe, say
from .setup_place import parse_hosting_place, parse_site_country

__all__ = ["Parsed", "parse_budget", "parse_context", "parse_data", "parse_dataset", "parse_deployment",
           "parse_fine_tuning", "parse_growth", "parse_horizon", "parse_hosting", "parse_latency",
           "parse_model", "parse_sector", "parse_hosting_place", "parse_site_country", "parse_volume", "parse_yes_no", "fail", "time_unit"]

_PER = (r"(?:/ ?|(?<!\w)(?:per|pro|a|an|je|each|every|jede[nrs]?|im|am|in der|in einer|in the|"
        r"in a|in one|within a|innerhalb einer) )")
_UNITS = {
    "s": r"(?:s|sec|secs|seconds?|sek|sekunden?)", "min": r"(?:min|mins|minutes?|minuten?)",
    "h": r"(?:h|hr|hrs|hours?|std|stunden?)", "d": r"(?:d|days?|tag|tage|tagen)",
    "w": r"(?:w|wk|weeks?|wochen?)", "mo": r"(?:mo|mon|months?|monate?n?|monat|mt)",
    "y": r"(?:yr|yrs|years?|jahre?n?|jahr)",
}
_ADVERBS = {"s": r"rps|qps", "min": r"rpm", "h": r"hourly|st[üu]e?ndlich\w*",
            "d": r"daily|t[äa]e?glich\w*|werktags?", "w": r"weekly|w[öo]e?chentlich\w*",
            "mo": r"monthly|monatlich\w*", "y": r"yearly|annually|j[äa]e?hrlich\w*|p\. ?a\."}
TIME_UNIT = re.compile("|".join(
    f"(?P<{u}>{_PER}{_UNITS[u]}(?![a-zäöü])|(?<![a-zäöü])(?:{_ADVERBS[u]})(?![a-zäöü]))"
    for u in _UNITS))
"""A time unit: `per day`, `pro Tag`, `/min`, `req/s`, `täglich`, `rps` (named group = unit)."""

_USERS = re.compile(r" ?(users?|nutzer\w*|benutzer\w*|mitarbeit\w*|employees?|kunden|customers?|"
                    r"clients?|personen|people|agents?|agenten)(?![a-z])")
SECONDS = {"s": 1, "min": 60, "h": 3600}
DAYS = {"d": 1, "w": 7, "mo": 30, "y": 365}


def time_unit(text: str) -> tuple[str, int] | None:
    """The first time unit in the text and its position."""
    m = TIME_UNIT.search(text)
    return (m.lastgroup, m.start()) if m else None


def _per_user(t: str, nums: list[nb.Number]) -> tuple[nb.Number, nb.Number] | None:
    """`10 000 users with 5 requests each` → (users, requests per user), else None."""
    if len(nums) >= 2 and _USERS.match(t, nums[0].end) and not _USERS.match(t, nums[1].end):
        return nums[0], nums[1]
    return None


_DURATION = re.compile(r" ?(ms|msec|s|secs?|seconds?|sek|sekunden?|min|mins|minutes?|minuten?)(?![a-z])")
"""A number followed by a time unit without `per` (`under 2 seconds`): a duration, not a rate."""
_A_FEW = re.compile(r"(?<![\w])(?:a few|few|several|some|ein paar|einige|mehrere|wenige)"
                    r" (?=(?:k|tsd|tausend|thousands?|hundert|hundreds?|mio|millions?|millionen)(?![a-z]))")
"""`a few thousand`: read as 3 ×, and said so."""


@safe("volume")
def parse_volume(t: str, lang: str = "en") -> Parsed:
    """Request volume → `{requests_per_day: N}` (day, week, month, year) or `{requests_per_second: x}`.

    A range (`100-500 pro Minute`) is sized at its upper bound; no unit means per day; `a few
    thousand` is read as 3 000. The value is checked after the conversion: what is accepted is
    always more than zero requests.
    """
    notes, full = [], t
    clock = HOURS.search(t)        # "8-18 Uhr" is the office hours, not a range of requests
    if clock:
        t = t[:clock.start()] + " " * (clock.end() - clock.start()) + t[clock.end():]
    few = _A_FEW.search(t)
    if few:
        t = t[:few.start()] + "3 " + t[few.end():]
        notes.append(say("interview.note.volume.a_few", lang))
    nums = nb.scan(t) or nb.scan(t, words=True)
    if not nums:
        return fail("volume", lang, "interview.reply.volume.none")
    rng = nb.first_range(t, nums)
    n = rng[1] if rng else nums[0]
    users = _per_user(t, nums)
    if users:
        n = nb.Number(users[0].value * users[1].value, users[1].start, users[1].end)
    if rng and not rng[0].scale and rng[1].scale:
        rng = (nb.Number(rng[0].value * nb.MULTIPLIERS[rng[1].scale], 0, 0), rng[1])
    if users:
        notes.append(say("interview.note.volume.per_user", lang, users=nb.fmt(users[0].value, lang),
                         each=nb.fmt(users[1].value, lang)))
    elif rng:
        notes.append(say("interview.note.volume.range", lang, value=nb.fmt(n.value, lang)))
    unit = time_unit(t[n.end:]) or time_unit(t)
    if unit is None and _DURATION.match(t, n.end) and not lx.has(lx.REQUESTS, t):
        return fail("volume", lang, "interview.reply.volume.is_time")
    if unit is None:
        notes.append(say("interview.note.volume.per_day_assumed", lang))
        unit = ("d", 0)
    per_day = n.value * 86400 / SECONDS[unit[0]] if unit[0] in SECONDS else n.value / DAYS[unit[0]]
    if not per_day > 0:   # checked on the converted value ("half a million per month" is > 0)
        return fail("volume", lang, "interview.reply.volume.not_positive")
    rps = num(per_day / 86400)
    basis = rate_basis(full, per_day / 86400, lang) if unit[0] in SECONDS and rps > 0 else None
    if basis is not None:
        fields = basis[0]
        notes.append(basis[1])
    elif unit[0] in SECONDS and rps > 0:
        fields = {"requests_per_second": rps}
        if unit[0] != "s":
            notes.append(say("interview.note.volume.rate_is_peak", lang,
                             rate=say("interview.note.volume.per_minute", lang, n=nb.fmt(per_day / 1440, lang))))
    else:
        fields = {"requests_per_day": max(1, int(round(per_day)))}
        if per_day < 0.5:
            notes.append(say("interview.note.volume.under_one", lang))
        elif unit[0] != "d":
            per_day_text = nb.fmt(fields["requests_per_day"], lang)
            notes.append(say("interview.note.volume.per_day", lang, value=per_day_text))
    return Parsed(fields, lang=lang, note="; ".join(notes) or None)


_FREQ = [  # order matters: vague and half-yearly before quarterly and yearly, daily before weekly
    ("quarterly", "few_a_year", lx.words(
        "(a few|a couple of|several|some|multiple|a handful of) times (a|per|each|every) year",
        "(ein paar|einige|mehrere|ein paarmal|paarmal) ?(mal|male)? (im|pro|jedes|per|in einem) jahr",
        "mehrmals (im|pro|per|jedes) jahr", "(ein paar|einige|mehrere) ?mal j[äa]e?hrlich",
        "mehrmals j[äa]e?hrlich", "several times annually")),
    ("monthly", "few_months", lx.words("every (few|couple of|couple|several) months",
                                        "alle paar monate", "alle (zwei|2) bis (drei|3) monate",
                                        "every (two|2) (or|to) (three|3) months")),
    ("weekly", "daily", lx.words("daily", "t[äa]e?glich\\w*", "every day", "jeden tag", "each day")),
    ("quarterly", "half_yearly", lx.words("twice a year", "half[- ]?yearly", "semi[- ]?annual\\w*",
                                          "halbj[äa]e?hrlich\\w*", "zweimal (im|pro) jahr",
                                          "every six months", "alle sechs monate")),
    ("quarterly", None, lx.words("quarterly", "quartal\\w*", "viertelj[äa]e?hrlich\\w*",
                                 "every quarter", "each quarter", "per quarter", "a quarter")),
    ("weekly", None, lx.words("weekly", "w[öo]e?chentlich\\w*", "every week", "each week", "per week",
                              "a week", "jede woche", "pro woche", "in der woche")),
    ("monthly", None, lx.words("monthly", "monatlich\\w*", "every month", "each month", "per month",
                               "a month", "jeden monat", "pro monat", "im monat")),
    ("yearly", None, lx.words("yearly", "annual\\w*", "j[äa]e?hrlich\\w*", "every year", "each year",
                              "per year", "a year", "jedes jahr", "pro jahr", "im jahr")),
    ("yearly", "once", lx.words("once", "one[- ]?off", "one[- ]?time", "einmalig\\w*", "nur einmal")),
]
_EVERY = re.compile(r"(?:every|alle|each) (\w+) (week|woche|month|monat|year|jahr)")
_METHODS = [("qlora", lx.words("q-?lora")), ("lora", lx.words("lora", "peft", "adapter\\w*")),
            ("full", lx.words("full\\w*", "voll\\w*", "komplett\\w*", "ganze\\w*", "alle gewichte"))]


def _frequency(t: str, lang: str) -> tuple[str | None, str | None]:
    """(contract frequency, note) from `monthly`, `alle 2 Wochen`, `twice a year`, …"""
    m = _EVERY.search(t)
    if m:
        other = m.group(1) in ("other", "second", "zweiten", "zweite")
        count = [nb.Number(2, 0, 0)] if other else nb.scan(m.group(1), words=True)
        if count:
            months = count[0].value * {"w": 0.25, "m": 1, "y": 12, "j": 12}[m.group(2)[0]]
            freq = ("weekly" if months <= 0.5 else "monthly" if months <= 2 else
                    "quarterly" if months <= 6 else "yearly")
            return freq, say("interview.note.fine_tuning.taken_as", lang,
                             freq=say(f"interview.word.{freq}", lang))
    for freq, said, pattern in _FREQ:
        if affirmed(pattern, t):          # "not monthly, quarterly": the denied one does not count
            note = None if said is None else say("interview.note.fine_tuning.said_taken_as", lang,
                                                  said=say(f"interview.note.fine_tuning.{said}", lang),
                                                  freq=say(f"interview.word.{freq}", lang))
            return freq, note
    return None, None


@safe("fine_tuning")
def parse_fine_tuning(t: str, lang: str = "en") -> Parsed:
    """Fine-tuning → `{fine_tuning: none|weekly|…}` or `{fine_tuning: {frequency, method}}`.

    A plain yes gives a provisional `quarterly` and `follow_up="fine_tuning_frequency"`; a method
    without a frequency gives `{fine_tuning: {method}}` and the same follow-up (QA 46 #2: "actually
    QLoRA" changes the method only; `fine_tuning.merge` assumes `quarterly` where none was given).
    """
    freq, note = _frequency(t, lang)
    method = next((name for name, pattern in _METHODS if lx.has(pattern, t)), None)
    yes, no = lx.find(lx.YES, t), lx.find(lx.NO, t)
    if not freq and not method and denied(lx.FINE_TUNING, t):
        return Parsed({"fine_tuning": "none"}, lang=lang)     # "we don't plan to retrain it"
    if not freq and not method:
        if lx.has(lx.DONT_KNOW, t) and yes < 0 and not lx.has(lx.BARE_NO, t):
            return fail("fine_tuning", lang, "interview.reply.yes_no")
        if no >= 0 and (yes < 0 or no < yes):
            return Parsed({"fine_tuning": "none"}, lang=lang)
        if yes < 0 and not lx.has(lx.FINE_TUNING, t):
            return fail("fine_tuning", lang, "interview.reply.fine_tuning")
    follow = None if freq else "fine_tuning_frequency"
    if not freq:
        note = say("interview.note.fine_tuning.assumed", lang)
    if method:   # only what was said: "QLoRA" names no frequency (the flow's merge keeps or assumes one)
        value = {"frequency": freq, "method": method} if freq else {"method": method}
    else:
        value = freq or fine_tuning.ASSUMED_FREQUENCY
    return Parsed({"fine_tuning": value}, lang=lang, note=note, follow_up=follow)


@safe("data")
def parse_data(t: str, lang: str = "en") -> Parsed:
    """Data → `{data: sensitive|non_sensitive}` plus `sector` when one is named (health, …)."""
    sector = lx.sector_of(t)
    fields: dict = {}
    sensitive = affirmed(lx.SENSITIVE, t) or lx.has(lx.NOT_ANONYMOUS, t)
    if (lx.has(lx.NON_SENSITIVE, t) or denied(lx.SENSITIVE, t)) and not lx.has(lx.NOT_ANONYMOUS, t):
        fields["data"] = "non_sensitive"          # "nothing sensitive", "no personal data"
    elif sensitive and lx.has(lx.BARE_NO, t) and not lx.has(lx.BARE_YES, t):
        fields["data"] = "non_sensitive"          # "sensitive data? no"
    elif sensitive or sector:
        fields["data"] = "sensitive"
    else:
        yes, no = lx.find(lx.YES, t), answers_no(t)      # not the "no" of "no fine-tuning"
        if no >= 0 and (yes < 0 or no < yes):
            fields["data"] = "non_sensitive"
        elif yes >= 0:
            fields["data"] = "sensitive"
        else:
            return fail("data", lang, "interview.reply.data")
    if sector:
        fields["sector"] = sector
    return Parsed(fields, lang=lang)
