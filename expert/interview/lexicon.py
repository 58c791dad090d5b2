"""The word lists of the interview, English and German, as simple compiled regexes.

Each pattern is an alternation of literal words or stems anchored at a word start; none nests
quantifiers, so matching stays linear on any input. Texts are matched after `numbers.normalize`
(lower case, `ß` → `ss`); umlauts are accepted both as `ä` and as `ae`.
"""

from __future__ import annotations

import re


def words(*alternatives: str) -> re.Pattern[str]:
    """A pattern matching any of the alternatives at a word start (stems allowed: `monatl\\w*`)."""
    return re.compile(r"(?<![\w])(?:" + "|".join(alternatives) + r")(?![\w])")


YES = words("yes", "yeah", "yep", "ja", "jawohl", "jep", "klar", "sure", "of course", "natürlich",
            "needed", "required", "necessary", "nötig", "noetig", "benötigt", "benoetigt",
            "erforderlich", "notwendig", "y", "j", "true", "correct", "richtig", "genau")
NO = words("no", "nope", "nein", "none", "nö", "kein\\w*", "ohne", "without", "never", "nie",
           "nicht", "not", "not needed", "unnötig", "n", "false", "nah")
DONT_KNOW = words("(i|we) (really )?(don'?t|do not) know( yet)?", "(ich|wir) weiss? (es )?(noch )?nicht",
                  "weiss (ich|ich es|es) (noch )?nicht", "wissen (wir )?(es )?(noch )?nicht",
                  "no idea( yet)?", "not sure( yet)?", "can'?t say", "kann ich nicht sagen",
                  "don'?t know", "do not know", "not sure", "unsure", "no idea", "unknown",
                  "weiss nicht", "weiß nicht", "keine ahnung", "unklar", "unbekannt", "k\\.? ?a\\.?",
                  "maybe", "vielleicht", "noch offen", "dunno", "idk")
SKIP = words("skip", "überspringen", "ueberspringen", "default", "defaults", "standard",
             "use the default", "standardwert", "weiter", "next", "pass")
HELP = words("help", "hilfe", "what does that mean", "was heisst das", "was bedeutet das",
             "explain", "erklären", "erklaeren", "wie bitte")

FINE_TUNING = words("fine[- ]?tun\\w*", "finetun\\w*", "fein[- ]?tun\\w*", "lora", "q-?lora", "training", "train",
                    "trainieren", "nachtrain\\w*", "retrain\\w*", "anpassen", "tuning")
REQUESTS = words("requests?", "req", "queries", "query", "calls?", "anfragen?", "abfragen?",
                 "aufrufe?", "prompts?", "messages?", "nachrichten", "conversations?",
                 "gespräche?", "gespraeche?", "chats?", "interactions?", "interaktionen", "tickets?",
                 "documents?", "dokumente?", "rps", "qps", "rpm", "inferences?", "inferenzen")
DATA = words("daten\\w*", "data", "\\w*daten", "sensib\\w*", "sensitive", "non[- ]?sensitive",
             "vertraulich\\w*", "confidential", "personal", "personen\\w*", "information\\w*")
MODEL = words("model\\w*", "modell\\w*", "parameters?", "parametern?", "llm", "size", "grösse",
              "groesse", "grosse")

NON_SENSITIVE = words("nicht[- ]?sensib\\w*", "non[- ]?sensitive", "not sensitive", "insensitive",
                      "unsensib\\w*", "nicht vertraulich\\w*", "not confidential", "unkritisch\\w*",
                      "non[- ]?critical", "no sensitive", "keine sensib\\w*", "kein sensib\\w*",
                      "keine personen\\w*", "no personal", "anonymi\\w*", "public (data|texts?|"
                      "information|content|marketing)", "öffentlich\\w* (daten|texte?|inhalte?)",
                      "marketing\\w*", "open data", "harmless", "unbedenklich\\w*")
BARE_YES = words("yes", "ja", "yep", "jep", "klar", "sure", "y", "j")
BARE_NO = words("no", "nein", "nope", "nö", "n")
NOT_ANONYMOUS = words("nicht anonymi\\w*", "not anonymi\\w*", "non[- ]?anonymi\\w*")
SENSITIVE = words("sensitive", "sensib\\w*", "heikel", "heikl\\w*", "vertraulich\\w*", "confidential", "secret", "geheim\\w*",
                  "personal", "personen\\w*", "persönlich\\w*", "private", "privat\\w*",
                  "besonders schützenswert\\w*", "schützenswert\\w*", "kundendaten", "customer data",
                  "pii", "revdsg", "dsgvo", "gdpr", "critical", "kritisch\\w*", "internal",
                  "interne\\w*", "hr", "personal\\w*", "mitarbeite\\w*", "lohn\\w*", "löhne",
                  "salar\\w*", "payroll", "employee\\w*", "steuer\\w*", "tax", "legal", "juristisch\\w*",
                  "anwalt\\w*", "contracts?", "vertr[äa]ge?\\w*")
WEAK_SENSITIVE = words("internal", "interne\\w*", "intern", "in-house")
"""Words that make data sensitive only as the answer to the data question: "an internal coding
agent" said about the model is no statement about the data (the chat asks)."""


def strong(text: str) -> str:
    """`text` with the weak sensitivity words blanked (same length)."""
    return WEAK_SENSITIVE.sub(lambda m: " " * len(m.group()), text)


