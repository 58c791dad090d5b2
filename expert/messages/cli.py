"""The command line's own text outputs (`cli.*`): `gpu-expert cost` and `gpu-expert estimate` in the
language of `--lang`, filled with numbers already formatted for it (`expert.report.numbers`)."""

from __future__ import annotations

MESSAGES: dict[str, tuple[str, str]] = {
    "cli.cost.head": ("{count}× {gpu}, {mode}, {months} months", "{count}× {gpu}, {mode}, {months} Monate"),
    "cli.cost.mode.rent": ("rent", "Miete"),
    "cli.cost.mode.buy": ("buy", "Kauf"),
    "cli.cost.condition.new": ("new", "neu"),
    "cli.cost.condition.used": ("used", "gebraucht"),
    "cli.cost.offer": (" at {offer} ({provider})", " bei {offer} ({provider})"),
    "cli.cost.monthly_rent": ("monthly rent", "Monatsmiete"),
    "cli.cost.purchase.rent": ("purchase, GPUs", "Kaufpreis GPUs"),
    "cli.cost.purchase.buy": ("purchase, system", "Kaufpreis System"),
    "cli.cost.offer_compared": (" against the rent of {offer} ({provider})", " gegen die Miete von {offer} ({provider})"),
    "cli.cost.energy": ("energy", "Energie"),
    "cli.cost.energy_how": ("(power × 1.5 cooling × 24/7 × 0.18 CHF/kWh, 000 T1)",
                            "(Leistung × 1,5 Kühlung × 24/7 × 0,18 CHF/kWh, 000 T1)"),
    "cli.cost.energy_included": ("(included in the offer's rent)", "(in der Miete des Angebots enthalten)"),
    "cli.cost.infrastructure": ("infrastructure", "Infrastruktur"),
    "cli.cost.infrastructure_how": ("(+15 %, 000 T1)", "(+15 %, 000 T1)"),
    "cli.cost.resale": ("resale", "Restwert"),
    "cli.cost.total": ("total", "Gesamt"),
    "cli.cost.per_month": ("per month", "pro Monat"),
    "cli.cost.break_even": ("break-even", "Break-even"),
    "cli.cost.break_even_how": ("{months} months of rent (GPUs only: {gpus} / monthly rent, as 000 T4)",
                                "{months} Monatsmieten (nur GPUs: {gpus} / Monatsmiete, wie 000 T4)"),
    "cli.cost.break_even_full": ("system break-even", "Break-even System"),
    "cli.cost.break_even_full_how": (
        "{months} months (the complete system against the rent, energy and infrastructure on both sides, T1)",
        "{months} Monate (das Gesamtsystem gegen die Miete, Energie und Infrastruktur auf beiden Seiten, T1)"),
    "cli.cost.break_even_full_never": ("never (the system costs more each month than the rent)",
                                       "nie (das System kostet jeden Monat mehr als die Miete)"),
    "cli.cost.document_break_even": ("000 T4 states", "000 T4 nennt"),
    "cli.cost.document_break_even_how": ("{months} months (residual {residual})",
                                         "{months} Monate (Abweichung {residual})"),
    "cli.cost.system": ("complete system", "Gesamtsystem"),
    "cli.cost.systems": ("{systems} systems, largest {chassis}", "{systems} Systeme, das größte {chassis}"),
    "cli.cost.system_how": ("{what}, {watts} W; bill of materials (CHF, docs/prices.md):",
                            "{what}, {watts} W; Stückliste (CHF, docs/prices.md):"),
    "cli.cost.quote": ("quote needed", "Angebot einholen"),
    "cli.cost.busy_hour": ("per busy GPU-hour", "pro genutzter GPU-Stunde"),
    "cli.cost.busy_hour_how": ("{chf} CHF at {share} utilisation", "{chf} CHF bei {share} Auslastung"),
}
"""Every key → (English, German)."""
