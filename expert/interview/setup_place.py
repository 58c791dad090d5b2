"""Whose the servers are and where: the audit interview's ownership and location answers.

`parse_ownership("gemietet")` → rented; `parse_location("Frankfurt, AWS")` → servers in DE,
provider seat US; `parse_site_country("Schweiz")` → the advice interview's own site CH. Countries and data-centre cities in English and German, matched as whole
tokens; a hyperscaler implies a US seat.
"""

from __future__ import annotations

import re

from . import lexicon as lx
from .choices import NO_PREFERENCE, nothing, parse_hosting
from .result import Parsed, fail, safe, say

# Server country and provider seat: ISO 3166-1 alpha-2 codes. Names are matched as whole tokens
# after folding (ä → ae, ö → oe, ü → ue, é → e); a trailing `*` matches any ending.
COUNTRIES: dict[str, str] = {
    "CH": "ch switzerland schweiz suisse svizzera swiss schweizer schweizerisch* zurich zuerich "
          "geneva genf geneve bern basel lausanne lugano",
    "DE": "de germany deutschland german deutsch* frankfurt berlin munich muenchen nuremberg "
          "nuernberg falkenstein",
    "AT": "austria oesterreich austrian oesterreichisch* vienna wien",
    "FR": "france frankreich french franzoesisch* paris",
    "IT": "italy italien italian italienisch* milan mailand milano",
    "NL": "nl netherlands niederlande holland dutch niederlaendisch* amsterdam",
    "IE": "ireland irland irish irisch* dublin",
    "SE": "sweden schweden swedish schwedisch* stockholm",
    "FI": "finland finnland finnish finnisch* helsinki",
    "BE": "belgium belgien belgian belgisch* brussels bruessel",
    "LU": "luxembourg luxemburg",
    "ES": "spain spanien spanish spanisch* madrid",
    "PL": "poland polen polish polnisch* warsaw warschau",
    "GB": "uk united_kingdom great_britain grossbritannien britain british britisch* england "
          "london",
    "US": "us usa america amerika american amerikanisch* united_states "
          "vereinigte_staaten vereinigten_staaten virginia ohio oregon california kalifornien "
          "texas iowa",
    "CA": "canada kanada canadian kanadisch* toronto montreal",
    "JP": "japan japanese japanisch* tokyo tokio",
    "SG": "singapore singapur",
}
_PLACES = {n.replace("_", " "): c for c, names in COUNTRIES.items() for n in names.split()}
_STEMS = {n[:-1]: c for n, c in _PLACES.items() if n.endswith("*")}
_HYPERSCALERS = {"aws", "amazon", "azure", "microsoft", "google", "gcp", "oracle", "oci"}
_SEAT = {"provider", "providers", "company", "based", "seat", "headquarters", "headquartered",
         "hq", "vendor", "hoster", "operator", "anbieter", "anbieters", "sitz", "firmensitz",
         "hauptsitz", "firma", "unternehmen", "betreiber"}
_SERVER = re.compile(r"server|host|rechenzentr|data ?cent|datacent|region|stehen|located|gpu")
_US_PRONOUN = {"to", "for", "with", "by", "of", "let", "about", "among", "between", "tell", "give"}
_RENTED = lx.words("rent\\w*", "miet\\w*", "gemietet\\w*", "leas\\w*", "geleast", "cloud\\w*",
                   "aws", "amazon", "azure", "gcp", "google", "hyperscaler", "on[- ]demand",
                   "pay[- ]as[- ]you[- ]go")
_OWNED = lx.words("own", "owned", "bought", "buy", "purchas\\w*", "gekauft", "kauf\\w*",
                  "eigen(?:e[nmrs]?)?", "eigentum\\w*", "eigentüm\\w*", "gehör\\w* uns",
                  "uns gehör\\w*", "on[- ]?prem\\w*", "in[- ]house", "besitz\\w*", "capex")
_NEGATED = re.compile(r"(?<![\w])(?:not|nicht|no|kein\w*|never|nie|don'?t|do not)(?: \w+)? $")
_STOP = r"(?:und|and|aber|but|sondern)(?![\w])"
_NEGATED_AFTER = re.compile(rf"(?: (?!{_STOP})[\w']+){{0,3}} nicht(?= *(?:$|[,.;:!?)]|{_STOP}))")
_FOLD = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue", "é": "e", "è": "e", "à": "a"})


def _places(t: str) -> tuple[list[tuple[str, bool]], bool]:
    """The places named, in order, as (ISO code, is the provider seat); and whether a hyperscaler
    is named."""
    t = re.sub(r"(?<![\w])u\.s\.(?:a\.)?", "usa ", t.translate(_FOLD))
    toks = [(m.group(), m.start(), m.end()) for m in re.finditer(r"[a-z]+", t)]
    words = [w for w, _, _ in toks]
    used, places, end = set(), [], 0
    for i, (w, start, _) in enumerate(toks):
        hit = next(((k, _PLACES[" ".join(words[i:i + k])]) for k in (3, 2, 1)
                    if i + k <= len(words) and " ".join(words[i:i + k]) in _PLACES), None)
        hit = hit or next(((1, c) for s, c in _STEMS.items() if w.startswith(s)), None)
        if i < end or not hit or (w == "us" and i and words[i - 1] in _US_PRONOUN
                                  and words[i + 1:i + 2] != ["provider"]):
            continue
        end = i + hit[0]
        lo, hi = lx.clause_around(t, start, toks[end - 1][2])
        seat = end < len(toks) and words[end] in _SEAT and end not in used and toks[end][1] < hi
        if seat:
            used.add(end)
        else:
            marks = [j for j in range(i) if words[j] in _SEAT - {"based"} and j not in used
                     and toks[j][1] >= lo and not _SERVER.search(t, toks[j][2], start)]
            seat = bool(marks)
            used.update(marks[-1:])
        places.append((hit[1], seat))
    return places, any(w in _HYPERSCALERS for w in words)