SECTORS: dict[str, re.Pattern[str]] = {
    "health": words("health\\w*", "gesundheit\\w*", "patient\\w*", "medizin\\w*", "medical",
                    "medic\\w*", "spital\\w*", "spitäler\\w*", "hospital\\w*", "klinik\\w*",
                    "clinic\\w*", "arzt\\w*", "ärzt\\w*", "pharma\\w*", "kranken\\w*", "healthcare"),
    "finance": words("bank\\w*", "finanz\\w*", "financ\\w*", "fintech", "versicherung\\w*",
                     "insurance", "insurer\\w*", "kredit\\w*", "credit", "konto\\w*", "trading",
                     "vermögen\\w*", "wealth", "payment\\w*", "zahlung\\w*", "treuhand\\w*"),
    "public": words("behörde\\w*", "behoerde\\w*", "\\w*verwaltung\\w*", "public administration",
                    "public sector", "public authorit\\w*", "public service\\w*", "government\\w*",
                    "regierung\\w*", "gemeinde\\w*", "kanton\\w*", "bund", "bundes\\w*", "amt",
                    "ämter", "staat\\w*", "öffentliche hand", "öffentlichen? sektor",
                    "öffentlicher sektor", "municipal\\w*", "federal", "ministr\\w*", "authorit\\w*"),
    "other": words("other", "andere\\w*", "sonstige\\w*", "retail", "handel", "industr\\w*",
                   "manufactur\\w*", "e-?commerce", "tourism\\w*", "logisti\\w*", "none",
                   "keine branche", "not regulated", "nicht reguliert", "unreguliert", "no sector"),
}
"""Sector words; the first three are the regulated sectors of document 000."""


def find(pattern: re.Pattern[str], text: str) -> int:
    """Position of the first match, or -1."""
    m = pattern.search(text)
    return m.start() if m else -1


def has(pattern: re.Pattern[str], text: str) -> bool:
    """Whether the pattern occurs in the text."""
    return pattern.search(text) is not None


def only(pattern: re.Pattern[str], text: str) -> bool:
    """Whether the text is nothing but matches of the pattern (and punctuation)."""
    rest = re.sub(r"[\s.,!?;:()\-]+", "", pattern.sub("", text))
    return pattern.search(text) is not None and not rest


def asks_help(text: str) -> bool:
    """`?`, `help`, `was heisst das` … — the user asks what the question means."""
    return text.strip() in ("?", "??", "help", "hilfe") or only(HELP, text)


def skips(text: str) -> bool:
    """`skip`, `weiss nicht` … — the user leaves the question to its default."""
    return only(SKIP, text) or only(DONT_KNOW, text)


def sector_of(text: str, *, with_other: bool = False) -> str | None:
    """The sector named in the text (`health`, `finance`, `public`, optionally `other`)."""
    for sector, pattern in SECTORS.items():
        if (sector != "other" or with_other) and has(pattern, text):
            return sector
    return None


_DE = words("ja", "nein", "nicht", "pro", "tag", "tage", "anfragen?", "monat\\w*", "jahr\\w*",
            "daten\\w*", "\\w*daten", "mit", "und", "ohne", "kein\\w*", "sensib\\w*", "grösse",
            "modell\\w*", "mieten", "kaufen", "egal", "schweiz", "jede\\w*", "alle", "mal",
            "wöchentlich\\w*", "sekunden?", "unter", "stunden?", "milliarden", "mrd", "mio",
            "braucht", "nutzt", "verarbeitet", "weiss", "überspringen", "quartal\\w*",
            "gesundheit\\w*", "behörde\\w*", "lokal", "eigene\\w*", "rechenzentrum", "im", "einmal",
            "wir", "ich", "der", "die", "das", "ein", "eine", "nur", "bis", "etwa", "ungefähr")
_EN = words("yes", "no", "not", "per", "day", "days", "requests?", "months?", "years?", "data",
            "with", "and", "without", "none", "sensitive", "size", "model", "rent", "buy", "any",
            "only", "every", "weekly", "monthly", "quarterly", "yearly", "seconds?", "under", "hours?",
            "billion", "million", "needs", "uses", "processes", "skip", "know", "health", "bank",
            "cloud", "own", "switzerland", "we", "i", "the", "a", "an", "about", "around", "to")


def detect_lang(text: str, default: str = "en") -> str:
    """`de` or `en` from marker words and umlauts; `default` on a tie."""
    de = len(_DE.findall(text)) + sum(text.count(c) for c in "äöü")
    en = len(_EN.findall(text))
    if de == en:
        return default if default in ("en", "de") else "en"
    return "de" if de > en else "en"


_CLAUSE_SEP = re.compile(r"[,;()]|\. |(?<![\w])(?:and|und|but|aber|while|während|whereas|jedoch|"
                         r"sowie)(?![\w])")


def clause_around(t: str, start: int, end: int, spans: list[tuple[int, int]] = ()) -> tuple[int, int]:
    """The clause around t[start:end]: bounded by commas, brackets, `and`, `but`, `aber` …
    (separators inside `spans`, e.g. a decimal comma, do not count)."""
    seps = [m for m in _CLAUSE_SEP.finditer(t) if not any(a <= m.start() < b for a, b in spans)]
    return (max([m.end() for m in seps if m.end() <= start], default=0),
            min([m.start() for m in seps if m.start() >= end], default=len(t)))
