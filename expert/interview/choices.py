"""Parsers for the choice questions: sector, hosting, deployment, rent or buy, and yes/no.

Same contract as the other parsers: text in, `Parsed` out, never an exception.
"""

from __future__ import annotations

from . import lexicon as lx
from .polarity import polar
from .result import Parsed, fail, safe, say

NO_PREFERENCE = lx.words(
    "egal", "any", "anywhere", "whatever", "doesn'?t matter", "does not matter", "no requirements?",
    "no preference", "keine vorgaben?", "keine anforderung\\w*", "keine präferenz",
    "spielt keine rolle", "überall", "ueberall", "either", "beides", "both", "flexible?", "offen")
"""Answers that state no preference: the default applies."""

_CH = lx.words("ch", "switzerland", "swiss", "schweiz\\w*", "suisse", "svizzera", "inland")
_EU = lx.words("eu", "europe\\w*", "europa", "eea", "ewr")
_WORLD = lx.words("usa?", "global\\w*", "worldwide", "weltweit")
_CLOUD = lx.words("cloud\\w*", "gemietet\\w*", "hosted", "gehostet", "provider", "anbieter\\w*",
                  "aws", "azure", "gcp", "hyperscaler")
_ON_PREM = lx.words(
    "on[- ]?prem\\w*", "vor ort", "lokal\\w*", "local\\w*", "in[- ]?house", "self[- ]?hosted",
    "selbst gehostet", "eigene\\w* (rechenzentrum|server\\w*|hardware|infrastruktur|räumlichkeiten)",
    "own (data ?cent\\w*|servers?|hardware|infrastructure|premises)", "\\w*rechenzentrum",
    "data ?cent(er|re)s?", "serverraum")
_OPEX = lx.words("rent\\w*", "miet\\w*", "gemietet\\w*", "opex", "leas\\w*", "pay[- ]as[- ]you[- ]go", "abo\\w*",
                 "subscription", "monthly fee")
_CAPEX = lx.words("buy\\w*", "kauf\\w*", "bought", "gekauft\\w*", "capex", "purchas\\w*", "invest\\w*", "own", "besitzen",
                  "erwerben", "anschaffen", "anschaffung")


def _either(said: dict[str, int]) -> tuple[bool, bool]:
    """(a, b) of a choice between two options, a denied one meaning the other ("not in the cloud"
    → on premise; "wir kaufen keine Server" → rent); both when both are said."""
    a, b = said["a"], said["b"]
    return a == 1 or (b == -1 and a != -1), b == 1 or (a == -1 and b != -1)


def undecided(t: str) -> bool:
    """Whether an answer leaves the question open: no preference ("egal") or "don't know"."""
    return lx.has(NO_PREFERENCE, t) or lx.has(lx.DONT_KNOW, t)


def nothing(lang: str) -> Parsed:
    """Understood, but nothing to set: the default applies."""
    return Parsed({}, lang=lang, note=say("interview.note.no_preference", lang))


@safe("sector")
def parse_sector(t: str, lang: str = "en") -> Parsed:
    """Sector → `{sector: finance|health|public|other}`; `no` / `egal` → other."""
    sector = lx.sector_of(t, with_other=True)
    if sector is None and (lx.has(lx.BARE_NO, t) or lx.has(NO_PREFERENCE, t)):
        sector = "other"
    if sector is None:
        return fail("sector", lang, "interview.reply.sector")
    return Parsed({"sector": sector}, lang=lang)


@safe("hosting")
def parse_hosting(t: str, lang: str = "en") -> Parsed:
    """Hosting requirement → `{hosting: ch|eu|any}` (`nur Schweiz`, `EU`, `egal`)."""
    ch, eu = lx.has(_CH, t), lx.has(_EU, t)
    if ch and eu:
        return Parsed({"hosting": "eu"}, lang=lang,
                      note=say("interview.note.hosting.ch_or_eu", lang))
    if ch or eu:
        return Parsed({"hosting": "ch" if ch else "eu"}, lang=lang)
    if lx.has(NO_PREFERENCE, t) or lx.has(lx.BARE_NO, t) or lx.has(_WORLD, t):
        return Parsed({"hosting": "any"}, lang=lang)
    return fail("hosting", lang, "interview.reply.hosting")


@safe("deployment")
def parse_deployment(t: str, lang: str = "en") -> Parsed:
    """Deployment → `{deployment: cloud|on_premise|any}` (`lokal`, `im eigenen Rechenzentrum`)."""
    cloud, prem = _either(polar({"a": _CLOUD, "b": _ON_PREM}, t))
    if cloud != prem:
        return Parsed({"deployment": "cloud" if cloud else "on_premise"}, lang=lang)
    if (cloud and prem) or lx.has(NO_PREFERENCE, t):
        return Parsed({"deployment": "any"}, lang=lang)
    return fail("deployment", lang, "interview.reply.deployment")


@safe("budget")
def parse_budget(t: str, lang: str = "en") -> Parsed:
    """Rent or buy → `{budget: opex|capex}` ("whatever is cheaper" → `any`), plus `deployment` when
    cloud or on premise is named.

    Naming only the place also answers: the cloud is rented, own premises are bought.
    """
    rent, buy = _either(polar({"a": _OPEX, "b": _CAPEX}, t))
    place = parse_deployment(t, lang)
    fields = dict(place.fields) if place.ok and place.fields.get("deployment") != "any" else {}
    if rent != buy:
        fields["budget"] = "opex" if rent else "capex"
        return Parsed(fields, lang=lang)
    if fields:
        cloud = fields["deployment"] == "cloud"
        fields["budget"] = "opex" if cloud else "capex"
        note = say("interview.note.budget.cloud", lang) if cloud else say(
            "interview.note.budget.own_premises", lang)
        return Parsed(fields, lang=lang, note=note)
    if lx.has(NO_PREFERENCE, t):          # "whatever is cheaper": compare both (issue 13)
        return Parsed({"budget": "any"}, lang=lang)
    return fail("budget", lang, "interview.reply.budget")


@safe("yes_no")
def parse_yes_no(t: str, lang: str = "en") -> Parsed:
    """Generic yes/no → `{answer: True|False}` (whichever word comes first)."""
    yes, no = lx.find(lx.YES, t), lx.find(lx.NO, t)
    if yes < 0 and no < 0:
        return fail("yes_no", lang, "interview.reply.yes_no")
    return Parsed({"answer": no < 0 or 0 <= yes < no}, lang=lang)
