"""The audit interview's questions (`question.<id>.text|example|help`), in plain English and German.

Asked when someone has no setup file: `/audit` alone in the chat. Each question fills fields of the
setup file of CONTRACT.md; every one but the GPU can be skipped (the audit then checks less). The
order is `expert.interview.setup_questions.SETUP_ORDER`.
"""

from __future__ import annotations

MESSAGES: dict[str, tuple[str, str]] = {
    "question.gpu.text": (
        "Which GPUs do you run today, and how many?",
        "Welche GPUs betreiben Sie heute, und wie viele?"),
    "question.gpu.example": ("2× H100 SXM", "2× H100 SXM"),
    "question.gpu.help": (
        "The GPU model as your provider or nvidia-smi names it (H100, A100 80GB, L40S, RTX 4090 …) and "
        "the number of cards serving the agent.",
        "Das GPU-Modell, wie Anbieter oder nvidia-smi es nennen (H100, A100 80GB, L40S, RTX 4090 …), "
        "und die Zahl der Karten, die den Agenten bedienen."),
    "question.ownership.text": (
        "Do you rent these GPUs (cloud) or own them?",
        "Mieten Sie diese GPUs (Cloud) oder gehören sie Ihnen?"),
    "question.ownership.example": ("rented", "gemietet"),
    "question.ownership.help": (
        "Rented GPUs cost every month, owned ones once; the audit compares both.",
        "Gemietete GPUs kosten jeden Monat, eigene einmal; das Audit vergleicht beides."),
    "question.workload.text": (
        "What runs on them? The model, requests per day, fine-tuning yes/no, sensitive data.",
        "Was läuft darauf? Modell, Anfragen pro Tag, Fine-Tuning ja/nein, sensible Daten."),
    "question.workload.example": (
        "Llama 3.1 8B, 20 000 per day, no fine-tuning, patient data",
        "Llama 3.1 8B, 20 000 pro Tag, kein Fine-Tuning, Patientendaten"),
    "question.workload.help": (
        "The clarification sentence of document 000: with it the audit can tell whether the GPUs are "
        "too big, too small or in the wrong place for the work they do.",
        "Der Bedarfsklärungssatz aus Dokument 000: damit erkennt das Audit, ob die GPUs für die Arbeit "
        "zu gross, zu klein oder am falschen Ort sind."),
    "question.utilization.text": (
        "How busy are the GPUs — on average, and at the peak (in %)?",
        "Wie ausgelastet sind die GPUs — im Mittel und in der Spitze (in %)?"),
    "question.utilization.example": ("35 %, peak 60 %", "35 %, Spitze 60 %"),
    "question.utilization.help": (
        "GPU utilisation as your monitoring or `nvidia-smi` shows it. Document 000 aims at 60–80 %; "
        "many high-end GPUs serving chat agents run under 40 % (mistake 1).",
        "Die GPU-Auslastung laut Monitoring oder `nvidia-smi`. Dokument 000 zielt auf 60–80 %; viele "
        "High-End-GPUs für Chat-Agenten laufen unter 40 % (Fehler 1)."),
    "question.latency_p95.text": (
        "How long do 95 % of the answers take at most (p95 response time)?",
        "Wie lange dauern 95 % der Antworten höchstens (p95-Antwortzeit)?"),
    "question.latency_p95.example": ("0.9 s", "0,9 s"),
    "question.latency_p95.help": (
        "The response time measured at the agent: 95 of 100 answers are faster than this.",
        "Die am Agenten gemessene Antwortzeit: 95 von 100 Antworten sind schneller."),
    "question.location.text": (
        "In which country are the servers, and where is the provider based (if elsewhere)?",
        "In welchem Land stehen die Server, und wo hat der Anbieter seinen Sitz (falls anderswo)?"),
    "question.location.example": ("Frankfurt, provider in the US", "Frankfurt, Anbieter aus den USA"),
    "question.location.help": (
        "Some sensitive data must be hosted in Switzerland (revDSG); document 000 then asks for a "
        "provider with its seat in Switzerland too (mistake 4).",
        "Manche sensiblen Daten müssen in der Schweiz gehostet werden (revDSG); Dokument 000 verlangt "
        "dann auch einen Anbieter mit Sitz in der Schweiz (Fehler 4)."),
    "question.interconnect.text": (
        "How are the GPUs connected to each other: NVLink or PCIe?",
        "Wie sind die GPUs miteinander verbunden: NVLink oder PCIe?"),
    "question.interconnect.example": ("PCIe", "PCIe"),
    "question.interconnect.help": (
        "Splitting one model over several GPUs needs a fast link (NVLink); over PCIe it slows down "
        "(document 004).",
        "Ein Modell über mehrere GPUs zu verteilen braucht eine schnelle Verbindung (NVLink); über "
        "PCIe wird es langsamer (Dokument 004)."),
    "question.operations.text": (
        "Do you monitor the GPUs, and do you have backups?",
        "Überwachen Sie die GPUs, und haben Sie Backups?"),
    "question.operations.example": ("monitoring yes, backups no", "Monitoring ja, Backups nein"),
    "question.operations.help": (
        "Document 000 asks for GPU monitoring (utilisation, temperature, memory errors) and a backup "
        "plan for fine-tuned models and configurations (rollout, phase 3).",
        "Dokument 000 verlangt GPU-Monitoring (Auslastung, Temperatur, Speicherfehler) und einen "
        "Backup-Plan für feinjustierte Modelle und Konfigurationen (Rollout, Phase 3)."),
    "question.host.text": (
        "And the server around the GPUs: CPU cores, RAM, storage (NVMe, SSD, HDD, network)?",
        "Und der Server um die GPUs: CPU-Kerne, RAM, Speicher (NVMe, SSD, HDD, Netzwerk)?"),
    "question.host.example": ("32 cores, 384 GB RAM, NVMe", "32 Kerne, 384 GB RAM, NVMe"),
    "question.host.help": (
        "Too few CPU cores, too little RAM or slow disks leave expensive GPUs waiting; document 000 "
        "asks for ≥ 32 cores, RAM 4× the GPU memory, NVMe (mistake 3).",
        "Zu wenige CPU-Kerne, zu wenig RAM oder langsame Platten lassen teure GPUs warten; Dokument "
        "000 verlangt ≥ 32 Kerne, RAM 4× GPU-Speicher, NVMe (Fehler 3)."),
}
"""Key → (English, German)."""
