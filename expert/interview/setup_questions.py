"""The audit interview's questions (an existing setup), in plain English and German.

Asked when someone has no setup file: `/audit` alone in the chat. Each question fills fields of the
setup file of CONTRACT.md; every one but the GPU can be skipped (the audit then checks less).
"""

from __future__ import annotations

SETUP_QUESTIONS: dict[str, dict[str, tuple[str, str, str]]] = {
    "gpu": {
        "en": ("Which GPUs do you run today, and how many?", "2× H100 SXM",
               "The GPU model as your provider or nvidia-smi names it (H100, A100 80GB, L40S, "
               "RTX 4090 …) and the number of cards serving the agent."),
        "de": ("Welche GPUs betreiben Sie heute, und wie viele?", "2× H100 SXM",
               "Das GPU-Modell, wie Anbieter oder nvidia-smi es nennen (H100, A100 80GB, L40S, "
               "RTX 4090 …), und die Zahl der Karten, die den Agenten bedienen."),
    },
    "ownership": {
        "en": ("Do you rent these GPUs (cloud) or own them?", "rented",
               "Rented GPUs cost every month, owned ones once; the audit compares both."),
        "de": ("Mieten Sie diese GPUs (Cloud) oder gehören sie Ihnen?", "gemietet",
               "Gemietete GPUs kosten jeden Monat, eigene einmal; das Audit vergleicht beides."),
    },
    "workload": {
        "en": ("What runs on them? The model, requests per day, fine-tuning yes/no, sensitive data.",
               "Llama 3.1 8B, 20 000 per day, no fine-tuning, patient data",
               "The clarification sentence of document 000: with it the audit can tell whether the "
               "GPUs are too big, too small or in the wrong place for the work they do."),
        "de": ("Was läuft darauf? Modell, Anfragen pro Tag, Fine-Tuning ja/nein, sensible Daten.",
               "Llama 3.1 8B, 20 000 pro Tag, kein Fine-Tuning, Patientendaten",
               "Der Bedarfsklärungssatz aus Dokument 000: damit erkennt das Audit, ob die GPUs für "
               "die Arbeit zu gross, zu klein oder am falschen Ort sind."),
    },
    "utilization": {
        "en": ("How busy are the GPUs — on average, and at the peak (in %)?", "35 %, peak 60 %",
               "GPU utilisation as your monitoring or `nvidia-smi` shows it. Document 000 aims at "
               "60–80 %; many high-end GPUs serving chat agents run under 40 % (mistake 1)."),
        "de": ("Wie ausgelastet sind die GPUs — im Mittel und in der Spitze (in %)?",
               "35 %, Spitze 60 %",
               "Die GPU-Auslastung laut Monitoring oder `nvidia-smi`. Dokument 000 zielt auf "
               "60–80 %; viele High-End-GPUs für Chat-Agenten laufen unter 40 % (Fehler 1)."),
    },
    "latency_p95": {
        "en": ("How long do 95 % of the answers take at most (p95 response time)?", "0.9 s",
               "The response time measured at the agent: 95 of 100 answers are faster than this."),
        "de": ("Wie lange dauern 95 % der Antworten höchstens (p95-Antwortzeit)?", "0,9 s",
               "Die am Agenten gemessene Antwortzeit: 95 von 100 Antworten sind schneller."),
    },
    "location": {
        "en": ("In which country are the servers, and where is the provider based (if elsewhere)?",
               "Frankfurt, provider in the US",
               "Some sensitive data must be hosted in Switzerland (revDSG); document 000 then asks "
               "for a provider with its seat in Switzerland too (mistake 4)."),
        "de": ("In welchem Land stehen die Server, und wo hat der Anbieter seinen Sitz (falls "
               "anderswo)?", "Frankfurt, Anbieter aus den USA",
               "Manche sensiblen Daten müssen in der Schweiz gehostet werden (revDSG); Dokument 000 "
               "verlangt dann auch einen Anbieter mit Sitz in der Schweiz (Fehler 4)."),
    },
    "interconnect": {
        "en": ("How are the GPUs connected to each other: NVLink or PCIe?", "PCIe",
               "Splitting one model over several GPUs needs a fast link (NVLink); over PCIe it "
               "slows down (document 004)."),
        "de": ("Wie sind die GPUs miteinander verbunden: NVLink oder PCIe?", "PCIe",
               "Ein Modell über mehrere GPUs zu verteilen braucht eine schnelle Verbindung "
               "(NVLink); über PCIe wird es langsamer (Dokument 004)."),
    },
    "operations": {
        "en": ("Do you monitor the GPUs, and do you have backups?", "monitoring yes, backups no",
               "Document 000 asks for GPU monitoring (utilisation, temperature, memory errors) and "
               "a backup plan for fine-tuned models and configurations (rollout, phase 3)."),
        "de": ("Überwachen Sie die GPUs, und haben Sie Backups?", "Monitoring ja, Backups nein",
               "Dokument 000 verlangt GPU-Monitoring (Auslastung, Temperatur, Speicherfehler) und "
               "einen Backup-Plan für feinjustierte Modelle und Konfigurationen (Rollout, Phase 3)."),
    },
    "host": {
        "en": ("And the server around the GPUs: CPU cores, RAM, storage (NVMe, SSD, HDD, network)?",
               "32 cores, 384 GB RAM, NVMe",
               "Too few CPU cores, too little RAM or slow disks leave expensive GPUs waiting; "
               "document 000 asks for ≥ 32 cores, RAM 4× the GPU memory, NVMe (mistake 3)."),
        "de": ("Und der Server um die GPUs: CPU-Kerne, RAM, Speicher (NVMe, SSD, HDD, Netzwerk)?",
               "32 Kerne, 384 GB RAM, NVMe",
               "Zu wenige CPU-Kerne, zu wenig RAM oder langsame Platten lassen teure GPUs warten; "
               "Dokument 000 verlangt ≥ 32 Kerne, RAM 4× GPU-Speicher, NVMe (Fehler 3)."),
    },
}
"""Question id → language → (question, example answer, help)."""

SETUP_ORDER = ("gpu", "ownership", "workload", "utilization", "latency_p95", "location",
               "interconnect", "operations", "host")
"""The audit interview's questions in order (`interconnect` only for more than one GPU)."""
