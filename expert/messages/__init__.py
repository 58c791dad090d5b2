"""One message catalog for every UI and report string, in English and German.

    from expert.messages import t
    t("chat.saved", "de", path="s.yaml")    # → "gespeichert in s.yaml"

Keys are namespaced by where they are shown: `chat.*` (the Textual chat), `interview.*` (the
interview: its own replies, its parsers' replies and notes, what it understood in plain words),
`question.*` (the interview's questions, with example and help), `report.*` (the rendered report),
`explain.*` (`gpu-expert explain`), `configurator.*`, `slo.*` (where a latency target comes from), `cli.*` (`cost` and `estimate` text), `severity.*`, `value.*`, `key.*` (key bindings) (words for values
filled into rule texts). The tables are plain Python (`chat.py`, `interview.py`, `replies.py`,
`describe.py`, `questions.py`, `setup_questions.py`, `report.py`, `configurator.py`, `training.py`,
`values.py`, `keys.py`, `slo.py`, `cli.py`), so importing this package costs nothing at the chat's launch. Rule texts stay in the
rule packs (`rules/*.yaml`); the words the interview *recognises* in what the user types are
patterns and stay with the parsers (`expert.interview.lexicon`).
"""

from __future__ import annotations

from .chat import MESSAGES as _CHAT
from .cli import MESSAGES as _CLI
from .configurator import MESSAGES as _CONFIGURATOR
from .describe import MESSAGES as _DESCRIBE
from .interview import MESSAGES as _INTERVIEW
from .keys import MESSAGES as _KEYS
from .questions import MESSAGES as _QUESTIONS
from .replies import MESSAGES as _REPLIES
from .report import MESSAGES as _REPORT
from .setup_questions import MESSAGES as _SETUP_QUESTIONS
from .slo import MESSAGES as _SLO
from .training import MESSAGES as _TRAINING
from .values import MESSAGES as _VALUES

_TABLES = (_CHAT, _INTERVIEW, _REPLIES, _DESCRIBE, _QUESTIONS, _SETUP_QUESTIONS, _REPORT, _CONFIGURATOR,
           _TRAINING, _VALUES, _KEYS, _SLO, _CLI)
MESSAGES: dict[str, tuple[str, str]] = {k: v for table in _TABLES for k, v in table.items()}
"""Every key → (English, German)."""

LANGS = ("en", "de")


def t(key: str, lang: str, **values: object) -> str:
    """The message `key` in `lang` (anything but `de` is English), `{placeholders}` filled in.
    An unknown key raises KeyError: a typo must fail in the tests, not show a key on screen."""
    en, de = MESSAGES[key]
    text = de if lang == "de" else en
    return text.format(**values) if values else text


def has(key: str) -> bool:
    """Whether the catalog holds `key`."""
    return key in MESSAGES


def severity(level: str, lang: str) -> str:
    """`▲ WARNING` / `▲ WARNUNG`: a severity as icon and word, never as colour alone."""
    key = f"severity.{level}"
    return t(key, lang) if key in MESSAGES else level.upper()


def value_word(field: str, value: object, lang: str) -> str | None:
    """The word for an enumerated value filled into a rule text (`data` `sensitive` → `sensibel` in
    German); None when the catalog has none or the word is the value itself (English `sensitive`)."""
    key = f"value.{field}.{value}"
    if not isinstance(value, str) or key not in MESSAGES:
        return None
    word = MESSAGES[key][1] if lang == "de" else MESSAGES[key][0]
    return None if word == value else word


def provider_name(provider: str, lang: str) -> str:
    """An offer's provider as a sentence shows it: the catalog's name, its words in `lang`
    (`Hikube (wie 000 die GPU beschreibt)`); never the offer id."""
    return value_word("provider", provider, lang) or provider