def _votes(t: str, pattern: re.Pattern[str], value: str, other: str) -> list[tuple[int, str]]:
    """(position, value) for each match; a negated match (`not rented`, `mieten sie nicht`,
    `gehören uns nicht`) votes for `other`."""
    return [(m.start(), other if _NEGATED.search(t[max(0, m.start() - 20):m.start()])
             or _NEGATED_AFTER.match(t, m.end()) else value) for m in pattern.finditer(t)]


@safe("ownership")
def parse_ownership(t: str, lang: str = "en") -> Parsed:
    """Rented or owned → `{ownership: rented|owned}` (`cloud`, `gemietet`, `bought`, `eigene`)."""
    votes = sorted(_votes(t, _RENTED, "rented", "owned") + _votes(t, _OWNED, "owned", "rented"))
    if not votes:
        return fail("ownership", lang, "interview.reply.ownership")
    return Parsed({"ownership": votes[0][1]}, lang=lang)


@safe("location")
def parse_location(t: str, lang: str = "en") -> Parsed:
    """Server country and provider seat → `{hosting: {country, provider_seat}}` (ISO codes).

    The first place is the servers' country; a place next to `provider`, `Sitz`, `based` … or a
    second, different country is the provider's seat; AWS, Azure, Google, Oracle imply `US`.
    """
    places, hyperscaler = _places(t)
    servers = [c for c, seat in places if not seat]
    if not servers:
        return fail("location", lang, "interview.reply.location")
    seats = [c for c, seat in places if seat] + [c for c in servers[1:] if c != servers[0]]
    hosting, note = {"country": servers[0]}, None
    if seats:
        hosting["provider_seat"] = seats[0]
    elif hyperscaler:
        hosting["provider_seat"] = "US"
        note = say("interview.note.location.hyperscaler", lang)
    return Parsed({"hosting": hosting}, lang=lang, note=note)


_SAME = re.compile(r"(?<![\w])(?:same|dasselbe|derselbe|dieselbe|gleich\w*|ebenda|dort|there|"
                   r"as (?:the )?hosting|wie (?:das |beim )?hosting)(?![\w])")
_NOT_A_CODE = {"no", "ja", "ok", "na", "eh", "hm", "so"}


@safe("site_country")
def parse_site_country(t: str, lang: str = "en", hosting: str | None = None) -> Parsed:
    """The organisation's own site, where bought hardware stands → `{site_country: ISO code}`
    (`Switzerland`, `Schweiz`, `in Zürich`, `CH`, `Germany`).

    `same as hosting` takes CH when the hosting requirement is Switzerland only (an EU or no
    requirement names no single country: the site stays unknown, like `no preference`).
    """
    places, _ = _places(t)
    if places:
        note = None
        if len({c for c, _ in places}) > 1:
            note = say("interview.note.site_country.several", lang, country=places[0][0])
        return Parsed({"site_country": places[0][0]}, lang=lang, note=note)
    if _SAME.search(t):
        if hosting == "ch":
            return Parsed({"site_country": "CH"}, lang=lang,
                          note=say("interview.note.site_country.same_as_hosting", lang))
        return Parsed({}, lang=lang, note=say("interview.note.site_country.open", lang))
    bare = t.strip(" .!")
    if re.fullmatch(r"[a-z]{2}", bare) and bare not in _NOT_A_CODE:  # an ISO code (`AT`, `LI`)
        return Parsed({"site_country": bare.upper()}, lang=lang)
    if lx.has(NO_PREFERENCE, t) or lx.only(lx.BARE_NO, t):
        return nothing(lang)
    return fail("site_country", lang, "interview.reply.site_country")


_EU_COUNTRIES = ("DE", "AT", "FR", "IT", "NL", "IE", "SE", "FI", "BE", "LU", "ES", "PL")
"""The EU members among the places above (a city there answers "EU")."""


@safe("hosting")
def parse_hosting_place(t: str, lang: str = "en") -> Parsed:
    """The hosting question's answer, a city too: `choices.parse_hosting`, else the place named
    (`in Zürich` → ch, `Frankfurt` → eu; a place outside CH and the EU is not understood)."""
    got = parse_hosting(t, lang)
    if got.ok:
        return got
    country = next((code for code, seat in _places(t)[0] if not seat), None)
    if country in ("CH", *_EU_COUNTRIES):
        return Parsed({"hosting": "ch" if country == "CH" else "eu"}, lang=lang)
    return got
