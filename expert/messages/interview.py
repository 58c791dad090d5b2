"""The interview's own replies (`interview.*`): skipped questions, answers taken for another
question, the end of the interview. The questions themselves are in `expert.interview.questions`;
what a parser could not read is said where it is read (`expert.interview.result.say`), next to
the pattern it concerns.
"""

from __future__ import annotations

MESSAGES: dict[str, tuple[str, str]] = {
    "interview.all_answered": ("All questions are answered.", "Alle Fragen sind beantwortet."),
    "interview.model_needed": ("The model size is needed for everything else.",
                               "Die Modellgrösse braucht es für alles Weitere."),
    "interview.skipped": ("skipped — default: {shown}", "übersprungen — Standard: {shown}"),
    "interview.standard": ("standard assumption", "Standardannahme"),
    "interview.skip.growth": ("no growth assumed", "kein Wachstum angenommen"),
    "interview.skip.dataset": ("the default dataset size, shown as an assumption",
                               "die Standard-Datenmenge, als Annahme ausgewiesen"),
    "interview.skip.site_country": ("own site unknown", "eigener Standort unbekannt"),
    "interview.skip.fine_tuning_method": ("method {method}", "Methode {method}"),
    "interview.skip.volume": ("a typical volume", "ein typisches Volumen"),
    "interview.redirected": ("taken as the answer on “{taken}”; the question on “{asked}” again",
                             "als Angabe «{taken}» genommen; die Frage «{asked}» noch einmal"),
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
    "interview.topic.dataset": ("fine-tuning dataset size", "Datenmenge des Fine-Tunings"),
    "interview.topic.site_country": ("own site's country", "Land des eigenen Standorts"),
    "interview.topic.agent_steps": ("steps per task", "Schritte je Aufgabe"),
    "interview.topic.agent_tool_time": ("tool time per step", "Werkzeugzeit je Schritt"),
    "interview.topic.gpu": ("GPU", "GPU"),
    "interview.topic.ownership": ("rented or owned", "gemietet oder gekauft"),
    "interview.topic.workload": ("workload", "Arbeitslast"),
    "interview.topic.utilization": ("utilisation", "Auslastung"),
    "interview.topic.latency_p95": ("measured p95 latency", "gemessene P95-Latenz"),
    "interview.topic.location": ("server location", "Serverstandort"),
    "interview.topic.interconnect": ("GPU interconnect", "GPU-Verbindung"),
    "interview.topic.operations": ("monitoring and backups", "Überwachung und Backups"),
    "interview.topic.host": ("host (CPU, RAM, storage, network)", "Host (CPU, RAM, Speicher, Netz)"),
}
"""Key → (English, German)."""
