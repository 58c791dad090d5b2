"""The advice interview's questions (`question.<id>.text|example|help`), in plain English and German.

Written for newcomers: no jargon without a one-line explanation. The ids are the flow's step names
(`expert.interview.questions.ORDER`); `example` is a sample answer, `help` a short explanation shown
on `?`. The audit interview's questions are in `setup_questions.py`.
"""

from __future__ import annotations

MESSAGES: dict[str, tuple[str, str]] = {
    "question.precision.text": (
        "May the model run quantised (8-bit or 4-bit) to save GPUs, or must it stay at the precision "
        "you validated?",
        "Darf das Modell quantisiert laufen (8 oder 4 Bit), um GPUs zu sparen, oder muss es in der "
        "Präzision bleiben, die Sie geprüft haben?"),
    "question.precision.example": ("yes, 8-bit is fine  — or: must stay fp16",
                                   "ja, 8 Bit ist in Ordnung  — oder: muss fp16 bleiben"),
    "question.precision.help": (
        "Quantising stores the model's numbers with fewer bits: it needs 2-4 times less GPU memory. "
        "8-bit usually loses under 3 % quality, 4-bit 5-8 % and must be checked on your own task. If "
        "you have validated a checkpoint (e.g. fp16), name it and it is kept. Not sure? 8-bit is allowed.",
        "Quantisieren speichert die Zahlen des Modells mit weniger Bits: es braucht 2- bis 4-mal weniger "
        "GPU-Speicher. 8 Bit verlieren meist unter 3 % Qualität, 4 Bit 5 bis 8 % und müssen an der "
        "eigenen Aufgabe geprüft werden. Haben Sie einen Stand geprüft (z. B. fp16), nennen Sie ihn, er "
        "bleibt. Unsicher? Dann sind 8 Bit erlaubt."),
    "question.model.text": (
        "Which AI model does your agent use, or how big is it (in billions of parameters)?",
        "Welches KI-Modell nutzt Ihr Agent, oder wie gross ist es (in Milliarden Parametern)?"),
    "question.model.example": ("Llama 3.1 8B  — or just: 13B", "Llama 3.1 8B  — oder einfach: 13B"),
    "question.model.help": (
        "The model size decides how much GPU memory is needed. If you know the name (Llama, Mistral, "
        "Qwen, Gemma …) type it; otherwise its size, e.g. 7B = 7 billion.",
        "Die Modellgrösse bestimmt, wie viel GPU-Speicher nötig ist. Kennen Sie den Namen (Llama, "
        "Mistral, Qwen, Gemma …), tippen Sie ihn; sonst die Grösse, z. B. 7B = 7 Mrd."),
    "question.volume.text": (
        "How many requests does the agent handle — per day, per minute or per second?",
        "Wie viele Anfragen bearbeitet der Agent — pro Tag, pro Minute oder pro Sekunde?"),
    "question.volume.example": ("20 000 per day", "20 000 pro Tag"),
    "question.volume.help": (
        "A request is one question to the agent and its answer. A rough number is fine; for a range "
        "like 100–500 the upper value is used.",
        "Eine Anfrage ist eine Frage an den Agenten samt Antwort. Eine grobe Zahl genügt; bei einer "
        "Spanne wie 100–500 zählt der obere Wert."),
    "question.fine_tuning.text": (
        "Will you fine-tune the model on your own data (retrain it), and how often?",
        "Wollen Sie das Modell mit eigenen Daten nachtrainieren (Fine-Tuning), und wie oft?"),
    "question.fine_tuning.example": ("yes, monthly", "ja, monatlich"),
    "question.fine_tuning.help": (
        "Fine-tuning adapts a model to your texts. It needs 3–4 times the GPU memory of answering "
        "questions, so it changes the sizing a lot.",
        "Fine-Tuning passt ein Modell an Ihre Texte an. Es braucht 3- bis 4-mal so viel GPU-Speicher "
        "wie das Beantworten von Anfragen und verändert die Auslegung stark."),
    "question.data.text": (
        "Does the agent work with sensitive data (personal, health, financial, confidential)?",
        "Bearbeitet der Agent sensible Daten (Personen-, Gesundheits-, Finanzdaten, Vertrauliches)?"),
    "question.data.example": ("yes, patient data", "ja, Patientendaten"),
    "question.data.help": (
        "Sensitive data can require servers in Switzerland (revised Swiss data protection act), which "
        "limits the providers.",
        "Sensible Daten können ein Hosting in der Schweiz verlangen (revDSG); das schränkt die "
        "Anbieterwahl ein."),
    "question.latency.text": (
        "How soon must the first words of an answer appear? (for 95 % of the requests)",
        "Wie schnell müssen die ersten Wörter einer Antwort erscheinen? (bei 95 % der Anfragen)"),
    "question.latency.example": ("under 2 seconds", "unter 2 Sekunden"),
    "question.latency.help": (
        "In a chat the answer streams: the first words within about 2 s, then at reading speed. Under "
        "0.5 s is demanding. If a program uses the complete answer, give the time for the whole answer "
        "and say it is not streamed.",
        "Im Chat läuft die Antwort laufend ein: die ersten Wörter innert etwa 2 s, dann in "
        "Lesegeschwindigkeit. Unter 0,5 s ist anspruchsvoll. Verwendet ein Programm die vollständige "
        "Antwort, die Zeit für die ganze Antwort nennen und «nicht gestreamt» sagen."),
    "question.context.text": (
        "How much text does the model read at once — question, history and documents?",
        "Wie viel Text liest das Modell auf einmal — Frage, Verlauf und Dokumente?"),
    "question.context.example": ("8k tokens  (about 12 pages)", "8k Tokens  (etwa 12 Seiten)"),
    "question.context.help": (
        "Measured in tokens; 1 000 tokens ≈ 750 English words ≈ 1.5 pages. The GPU keeps this working "
        "memory for every conversation at the same time.",
        "Gemessen in Tokens; 1000 Tokens ≈ 600 deutsche Wörter ≈ 1,5 Seiten. Die GPU hält dieses "
        "Arbeitsgedächtnis für jedes gleichzeitige Gespräch bereit."),
    "question.fine_tuning_frequency.text": (
        "How often will you fine-tune: weekly, monthly, quarterly or yearly?",
        "Wie oft wollen Sie nachtrainieren: wöchentlich, monatlich, quartalsweise oder jährlich?"),
    "question.fine_tuning_frequency.example": ("monthly", "monatlich"),
    "question.fine_tuning_frequency.help": (
        "More frequent fine-tuning keeps the GPUs busy longer; monthly or more often can justify a "
        "stronger GPU such as the H100.",
        "Häufigeres Fine-Tuning belegt die GPUs länger; monatlich oder öfter kann eine stärkere GPU "
        "wie die H100 rechtfertigen."),
    "question.fine_tuning_method.text": (
        "Which fine-tuning method: full, LoRA or QLoRA? (not sure? type skip)",
        "Welche Methode: volles Fine-Tuning, LoRA oder QLoRA? (unsicher? «überspringen»)"),
    "question.fine_tuning_method.example": ("LoRA", "LoRA"),
    "question.fine_tuning_method.help": (
        "Full fine-tuning changes all weights and needs the most memory; LoRA trains small add-ons; "
        "QLoRA does the same on a compressed model and needs the least.",
        "Volles Fine-Tuning ändert alle Gewichte und braucht am meisten Speicher; LoRA trainiert "
        "kleine Zusätze; QLoRA tut das auf einem komprimierten Modell, am sparsamsten."),
    "question.deployment.text": (
        "Should the GPUs run in the cloud or in your own server room?",
        "Sollen die GPUs in der Cloud laufen oder im eigenen Serverraum?"),
    "question.deployment.example": ("cloud", "Cloud"),
    "question.deployment.help": (
        "In the cloud a provider runs the servers; on premise you host them yourself.",
        "In der Cloud betreibt ein Anbieter die Server; im eigenen Rechenzentrum betreiben Sie sie selbst."),
    "question.yes_no.text": ("Yes or no?", "Ja oder nein?"),
    "question.yes_no.example": ("yes", "ja"),
    "question.yes_no.help": ("Answer yes or no.", "Antworten Sie mit ja oder nein."),
    "question.sector.text": (
        "In which sector do you work: health, finance, public administration or other?",
        "In welcher Branche sind Sie tätig: Gesundheit, Finanzen, öffentliche Verwaltung oder andere?"),
    "question.sector.example": ("health", "Gesundheit"),
    "question.sector.help": (
        "Health, finance and public administration are regulated sectors with stricter rules on where "
        "data may be processed.",
        "Gesundheit, Finanzen und öffentliche Verwaltung sind regulierte Branchen mit strengeren "
        "Regeln, wo Daten bearbeitet werden dürfen."),
    "question.hosting.text": (
        "Where must the servers be: Switzerland only, the EU, or anywhere?",
        "Wo müssen die Server stehen: nur in der Schweiz, in der EU oder egal?"),
    "question.hosting.example": ("Switzerland only", "nur Schweiz"),
    "question.hosting.help": (
        "Some sensitive data must stay in Switzerland; this rules out some cloud offers.",
        "Manche sensiblen Daten müssen in der Schweiz bleiben; das schliesst manche Cloud-Angebote aus."),
    "question.budget.text": (
        "Would you rather rent GPUs (monthly cost, cloud) or buy them (one-off investment)?",
        "Möchten Sie GPUs lieber mieten (monatliche Kosten, Cloud) oder kaufen (einmalige Investition)?"),
    "question.budget.example": ("rent", "mieten"),
    "question.budget.help": (
        "Renting is flexible and starts fast; buying can be cheaper over several years of steady use "
        "but needs a server room, power and cooling.",
        "Mieten ist flexibel und schnell; Kaufen kann über mehrere Jahre gleichmässiger Nutzung "
        "günstiger sein, braucht aber Serverraum, Strom und Kühlung."),
    "question.horizon.text": (
        "Over how many years should the purchase pay off?",
        "Über wie viele Jahre soll sich der Kauf rechnen?"),
    "question.horizon.example": ("3 years", "3 Jahre"),
    "question.horizon.help": (
        "Bought hardware is compared with renting over this period; 3 years is common.",
        "Gekaufte Hardware wird über diesen Zeitraum mit Miete verglichen; üblich sind 3 Jahre."),
    "question.dataset.text": (
        "How much data does one fine-tuning run train on? (tokens, pages, documents or GB; don't know "
        "is fine)",
        "Mit wie vielen Daten trainiert ein Fine-Tuning-Lauf? (Tokens, Seiten, Dokumente oder GB; "
        "weiss nicht geht auch)"),
    "question.dataset.example": ("50M tokens", "50 Mio. Tokens"),
    "question.dataset.help": (
        "The dataset size sets the hours of every run and so its GPUs and cost. Tokens are best; pages "
        "count about 700 tokens each, a GB of plain text about 250 M tokens. Without it the advice "
        "assumes a default and shows it as an assumption.",
        "Die Datenmenge bestimmt die Stunden jedes Laufs und damit GPUs und Kosten. Am besten in "
        "Tokens; eine Seite zählt etwa 700 Tokens, ein GB reiner Text etwa 250 Mio. Tokens. Ohne "
        "Angabe nimmt die Empfehlung einen Standardwert an und weist ihn als Annahme aus."),
    "question.site_country.text": (
        "In which country would bought servers stand — your own site or server room?",
        "In welchem Land stünden gekaufte Server — Ihr eigener Standort oder Serverraum?"),
    "question.site_country.example": ("Switzerland", "Schweiz"),
    "question.site_country.help": (
        "Sensitive data may have to stay in a country; for hardware you buy, that is your own site. "
        "Without it the advice cannot confirm that bought servers meet the hosting requirement.",
        "Sensible Daten müssen unter Umständen in einem Land bleiben; bei gekaufter Hardware ist das "
        "Ihr eigener Standort. Ohne ihn kann die Empfehlung nicht bestätigen, dass gekaufte Server die "
        "Hosting-Vorgabe erfüllen."),
    "question.growth.text": (
        "Will the model get bigger in the next 12–18 months? If so, to what size? (no / don't know is "
        "fine)",
        "Wird das Modell in den nächsten 12–18 Monaten grösser? Wenn ja, wie gross? (nein / weiss "
        "nicht geht auch)"),
    "question.growth.example": ("yes, to 70B", "ja, auf 70B"),
    "question.growth.help": (
        "Models tend to grow; hardware bought for today's size may be too small next year.",
        "Modelle wachsen oft; heute gekaufte Hardware kann nächstes Jahr zu klein sein."),
    # asked only when the description mentions tools (docs/agents.md)
    "question.agent_steps.text": (
        "Your agent uses tools: how many model calls (steps) does one task take — typically, and at "
        "most?",
        "Ihr Agent nutzt Werkzeuge: wie viele Modellaufrufe (Schritte) braucht eine Aufgabe — typisch "
        "und höchstens?"),
    "question.agent_steps.example": ("about 8, up to 20", "etwa 8, bis 20"),
    "question.agent_steps.help": (
        "After every tool result the model is called again and re-reads the growing conversation. "
        "Coding agents take about 8 steps per request, 20 at the 90th percentile (TraceLab).",
        "Nach jedem Werkzeugergebnis wird das Modell erneut aufgerufen und liest das wachsende "
        "Gespräch neu. Coding-Agenten brauchen etwa 8 Schritte pro Anfrage, 20 beim 90. Perzentil "
        "(TraceLab)."),
    "question.agent_tool_time.text": (
        "How long does one tool call take, typically?",
        "Wie lange dauert ein Werkzeugaufruf typischerweise?"),
    "question.agent_tool_time.example": ("2 seconds", "2 Sekunden"),
    "question.agent_tool_time.help": (
        "While a tool runs the conversation stays in GPU memory; long tools mean many sessions held at "
        "once. Coding agents' tools took 16.8 s on average (TraceLab).",
        "Während ein Werkzeug läuft, bleibt das Gespräch im GPU-Speicher; lange Werkzeuge bedeuten "
        "viele gleichzeitig gehaltene Sitzungen. Bei Coding-Agenten dauerten sie im Mittel 16,8 s "
        "(TraceLab)."),
    "question.agent_users.text": (
        "Do people wait for their tasks? If so, how many at once, and how long do they pause between "
        "tasks? (or: tasks per day, nobody waits)",
        "Warten Personen auf ihre Aufgaben? Wenn ja, wie viele gleichzeitig, und wie lange pausieren sie "
        "zwischen Aufgaben? (oder: Aufgaben pro Tag, niemand wartet)"),
    "question.agent_users.example": ("40 developers, 2 minutes between tasks", "40 Entwickler, 2 Minuten Pause"),
    "question.agent_users.help": (
        "People who wait start their next task only after the last one: the load follows their number, "
        "not a daily count. A developer pauses about 1.4 minutes between requests (TraceLab median).",
        "Wer wartet, startet die nächste Aufgabe erst nach der letzten: die Last folgt der Zahl der "
        "Personen, nicht einer Tagesmenge. Entwickler pausieren etwa 1,4 Minuten zwischen Anfragen "
        "(TraceLab-Median)."),
    "question.agent_fan_out.text": (
        "Does one task run sub-agents or parallel tool calls at once? How many?",
        "Startet eine Aufgabe Unteragenten oder parallele Werkzeugaufrufe gleichzeitig? Wie viele?"),
    "question.agent_fan_out.example": ("3 sub-agents", "3 Unteragenten"),
    "question.agent_fan_out.help": (
        "Each sub-agent is a session of its own with its own growing conversation: three at once hold "
        "three times the memory and make three times the steps.",
        "Jeder Unteragent ist eine eigene Sitzung mit eigenem, wachsendem Gespräch: drei gleichzeitig "
        "brauchen dreimal den Speicher und machen dreimal die Schritte."),
    "question.agent_final.text": (
        "How soon should the final answer, the one a person reads, start to appear? (and, if it matters, "
        "the internal steps)",
        "Wie schnell soll die Schlussantwort, die eine Person liest, erscheinen? (und, falls wichtig, die "
        "internen Schritte)"),
    "question.agent_final.example": ("5 s, internal steps 30 s", "5 s, interne Schritte 30 s"),
    "question.agent_final.help": (
        "Internal steps write tool calls nobody reads: only their total time counts. The final answer "
        "is read while it is written: its first words count.",
        "Interne Schritte schreiben Werkzeugaufrufe, die niemand liest: nur ihre Gesamtzeit zählt. Die "
        "Schlussantwort wird beim Schreiben gelesen: ihre ersten Wörter zählen."),
    "question.agent_availability.text": (
        "Must the agent keep working when one server fails (a spare on a second server)?",
        "Muss der Agent weiterlaufen, wenn ein Server ausfällt (Reserve auf einem zweiten Server)?"),
    "question.agent_availability.example": ("yes, it runs around the clock", "ja, er läuft rund um die Uhr"),
    "question.agent_availability.help": (
        "Then the GPUs are split over at least two servers with one replica to spare, so one power "
        "supply or mainboard cannot stop it (000 R3); this costs a second server.",
        "Dann werden die GPUs auf mindestens zwei Server verteilt, mit einem Replikat Reserve, damit "
        "ein Netzteil oder Mainboard ihn nicht stoppt (000 R3); das kostet einen zweiten Server."),
}
"""Key → (English, German)."""
