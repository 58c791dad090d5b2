"""German words for the values rule texts fill in (`value.FIELD.VALUE`): «sensibel», not
«sensitive». English texts show the values as they are (they are English words already).

Only the enumerated fields of `expert.vocabulary` whose values are words are listed; ids (GPU,
model, package) and numbers are never translated.
"""

from __future__ import annotations

_DE: dict[str, dict[str, str]] = {
    "data": {"sensitive": "sensibel", "non_sensitive": "nicht sensibel"},
    "sector": {"health": "Gesundheit", "finance": "Finanzen", "public": "öffentliche Verwaltung",
               "other": "andere"},
    "hosting": {"ch": "nur Schweiz", "eu": "EU", "any": "keine Vorgabe"},
    "fine_tuning": {"none": "keins", "weekly": "wöchentlich", "monthly": "monatlich",
                    "quarterly": "quartalsweise", "yearly": "jährlich"},
    "budget": {"opex": "Miete (Opex)", "capex": "Kauf (Capex)"},
    "deployment": {"cloud": "Cloud", "on_premise": "eigenes Rechenzentrum", "any": "egal"},
    "ownership": {"rented": "gemietet", "owned": "gekauft"},
    "usage_pattern": {"steady": "gleichmässig", "fluctuating": "schwankend"},
    "reason": {"large-model": "grosses Modell", "latency": "Latenz", "finetuning": "Fine-Tuning",
               "fine-tuning": "Fine-Tuning", "low-latency": "niedrige Latenz"},
    "source": {"purchase": "Kauf", "cloud": "Cloud", "package": "Paket"},
}

MESSAGES: dict[str, tuple[str, str]] = {
    f"value.{field}.{value}": (value, word) for field, words in _DE.items() for value, word in words.items()
}
"""`value.data.sensitive` → ("sensitive", "sensibel")."""
