"""What the interview's answer parsers reply and note, in English and German.

`interview.reply.*`: why an answer was not understood (shown with the question's example answer);
`interview.note.*`: the assumption made in reading one (a range's upper value, a unit taken as
given). The parsers (`expert.interview.*`) say them with `result.fail` and `result.say`, next to
the patterns they concern; the words recognised in what the user types stay there
(`expert.interview.lexicon`).
"""

from __future__ import annotations

MESSAGES: dict[str, tuple[str, str]] = {
    "interview.reply.agent_steps": ("How many steps, e.g. 8?", "Wie viele Schritte, z. B. 8?"),
    "interview.reply.agent_users": (
        "How many people wait for their tasks at once, or is it tasks per day?",
        "Wie viele Personen warten gleichzeitig auf ihre Aufgaben, oder sind es Aufgaben pro Tag?"),
    "interview.reply.agent_fan_out": (
        "How many sub-agents or parallel tool calls at once, e.g. 3 (or none)?",
        "Wie viele Unteragenten oder parallele Werkzeugaufrufe gleichzeitig, z. B. 3 (oder keine)?"),
    "interview.reply.agent_final": (
        "No time found, e.g. 5 seconds.", "Keine Zeit gefunden, z. B. 5 Sekunden."),
    "interview.reply.agent_availability": (
        "Yes (two servers) or no (one is enough)?", "Ja (zwei Server) oder nein (einer reicht)?"),
    "interview.reply.budget": ("Rent or buy?", "Mieten oder kaufen?"),
    "interview.reply.context.is_time": (
        "That is a time, not a length of text.",
        "Das ist eine Zeit, keine Textlänge."),
    "interview.reply.context.none": ("No length found.", "Keine Länge gefunden."),
    "interview.reply.context.is_precision": (
        "That is a precision (bits per weight), not a length of text.",
        "Das ist eine Präzision (Bits pro Gewicht), keine Textlänge."),
    "interview.reply.context.out_of_range": (
        "That length is out of range.",
        "Diese Länge liegt ausserhalb."),
    "interview.reply.data": ("Are the data sensitive or not?", "Sind die Daten sensibel oder nicht?"),
    "interview.reply.dataset.document_length": (
        "How long is one document (tokens or pages)?",
        "Wie lang ist ein Dokument (Tokens oder Seiten)?"),
    "interview.reply.dataset.no_size": (
        "No size found: tokens, pages, documents or gigabytes?",
        "Keine Grösse gefunden: Tokens, Seiten, Dokumente oder Gigabyte?"),
    "interview.reply.dataset.out_of_range": (
        "That dataset size is out of range (10 000 tokens to 10 trillion).",
        "Diese Datenmenge liegt ausserhalb (10 000 Tokens bis 10 Billionen)."),
    "interview.reply.dataset.epochs": (
        "The number of epochs is out of range (more than 0, at most 100).",
        "Die Zahl der Epochen liegt ausserhalb (mehr als 0, höchstens 100)."),
    "interview.reply.deployment": ("Cloud or on premise?", "Cloud oder eigenes Rechenzentrum?"),
    "interview.reply.empty": ("Empty answer.", "Leere Antwort."),
    "interview.reply.fine_tuning": (
        "Please answer yes or no, and how often.",
        "Bitte ja oder nein, und wie oft."),
    "interview.reply.fine_tuning_frequency": ("How often?", "Wie oft?"),
    "interview.reply.fine_tuning_method": ("Full, LoRA or QLoRA?", "Voll, LoRA oder QLoRA?"),
    "interview.reply.gpu.count": ("How many cards? e.g. 2× H100.", "Wie viele Karten? z. B. 2× H100."),
    "interview.reply.gpu.which": (
        "Which GPU? e.g. H100, A100 80GB, L40S.",
        "Welche GPU? z. B. H100, A100 80GB, L40S."),
    "interview.reply.negated": (
        "«{said}» says what you do not want; say what you want instead (the example below)",
        "«{said}» sagt, was Sie nicht wollen; sagen Sie stattdessen, was Sie wollen (Beispiel unten)"),
    "interview.note.growth.none": ("no growth planned: sized for the model as it is",
                                   "kein Wachstum geplant: ausgelegt auf das Modell, wie es ist"),
    "interview.reply.growth": ("What size then, e.g. 70B?", "Welche Grösse dann, z. B. 70B?"),
    "interview.reply.horizon.none": ("No period found.", "Kein Zeitraum gefunden."),
    "interview.reply.horizon.out_of_range": (
        "Between 1 month and 20 years, please.",
        "Bitte zwischen 1 Monat und 20 Jahren."),
    "interview.reply.host": (
        "No CPU cores, RAM or storage found.",
        "Keine CPU-Kerne, kein RAM und kein Speicher gefunden."),
    "interview.reply.hosting": ("Switzerland, EU or anywhere?", "Schweiz, EU oder egal?"),
    "interview.reply.interconnect": ("NVLink or PCIe?", "NVLink oder PCIe?"),
    "interview.reply.latency.is_length": (
        "That is a length of text, not a time.",
        "Das ist eine Textlänge, keine Zeit."),
    "interview.reply.latency.none": ("No time found.", "Keine Zeitangabe gefunden."),
    "interview.reply.latency.out_of_range": (
        "That time is out of range.",
        "Diese Zeit liegt ausserhalb."),
    "interview.reply.latency_p95": (
        "No measured time found (e.g. 0.9 s or 900 ms).",
        "Keine gemessene Zeit gefunden (z. B. 0,9 s oder 900 ms)."),
    "interview.reply.location": (
        "In which country are the servers?",
        "In welchem Land stehen die Server?"),
    "interview.reply.model.none": (
        "No model name or size found.",
        "Kein Modellname und keine Grösse gefunden."),
    "interview.reply.model.not_positive": (
        "The size must be positive.",
        "Die Grösse muss positiv sein."),
    "interview.reply.model.unknown": (
        "I do not know {name}; please give its size, e.g. 13B.",
        "{name} kenne ich nicht; bitte die Grösse angeben, z. B. 13B."),
    "interview.reply.model.which_size": (
        "Which size? Known: {known}.",
        "Welche Grösse? Bekannt: {known}."),
    "interview.reply.operations": (
        "Monitoring yes or no, backups yes or no?",
        "Monitoring ja oder nein, Backups ja oder nein?"),
    "interview.reply.ownership": ("Rented (cloud) or owned?", "Gemietet (Cloud) oder gekauft?"),
    "interview.reply.sector": ("Unknown sector.", "Unbekannte Branche."),
    "interview.reply.sentence": ("None of the four parts found.", "Keiner der vier Teile gefunden."),
    "interview.reply.site_country": (
        "Which country is your own site in (a name or a code such as CH)?",
        "In welchem Land ist Ihr eigener Standort (Name oder Kürzel wie CH)?"),
    "interview.reply.unreadable": ("Could not read that.", "Das konnte ich nicht lesen."),
    "interview.reply.utilization.mean_and_peak": (
        "Average and peak, please (e.g. 35 %, peak 60 %).",
        "Bitte Mittel und Spitze (z. B. 35 %, Spitze 60 %)."),
    "interview.reply.utilization.none": ("No percentage found.", "Keine Prozentangabe gefunden."),
    "interview.reply.utilization.over_100": (
        "Utilisation is at most 100 %.",
        "Die Auslastung ist höchstens 100 %."),
    "interview.reply.volume.is_time": (
        "That is a time, not a number of requests.",
        "Das ist eine Zeit, keine Anzahl Anfragen."),
    "interview.reply.volume.none": ("No number of requests found.", "Keine Anzahl Anfragen gefunden."),
    "interview.reply.volume.not_positive": (
        "The number of requests must be positive.",
        "Die Anzahl Anfragen muss positiv sein."),
    "interview.reply.yes_no": ("Please answer yes or no.", "Bitte ja oder nein."),
    "interview.reply.precision": (
        "Please say whether quantising is fine (yes / no) or name the precision, e.g. fp16.",
        "Bitte sagen, ob Quantisieren in Ordnung ist (ja / nein), oder die Präzision nennen, z. B. fp16."),
    "interview.note.precision.open": (
        "precision open: the model may run in 8-bit (fp8, int8; usually < 3 % quality loss, 000 Q2)",
        "Präzision offen: das Modell darf in 8 Bit laufen (fp8, int8; meist < 3 % Qualitätsverlust, 000 Q2)"),
    "interview.note.precision.int4": (
        "precision open, 4-bit included (int4 loses 5-8 % and needs validation on your task, 000 Q2)",
        "Präzision offen, 4 Bit eingeschlossen (int4 verliert 5 bis 8 % und verlangt eine Prüfung an der "
        "eigenen Aufgabe, 000 Q2)"),
    "interview.note.precision.kept": (
        "{precision} is kept as stated; cheaper quantised options are shown beside it",
        "{precision} bleibt wie festgelegt; günstigere quantisierte Varianten werden daneben gezeigt"),
    "interview.note.precision.kept16": (
        "the format it ships in (gpt-oss: MXFP4), else 16-bit (fp16); name your precision (e.g. bf16) if it "
        "differs",
        "das Format, in dem es ausgeliefert wird (gpt-oss: MXFP4), sonst 16 Bit (fp16); nennen Sie Ihre "
        "Präzision (z. B. bf16), falls sie abweicht"),

    "interview.note.agent_steps.high": (
        "high count: 2.6 × typical (TraceLab)",
        "hohe Zahl: 2,6 × typisch (TraceLab)"),
    "interview.note.agent_defaults": (
        "by default the session's KV stays on the GPU while a tool runs and its next step returns to the same "
        "replica; agent.kv_during_tools and agent.session_affinity change that",
        "standardmässig bleibt der KV der Sitzung während des Werkzeugs auf der GPU und ihr nächster Schritt "
        "kehrt zum selben Replikat zurück; agent.kv_during_tools und agent.session_affinity ändern das"),
    "interview.note.agent_users.per_day": (
        "tasks per day: the volume counts tasks (open loop)",
        "Aufgaben pro Tag: die Menge zählt Aufgaben (offene Schleife)"),
    "interview.note.agent_users.batch": (
        "nobody waits: a batch whose volume counts tasks, without a peak factor (agent.batch)",
        "niemand wartet: ein Batch, dessen Menge Aufgaben zählt, ohne Spitzenfaktor (agent.batch)"),
    "interview.note.agent_users.think": (
        "pause between tasks: 84 s assumed (TraceLab median)",
        "Pause zwischen Aufgaben: 84 s angenommen (TraceLab-Median)"),
    "interview.note.agent_availability": (
        "two failure domains: the replicas the peak needs plus one, on at least two servers, 000 R3",
        "zwei Ausfallbereiche: die Replikate für die Spitze plus eines, auf mindestens zwei Servern, 000 R3"),
    "interview.note.billions": ("read as billions of parameters", "als Milliarden Parameter gelesen"),
    "interview.note.budget.cloud": ("cloud: rent", "Cloud: Miete"),
    "interview.note.budget.own_premises": ("own premises: buy", "eigene Räume: Kauf"),
    "interview.note.context.a_few_pages": (
        "“a few” read as 3 pages, about 700 tokens each",
        "«ein paar» als 3 Seiten gelesen, je etwa 700 Tokens"),
    "interview.note.context.thousands": ("read as thousands of tokens", "als Tausend Tokens gelesen"),
    "interview.note.dataset.bytes_per_token": (
        "about 4 bytes of text per token (own estimate)",
        "etwa 4 Byte Text pro Token (eigene Schätzung)"),
    "interview.note.dataset.tokens": ("read as tokens", "als Tokens gelesen"),
    "interview.note.fine_tuning.assumed": (
        "how often? quarterly assumed for now",
        "wie oft? vorläufig quartalsweise angenommen"),
    "interview.note.fine_tuning.daily": ("daily", "täglich"),
    "interview.note.fine_tuning.half_yearly": ("half-yearly", "halbjährlich"),
    "interview.note.fine_tuning.once": ("once", "einmalig"),
    "interview.note.fine_tuning.few_a_year": ("a few times a year", "ein paar Mal im Jahr"),
    "interview.note.fine_tuning.few_months": ("every couple of months", "alle paar Monate"),
    "interview.note.fine_tuning.said_taken_as": (
        "{said}: taken as {freq}",
        "{said}: als {freq} gerechnet"),
    "interview.note.fine_tuning.taken_as": ("taken as {freq}", "als {freq} gerechnet"),
    "interview.note.horizon.months": ("read as months", "als Monate gelesen"),
    "interview.note.horizon.range": (
        "range: the shorter period is used",
        "Spanne: der kürzere Zeitraum gilt"),
    "interview.note.horizon.years": ("read as years", "als Jahre gelesen"),
    "interview.note.host.ram": ("the size in GB is read as RAM", "die Grösse in GB gilt als RAM"),
    "interview.note.hosting.ch_or_eu": ("Switzerland or EU: EU allowed", "Schweiz oder EU: EU erlaubt"),
    "interview.note.latency.ms": ("read as milliseconds", "als Millisekunden gelesen"),
    "interview.note.latency.range": (
        "range: the stricter value is used",
        "Spanne: der strengere Wert gilt"),
    "interview.note.latency.real_time": ("real time: 0.5 s assumed", "Echtzeit: 0,5 s angenommen"),
    "interview.note.latency.s": ("read as seconds", "als Sekunden gelesen"),
    "interview.note.location.hyperscaler": (
        "hyperscaler: provider seat US",
        "Hyperscaler: Anbietersitz USA"),
    "interview.note.model.generic": (
        "{name} is not in the catalog; sized as a generic {label}B model",
        "{name} ist nicht im Katalog; als generisches {label}B-Modell gerechnet"),
    "interview.note.model.moe_total": (
        "read as {size}B parameters in total",
        "als insgesamt {size}B Parameter gelesen"),
    "interview.note.model.only": (
        "took {model}, the only {family} in the catalog",
        "{model} gewählt, das einzige {family}-Modell im Katalog"),
    "interview.note.model.took": ("took {model}", "{model} gewählt"),
    "interview.note.model.took_also": (
        "took {model} (also in the catalog: {also})",
        "{model} gewählt (ebenfalls im Katalog: {also})"),
    "interview.note.no_preference": (
        "no preference: the default applies",
        "keine Vorgabe: es gilt der Standardwert"),
    "interview.note.range_upper": ("range: the upper value is used", "Spanne: der obere Wert gilt"),
    "interview.note.site_country.open": (
        "the hosting names no single country: own site left open",
        "das Hosting nennt kein einzelnes Land: eigener Standort offen"),
    "interview.note.site_country.same_as_hosting": (
        "same as the hosting: Switzerland",
        "wie das Hosting: Schweiz"),
    "interview.note.site_country.several": (
        "several countries: own site {country}",
        "mehrere Länder: eigener Standort {country}"),
    "interview.note.tokens_per_page": ("about {n} tokens per page", "etwa {n} Tokens pro Seite"),
    "interview.note.tokens_per_word": ("about 1.4 tokens per word", "etwa 1,4 Tokens pro Wort"),
    "interview.note.volume.a_few": ("“a few” read as 3", "«ein paar» als 3 gelesen"),
    "interview.note.volume.per_day": ("= {value} per day", "= {value} pro Tag"),
    "interview.note.volume.per_minute": ("{n} per minute", "{n} pro Minute"),
    "interview.note.volume.office_hours": (
        "{rate} read as the peak during {hours} office hours",
        "{rate} als Spitze während {hours} Bürostunden gelesen"),
    "interview.note.volume.rate_is_peak": (
        "{rate} sized as the peak rate (say “on average” or “during office hours” otherwise)",
        "{rate} als Spitzenlast gerechnet (sonst «im Schnitt» oder «während der Bürozeiten» sagen)"),
    "interview.note.volume.rate_is_average": (
        "{rate} read as the average around the clock",
        "{rate} als Durchschnitt rund um die Uhr gelesen"),
    "interview.note.volume.per_day_assumed": (
        "no time unit given: read as per day",
        "keine Zeiteinheit: als pro Tag gelesen"),
    "interview.note.volume.per_user": ("{users} × {each} requests", "{users} × {each} Anfragen"),
    "interview.note.volume.range": (
        "range: sized for the upper value {value}",
        "Spanne: ausgelegt auf den oberen Wert {value}"),
    "interview.note.volume.under_one": (
        "fewer than one a day: sized for 1 per day",
        "weniger als eine pro Tag: ausgelegt auf 1 pro Tag"),
}
"""Key → (English, German)."""
