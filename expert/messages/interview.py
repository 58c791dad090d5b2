"""The interview's own replies (`interview.*`): skipped questions, answers taken for another
question, the end of the interview, the documents' defaults offered for a vague answer
(`interview.propose.*`) and the audit interview's own replies (`interview.setup.*`). The questions
are in `questions.py` and `setup_questions.py`; what a parser could not read or had to assume in
`replies.py` (`interview.reply.*`, `interview.note.*`).
"""

from __future__ import annotations

MESSAGES: dict[str, tuple[str, str]] = {
    "interview.all_answered": ("All questions are answered.", "Alle Fragen sind beantwortet."),
    "interview.model_needed": ("The model size is needed for everything else.",
                               "Die Modellgrösse braucht es für alles Weitere."),
    "interview.skipped": ("skipped — default: {shown}", "übersprungen — Standard: {shown}"),
    "interview.skipped_standard": ("skipped — the standard assumption applies",
                                   "übersprungen — es gilt die Standardannahme"),
    "interview.skip.growth": ("no growth assumed", "kein Wachstum angenommen"),
    "interview.skip.agent_users": (
        "tasks per day from the volume (open loop)", "Aufgaben pro Tag aus der Menge (offene Schleife)"),
    "interview.skip.agent_fan_out": ("one session per task", "eine Sitzung pro Aufgabe"),
    "interview.skip.agent_final": (
        "every step within the per-step target", "jeder Schritt im Ziel pro Schritt"),
    "interview.skip.agent_availability": (
        "one failure domain (no spare server)", "ein Ausfallbereich (kein Ersatzserver)"),
    "interview.skip.precision": ("precision open: 8-bit allowed (000 Q2)", "Präzision offen: 8 Bit erlaubt (000 Q2)"),
    "interview.skip.dataset": ("the default dataset size, shown as an assumption",
                               "die Standard-Datenmenge, als Annahme ausgewiesen"),
    "interview.skip.site_country": ("own site unknown", "eigener Standort unbekannt"),
    "interview.skip.fine_tuning_method": ("method {method}", "Methode {method}"),
    "interview.skip.volume": ("a typical volume", "ein typisches Volumen"),
    "interview.redirected": ("taken as the answer on “{taken}”; the question on “{asked}” again",
                             "als Angabe «{taken}» genommen; die Frage «{asked}» noch einmal"),
    "interview.corrected": ("corrected: your answer on “{taken}”", "korrigiert: Ihre Angabe «{taken}»"),
    "interview.taken_for": ("taken as the answer on “{taken}”", "als Angabe «{taken}» genommen"),
    "interview.partial.dataset": (
        "{docs} documents noted — how long is one document (pages or tokens)?",
        "{docs} Dokumente notiert — wie lang ist ein Dokument (Seiten oder Tokens)?"),
    "interview.what_if": ("changed after the interview", "nach dem Interview geändert"),
    "interview.note.not_understood": ("not understood, so not applied: {parts}",
                                      "nicht verstanden, daher nicht übernommen: {parts}"),
    "interview.note.negated": (
        "«{said}» says what you do not want, so it is not applied; say what you want instead",
        "«{said}» sagt, was Sie nicht wollen, daher nicht übernommen; sagen Sie, was Sie wollen"),
    "interview.what_if.not_understood": ("not understood, so not changed: {parts}",
                                         "nicht verstanden, daher nicht geändert: {parts}"),
    "interview.example": ("Example", "Beispiel"),
    "interview.topic.latency": ("response time", "Antwortzeit"),
    "interview.topic.context": ("context length", "Kontextlänge"),
    "interview.topic.hosting": ("server location", "Serverstandort"),
    "interview.topic.model": ("model", "Modell"),
    "interview.topic.volume": ("number of requests", "Anzahl Anfragen"),
    "interview.topic.budget": ("rent or buy", "Miete oder Kauf"),
    "interview.topic.fine_tuning": ("fine-tuning", "Fine-Tuning"),
    "interview.topic.sector": ("sector", "Branche"),
    "interview.topic.data": ("data", "Daten"),
    "interview.topic.fine_tuning_frequency": ("fine-tuning frequency", "Fine-Tuning-Häufigkeit"),
    "interview.topic.fine_tuning_method": ("fine-tuning method", "Fine-Tuning-Methode"),
    "interview.topic.deployment": ("cloud or on-premise", "Cloud oder eigenes Rechenzentrum"),
    "interview.topic.yes_no": ("yes or no", "Ja oder Nein"),
    "interview.topic.horizon": ("planning horizon", "Planungshorizont"),
    "interview.topic.growth": ("model growth", "Modellwachstum"),
    "interview.topic.precision": ("precision (quantisation)", "Präzision (Quantisierung)"),
    "interview.topic.dataset": ("fine-tuning dataset size", "Datenmenge des Fine-Tunings"),
    "interview.topic.site_country": ("own site's country", "Land des eigenen Standorts"),
    "interview.topic.agent_steps": ("steps per task", "Schritte je Aufgabe"),
    "interview.topic.agent_tool_time": ("tool time per step", "Werkzeugzeit je Schritt"),
    "interview.topic.agent_users": ("people waiting at once", "gleichzeitig wartende Personen"),
    "interview.topic.agent_fan_out": ("sub-agents at once", "gleichzeitige Unteragenten"),
    "interview.topic.agent_final": ("final answer's time", "Zeit der Schlussantwort"),
    "interview.topic.agent_availability": ("two failure domains", "zwei Ausfallbereiche"),
    "interview.topic.gpu": ("GPU", "GPU"),
    "interview.topic.ownership": ("rented or owned", "gemietet oder gekauft"),
    "interview.topic.workload": ("workload", "Arbeitslast"),
    "interview.topic.utilization": ("utilisation", "Auslastung"),
    "interview.topic.latency_p95": ("measured p95 latency", "gemessene P95-Latenz"),
    "interview.topic.location": ("server location", "Serverstandort"),
    "interview.topic.interconnect": ("GPU interconnect", "GPU-Verbindung"),
    "interview.topic.operations": ("monitoring and backups", "Überwachung und Backups"),
    "interview.topic.host": ("host (CPU, RAM, storage, network)", "Host (CPU, RAM, Speicher, Netz)"),
    "interview.propose.model": (
        "13B — document 000 U1: conversational (RAG) chat agents use 7–13B models; sized for the upper "
        "end. Take it? (yes, or type another size or model)",
        "13B — Dokument 000 U1: Chat-Agenten mit RAG nutzen Modelle von 7–13B; ausgelegt auf das obere "
        "Ende. Übernehmen? (ja, oder eine andere Grösse bzw. ein Modell eingeben)"),
    "interview.propose.latency": (
        "2 s — document 000 U1: a chat agent's target latency is under 2 s. Take it? (yes, or type a "
        "time such as 0.5 s)",
        "2 s — Dokument 000 U1: Ziel-Latenz eines Chat-Agenten unter 2 s. Übernehmen? (ja, oder eine "
        "Zeit wie 0,5 s eingeben)"),
    "interview.propose.sector": (
        "“other” — not one of the regulated sectors of document 000 (health, finance, public "
        "administration). Right? (yes, or name the sector)",
        "«andere» — keine der regulierten Branchen aus Dokument 000 (Gesundheit, Finanzen, öffentliche "
        "Verwaltung). Stimmt das? (ja, oder die Branche nennen)"),
    "interview.setup.skipped": (
        "skipped — the audit checks less",
        "übersprungen — das Audit prüft dann weniger"),
    "interview.setup.all_answered": (
        "All questions are answered; change a value with /set, e.g. /set utilization.mean 0.6",
        "Alle Fragen sind beantwortet; Werte ändern mit /set, z. B. /set utilization.mean 0.6"),
    "interview.setup.which_model": (
        "Which model runs on the GPUs?",
        "Welches Modell läuft auf den GPUs?"),
    "interview.setup.gpu_needed": (
        "The audit needs to know the GPU.",
        "Für das Audit braucht es die GPU."),
}
"""Key → (English, German)."""
