"""What the interview understood, in plain words (English and German): the workload fields
(`interview.describe.*`, `interview.word.*` for enumerated values), document 000's clarification
sentence (`interview.sentence.*`) and a running setup (`interview.describe.setup.*`). Used by
`expert.interview.workload_describe`, `sentence` and `setup_describe`.
"""

from __future__ import annotations

MESSAGES: dict[str, tuple[str, str]] = {
    # enumerated workload values in plain words
    "interview.word.sensitive": ("sensitive data", "sensible Daten"),
    "interview.word.non_sensitive": ("non-sensitive data", "nicht sensible Daten"),
    "interview.word.health": ("health", "Gesundheit"),
    "interview.word.finance": ("finance", "Finanzen"),
    "interview.word.public": ("public administration", "öffentliche Verwaltung"),
    "interview.word.other": ("another sector", "andere Branche"),
    "interview.word.ch": ("servers in Switzerland only", "Server nur in der Schweiz"),
    "interview.word.eu": ("servers in the EU", "Server in der EU"),
    "interview.word.any": ("no requirement", "keine Vorgabe"),
    "interview.word.cloud": ("in the cloud", "in der Cloud"),
    "interview.word.on_premise": ("on your own premises", "im eigenen Rechenzentrum"),
    "interview.word.opex": ("rent (monthly cost)", "mieten (monatliche Kosten)"),
    "interview.word.capex": ("buy (one-off investment)", "kaufen (einmalige Investition)"),
    "interview.word.none": ("no fine-tuning", "kein Fine-Tuning"),
    "interview.word.weekly": ("weekly", "wöchentlich"),
    "interview.word.monthly": ("monthly", "monatlich"),
    "interview.word.quarterly": ("quarterly", "quartalsweise"),
    "interview.word.yearly": ("yearly", "jährlich"),
    # a fine-tuning method (the contract's ids full, lora, qlora) in the sentence and the summaries
    "interview.method.full": ("full fine-tuning", "volles Fine-Tuning"),
    "interview.method.lora": ("LoRA", "LoRA"),
    "interview.method.qlora": ("QLoRA", "QLoRA"),
    # one workload field in plain words
    "interview.describe.model": ("model {value}", "Modell {value}"),
    "interview.describe.params_b": (
        "a model with {n} billion parameters",
        "ein Modell mit {n} Milliarden Parametern"),
    "interview.describe.requests_per_day": ("{n} requests per day", "{n} Anfragen pro Tag"),
    "interview.describe.requests_per_second": ("{n} requests per second", "{n} Anfragen pro Sekunde"),
    "interview.describe.first_words": (
        "the first words within {n} s",
        "die ersten Wörter innert {n} s"),
    "interview.describe.complete_answer": (
        "the complete answer within {n} s",
        "die vollständige Antwort innert {n} s"),
    "interview.describe.no_latency_target": (
        "the first words within {s} s (000 U1: a chat agent answers in under 2 s)",
        "die ersten Wörter innert {s} s (000 U1: ein Chat-Agent antwortet unter 2 s)"),
    "interview.describe.tpot_target_ms": ("{n} ms per output token", "{n} ms pro Ausgabe-Token"),
    "interview.describe.streamed": (
        "answers streamed as they are written",
        "Antworten laufend gestreamt"),
    "interview.describe.not_streamed": (
        "answers used whole (not streamed)",
        "Antworten als Ganzes verwendet (nicht gestreamt)"),
    "interview.describe.context_tokens": (
        "up to {n} tokens of text at once",
        "bis {n} Tokens Text auf einmal"),
    "interview.describe.sector": ("sector: {word}", "Branche: {word}"),
    "interview.describe.horizon_months": ("over {n} months", "über {n} Monate"),
    "interview.describe.dataset_tokens": (
        "{n} tokens per fine-tuning run",
        "{n} Tokens pro Fine-Tuning-Lauf"),
    "interview.describe.epochs": ("{n} epochs", "{n} Epochen"),
    "interview.describe.fine_tuning_partial": ("fine-tuning", "Fine-Tuning"),
    "interview.describe.site_country": ("own site in {value}", "eigener Standort in {value}"),
    "interview.describe.peak_to_average": (
        "peak {n} × the daily average",
        "Spitze {n} × der Tagesdurchschnitt"),
    "interview.describe.growth_params_b": (
        "growing to {n} billion parameters",
        "wächst auf {n} Milliarden Parameter"),
    "interview.describe.hosting_any": ("servers anywhere", "Serverstandort egal"),
    "interview.describe.precision": ("precision {value}, kept", "Präzision {value}, beibehalten"),
    "interview.describe.allow_quantization_false": (
        "the model's own precision, kept", "eigene Präzision des Modells, beibehalten"),
    "interview.describe.allow_quantization_true": ("quantisation allowed", "Quantisierung erlaubt"),
    "interview.describe.allow_int4": ("4-bit (int4) allowed", "4 Bit (int4) erlaubt"),
    "interview.describe.fine_tuning": ("fine-tuning {freq}", "Fine-Tuning {freq}"),
    "interview.describe.agent": ("an agent using tools", "ein Agent mit Werkzeugen"),
    "interview.describe.agent_steps": ("{n} steps per task", "{n} Schritte pro Aufgabe"),
    "interview.describe.agent_steps_p90": (
        "{n} steps per task (up to {top})",
        "{n} Schritte pro Aufgabe (bis {top})"),
    "interview.describe.agent_tool_time": ("{n} s per tool call", "{n} s pro Werkzeugaufruf"),
    "interview.describe.agent_users": (
        "{n} people waiting for their tasks", "{n} Personen warten auf ihre Aufgaben"),
    "interview.describe.agent_think": ("{n} s pause between tasks", "{n} s Pause zwischen Aufgaben"),
    "interview.describe.agent_fan_out": ("{n} sessions per task at once", "{n} Sitzungen pro Aufgabe gleichzeitig"),
    "interview.describe.agent_fan_out_one": (
        "no sub-agents: one session per task", "keine Unteragenten: eine Sitzung pro Aufgabe"),
    "interview.describe.agent_final": ("the final answer within {n} s", "die Schlussantwort innert {n} s"),
    "interview.describe.agent_step": ("each internal step within {n} s", "jeder interne Schritt innert {n} s"),
    "interview.describe.high_availability_true": (
        "keeps serving when one server fails", "läuft weiter, wenn ein Server ausfällt"),
    "interview.describe.high_availability_false": (
        "one failure domain", "ein Ausfallbereich"),
    # document 000's clarification sentence, with `[…]` blanks
    "interview.sentence.text": (
        "My AI agent uses a model of size {x}, processes {y} requests per day, needs fine-tuning {ft}, "
        "with {data} data.",
        "Mein KI-Agent nutzt ein Modell der Grösse {x}, verarbeitet {y} Anfragen pro Tag, braucht "
        "Fine-Tuning {ft}, mit {data} Daten."),
    # a closed loop (`agent.concurrent_users`): its users and their cycle, not a daily volume (issue 31)
    "interview.sentence.closed": (
        "My AI agent uses a model of size {x}, serves {n} users who wait for their tasks{cycle}, needs "
        "fine-tuning {ft}, with {data} data.",
        "Mein KI-Agent nutzt ein Modell der Grösse {x}, bedient {n} Personen, die auf ihre Aufgaben warten{cycle}, "
        "braucht Fine-Tuning {ft}, mit {data} Daten."),
    "interview.sentence.cycle": (
        " (a cycle of {cycle} s: a task {task} s and {think} s of thought, {rate} tasks per second)",
        " (ein Zyklus von {cycle} s: eine Aufgabe {task} s und {think} s Bedenkzeit, {rate} Aufgaben pro Sekunde)"),
    "interview.sentence.think": (
        " ({think} s of thought between tasks)", " ({think} s Bedenkzeit zwischen Aufgaben)"),
    "interview.sentence.growth": (
        "The model is expected to grow to {n}B parameters within 12–18 months (000 M5).",
        "Das Modell soll in 12–18 Monaten auf {n} Mrd. Parameter wachsen (000 M5)."),
    "interview.sentence.yes": ("yes", "ja"),
    "interview.sentence.yes_detail": ("yes ({detail})", "ja ({detail})"),
    "interview.sentence.no": ("no", "nein"),
    "interview.sentence.unstated_count": ("an unstated number of", "eine nicht angegebene Zahl von"),
    "interview.sentence.yes_no_blank": ("[yes/no]", "[ja/nein]"),
    "interview.sentence.sensitive": ("sensitive", "sensiblen"),
    "interview.sentence.non_sensitive": ("non-sensitive", "nicht sensiblen"),
    "interview.sentence.data_blank": ("[sensitive/non-sensitive]", "[sensiblen/nicht sensiblen]"),
    # a setup (the audit interview) in plain words
    "interview.describe.setup.rented": ("rented", "gemietet"),
    "interview.describe.setup.owned": ("owned", "eigene"),
    "interview.describe.setup.utilization": ("utilisation {mean}", "Auslastung {mean}"),
    "interview.describe.setup.utilization_peak": (
        "utilisation {mean} (peak {peak})",
        "Auslastung {mean} (Spitze {peak})"),
    "interview.describe.setup.servers_in": ("servers in {country}", "Server in {country}"),
    "interview.describe.setup.servers_in_seat": (
        "servers in {country}, provider seat {seat}",
        "Server in {country}, Anbietersitz {seat}"),
    "interview.describe.setup.monitoring_yes": ("Monitoring yes", "Monitoring ja"),
    "interview.describe.setup.monitoring_no": ("Monitoring no", "Monitoring nein"),
    "interview.describe.setup.backups_yes": ("Backups yes", "Backups ja"),
    "interview.describe.setup.backups_no": ("Backups no", "Backups nein"),
    "interview.describe.setup.cores": ("{n} cores", "{n} Kerne"),
    "interview.describe.setup.connected": ("connected by {link}", "verbunden über {link}"),
    "interview.describe.setup.you_run": ("You run {gpu}", "Sie betreiben {gpu}"),
    "interview.describe.setup.for": ("for {model}", "für {model}"),
    "interview.describe.setup.with_load": (
        "with {load} requests per day",
        "mit {load} Anfragen pro Tag"),
    "interview.describe.setup.blank_ownership": ("[rented/owned]", "[gemietet/eigene]"),
    "interview.describe.setup.blank_country": ("[country]", "[Land]"),
    "interview.describe.setup.blank_model": ("[model]", "[Modell]"),
}
"""Key → (English, German)."""
