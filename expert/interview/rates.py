"""How a rate per minute or hour is meant: the peak over the stated office hours ("300 a minute
during office hours", "8-18 Uhr", "9 to 5"), the average around the clock ("on average"), or — said
nothing — the peak rate itself. Used by `parse.parse_volume`.
"""

from __future__ import annotations

import re

from . import lexicon as lx, numbers as nb
from .result import num, say

_OFFICE = lx.words("(during|in|within|over) (the )?(office|business|working|work|opening) hours",
                   "office hours", "business hours", "working hours", "during the (work ?)?day",
                   "(während|in|zu) (der |den )?(büro|geschäfts|arbeits|öffnungs)(zeit|zeiten|stunden)",
                   "bürozeit\\w*", "geschäftszeit\\w*", "arbeitszeit\\w*", "bürostunden", "tagsüber")
_AVERAGE = lx.words("on average", "average", "avg", "im schnitt", "durchschnittlich\\w*", "im durchschnitt",
                    "im mittel", "around the clock", "rund um die uhr", "24/7")
HOURS = re.compile(
    r"(?:(?:from|von|between|zwischen) )?(?P<a>\d{1,2})(?:[:.]\d\d)? ?(?:uhr|h|am)? ?(?:-|–|to|bis|and|und) ?"
    r"(?P<b>\d{1,2})(?:[:.]\d\d)? ?(?P<u>uhr|h|pm|o'?clock)(?![a-z])"
    r"|(?:from|von|between|zwischen) (?P<a2>\d{1,2}) (?:-|–|to|bis|and|und) (?P<b2>\d{1,2})"
    r"(?![\d.,'a-z]| ?(?:per|pro|a|am|requests?|anfragen|k|tsd|tausend|thousand|hundert|hundred|mio|million\w*"
    r"|mrd)(?![a-z]))"
    r"|(?<![\d.,'])(?P<nine>9 ?(?:to|-|bis) ?5)(?![\d.,'])"
    r"|(?P<h>\d{1,2}) ?(?:hours?|stunden?|h) (?:a|per|pro|am|each|jeden) (?:day|tag)")
"""Stated office hours: `8-18 Uhr`, `from 8 to 17`, `zwischen 8 und 17 Uhr`, `9 to 5`, `10 hours a day`."""
OFFICEHOURS = 8
"""Office hours a day when none are stated (8:00-17:00 less the lunch break); 24 / 8 = 3 is also
document 000's default peak-to-average factor, so a stated rate keeps its meaning."""


def rate_basis(t: str, per_second: float, lang: str) -> tuple[dict, str] | None:
    """A rate (`300 a minute`) as the fields to size for and the note that says how it was read:
    the peak over the stated office hours (`during office hours`, `8-18 Uhr`), the average around
    the clock (`on average`), else the peak rate itself. None when it is none of these."""
    m = HOURS.search(t)
    rate = say("interview.note.volume.per_minute", lang, n=nb.fmt(per_second * 60, lang))
    if lx.has(_OFFICE, t) or m:
        hours = OFFICEHOURS
        if m and m.group("h"):
            hours = int(m.group("h"))
        elif m and not m.group("nine"):      # "9 to 5" is the 8 office hours of the default
            start, end = int(m.group("a") or m.group("a2")), int(m.group("b") or m.group("b2"))
            end += 12 if end <= start or (m.group("u") == "pm" and end < 12) else 0
            hours = end - start
        if not 1 <= hours <= 24:
            return None
        per_day = max(1, int(round(per_second * 3600 * hours)))
        factor = num(24 / hours)
        return ({"requests_per_day": per_day, "peak_to_average": factor},
                say("interview.note.volume.office_hours", lang, rate=rate, hours=hours))
    if lx.has(_AVERAGE, t):
        per_day = max(1, int(round(per_second * 86400)))
        return ({"requests_per_day": per_day}, say("interview.note.volume.rate_is_average", lang, rate=rate))
    return None
