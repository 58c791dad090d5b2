"""The app's own words in English and German (the interview's questions live in `expert.interview`)."""

from __future__ import annotations

_T: dict[str, tuple[str, str]] = {
    "title": ("GPU expert", "GPU-Experte"),
    "placeholder": ("Type your answer, or /help", "Antwort eingeben, oder /help"),
    "welcome": ("Hello! I size GPUs for AI agents. Answer in your own words; the whole "
                "clarification sentence at once works too. ? explains a question, F1 shows all keys.",
                "Hallo! Ich lege GPUs für KI-Agenten aus. Antworten Sie in eigenen Worten; auch der "
                "ganze Klärungssatz auf einmal geht. ? erklärt eine Frage, F1 zeigt alle Tasten."),
    "sentence": ("Clarification", "Bedarfsklärung"),
    "recommendation": ("Recommendation", "Empfehlung"),
    "alternatives": ("Alternatives", "Alternativen"),
    "why": ("Why — rules that fired (Tab to a card, Enter opens it)",
            "Warum — ausgelöste Regeln (Tab zur Karte, Enter öffnet sie)"),
    "findings": ("Findings", "Befunde"),
    "trace": ("Chain of derived facts", "Kette der abgeleiteten Fakten"),
    "cost": ("Cost over time", "Kosten über die Zeit"),
    "memory": ("memory", "Speicher"),
    "headroom": ("headroom", "Reserve"),
    "weights": ("weights", "Gewichte"),
    "overhead": ("overhead", "Overhead"),
    "fine_tuning": ("fine-tuning", "Fine-Tuning"),
    "per_month": ("per month", "pro Monat"),
    "total_over": ("total over {m} months", "gesamt über {m} Monate"),
    "nothing_fits": ("Nothing fits", "Nichts passt"),
    "changed": ("changed", "geändert"),
    "unchanged": ("recommendation unchanged", "Empfehlung unverändert"),
    "new_rules": ("new", "neu"),
    "gone_rules": ("no longer", "entfällt"),
    "now": ("now", "jetzt"),
    "audit_start": ("Audit of a setup you already run: a few questions, then the findings.",
                    "Audit eines bestehenden Setups: ein paar Fragen, dann die Befunde."),
    "example": ("Example", "Beispiel"),
    "not_understood": ("Not understood", "Nicht verstanden"),
    "understood": ("Understood", "Verstanden"),
    "saved": ("saved to {path}", "gespeichert in {path}"),
    "exported": ("report written to {path}", "Bericht geschrieben nach {path}"),
    "loaded": ("loaded {path}", "{path} geladen"),
    "resume": ("Resume the last session?", "Letzte Sitzung fortsetzen?"),
    "no_report": ("No report yet: answer the questions first.",
                  "Noch kein Bericht: bitte zuerst die Fragen beantworten."),
    "audit": ("Audit", "Audit"),
    "no_findings": ("no findings", "keine Befunde"),
    "source": ("Source", "Quelle"),
    "advice": ("Advice", "Rat"),
    "matched": ("matched", "erkannt"),
    "derived": ("derived", "abgeleitet"),
    "from": ("from", "aus"),
    "why_not": ("why not", "warum nicht"),
    "rent": ("rent", "Miete"),
    "buy": ("buy", "Kauf"),
    "month": ("month", "Monat"),
    "break_even": ("break-even after {m} months", "Break-even nach {m} Monaten"),
    "no_break_even": ("no break-even within {m} months", "kein Break-even innert {m} Monaten"),
    "no_compare": ("no {other} option to compare", "keine {other}-Option zum Vergleich"),
    "cheaper_over": ("cheaper over {m} months", "günstiger über {m} Monate"),
    "mo": ("mo", "Mt"),
    "rule": ("rule", "Regel"),
    "usable": ("{gb} GB usable per GPU", "{gb} GB nutzbar pro GPU"),
    "more": ("more (/export for all)", "weitere (/export zeigt alle)"),
    "chart_key": ("F2: chart", "F2: Grafik"),
    "lang_set": ("Language: English", "Sprache: Deutsch"),
    "complete": ("All questions answered. Change anything: type e.g. \"actually 70B\" or "
                 "/set latency 0.4.", "Alle Fragen beantwortet. Ändern geht jederzeit: z. B. "
                 "«eigentlich 70B» oder /set latency 0.4."),
    "undone": ("kept the previous answer", "die vorherige Antwort bleibt"),
}

SEVERITY_ICON = {"critical": "✖ CRITICAL", "warning": "▲ WARNING", "info": "ℹ INFO"}
"""Severity as an icon and a word, never as colour alone."""
SEVERITY_DE = {"critical": "✖ KRITISCH", "warning": "▲ WARNUNG", "info": "ℹ INFO"}


def t(key: str, lang: str, **values: object) -> str:
    """The text `key` in `lang`, with `{placeholders}` filled in."""
    en, de = _T[key]
    return (de if lang == "de" else en).format(**values)


def severity(level: str, lang: str) -> str:
    """`▲ WARNING` / `▲ WARNUNG`: the severity as icon and word."""
    return (SEVERITY_DE if lang == "de" else SEVERITY_ICON).get(level, level.upper())
