"""The interview's questions in plain English and German, with an example answer and a short help.

Written for newcomers: no jargon without a one-line explanation. The ids are the flow's step names;
`parser` names the answer parser in `expert.interview.parse`.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Question:
    """One question as shown to the user, already in the chosen language."""

    id: str
    text: str
    example: str
    help: str
    skippable: bool = True


_Q: dict[str, dict[str, tuple[str, str, str]]] = {
    "model": {
        "en": ("Which AI model does your agent use, or how big is it (in billions of parameters)?",
               "Llama 3.1 8B  — or just: 13B",
               "The model size decides how much GPU memory is needed. If you know the name "
               "(Llama, Mistral, Qwen, Gemma …) type it; otherwise its size, e.g. 7B = 7 billion."),
        "de": ("Welches KI-Modell nutzt Ihr Agent, oder wie gross ist es (in Milliarden Parametern)?",
               "Llama 3.1 8B  — oder einfach: 13B",
               "Die Modellgrösse bestimmt, wie viel GPU-Speicher nötig ist. Kennen Sie den Namen "
               "(Llama, Mistral, Qwen, Gemma …), tippen Sie ihn; sonst die Grösse, z. B. 7B = 7 Mrd."),
    },
    "volume": {
        "en": ("How many requests does the agent handle — per day, per minute or per second?",
               "20 000 per day",
               "A request is one question to the agent and its answer. A rough number is fine; "
               "for a range like 100–500 the upper value is used."),
        "de": ("Wie viele Anfragen bearbeitet der Agent — pro Tag, pro Minute oder pro Sekunde?",
               "20 000 pro Tag",
               "Eine Anfrage ist eine Frage an den Agenten samt Antwort. Eine grobe Zahl genügt; "
               "bei einer Spanne wie 100–500 zählt der obere Wert."),
    },
    "fine_tuning": {
        "en": ("Will you fine-tune the model on your own data (retrain it), and how often?",
               "yes, monthly",
               "Fine-tuning adapts a model to your texts. It needs 3–4 times the GPU memory of "
               "answering questions, so it changes the sizing a lot."),
        "de": ("Wollen Sie das Modell mit eigenen Daten nachtrainieren (Fine-Tuning), und wie oft?",
               "ja, monatlich",
               "Fine-Tuning passt ein Modell an Ihre Texte an. Es braucht 3- bis 4-mal so viel "
               "GPU-Speicher wie das Beantworten von Anfragen und verändert die Auslegung stark."),
    },
    "data": {
        "en": ("Does the agent work with sensitive data (personal, health, financial, confidential)?",
               "yes, patient data",
               "Sensitive data can require servers in Switzerland (revised Swiss data protection "
               "act), which limits the providers."),
        "de": ("Bearbeitet der Agent sensible Daten (Personen-, Gesundheits-, Finanzdaten, "
               "Vertrauliches)?", "ja, Patientendaten",
               "Sensible Daten können ein Hosting in der Schweiz verlangen (revDSG); das schränkt "
               "die Anbieterwahl ein."),
    },
    "latency": {
        "en": ("How soon must the first words of an answer appear? (for 95 % of the requests)",
               "under 2 seconds",
               "In a chat the answer streams: the first words within about 2 s, then at reading speed. "
               "Under 0.5 s is demanding. If a program uses the complete answer, give the time for the "
               "whole answer and say it is not streamed."),
        "de": ("Wie schnell müssen die ersten Wörter einer Antwort erscheinen? (bei 95 % der Anfragen)",
               "unter 2 Sekunden",
               "Im Chat läuft die Antwort laufend ein: die ersten Wörter innert etwa 2 s, dann in "
               "Lesegeschwindigkeit. Unter 0,5 s ist anspruchsvoll. Verwendet ein Programm die "
               "vollständige Antwort, die Zeit für die ganze Antwort nennen und «nicht gestreamt» sagen."),
    },
    "context": {
        "en": ("How much text does the model read at once — question, history and documents?",
               "8k tokens  (about 12 pages)",
               "Measured in tokens; 1 000 tokens ≈ 750 English words ≈ 1.5 pages. The GPU keeps "
               "this working memory for every conversation at the same time."),
        "de": ("Wie viel Text liest das Modell auf einmal — Frage, Verlauf und Dokumente?",
               "8k Tokens  (etwa 12 Seiten)",
               "Gemessen in Tokens; 1000 Tokens ≈ 600 deutsche Wörter ≈ 1,5 Seiten. Die GPU hält "
               "dieses Arbeitsgedächtnis für jedes gleichzeitige Gespräch bereit."),
    },
    "fine_tuning_frequency": {
        "en": ("How often will you fine-tune: weekly, monthly, quarterly or yearly?", "monthly",
               "More frequent fine-tuning keeps the GPUs busy longer; monthly or more often can "
               "justify a stronger GPU such as the H100."),
        "de": ("Wie oft wollen Sie nachtrainieren: wöchentlich, monatlich, quartalsweise oder "
               "jährlich?", "monatlich",
               "Häufigeres Fine-Tuning belegt die GPUs länger; monatlich oder öfter kann eine "
               "stärkere GPU wie die H100 rechtfertigen."),
    },
    "fine_tuning_method": {
        "en": ("Which fine-tuning method: full, LoRA or QLoRA? (not sure? type skip)", "LoRA",
               "Full fine-tuning changes all weights and needs the most memory; LoRA trains small "
               "add-ons; QLoRA does the same on a compressed model and needs the least."),
        "de": ("Welche Methode: volles Fine-Tuning, LoRA oder QLoRA? (unsicher? «überspringen»)",
               "LoRA",
               "Volles Fine-Tuning ändert alle Gewichte und braucht am meisten Speicher; LoRA "
               "trainiert kleine Zusätze; QLoRA tut das auf einem komprimierten Modell, am sparsamsten."),
    },
    "deployment": {
        "en": ("Should the GPUs run in the cloud or in your own server room?", "cloud",
               "In the cloud a provider runs the servers; on premise you host them yourself."),
        "de": ("Sollen die GPUs in der Cloud laufen oder im eigenen Serverraum?", "Cloud",
               "In der Cloud betreibt ein Anbieter die Server; on premise betreiben Sie sie selbst."),
    },
    "yes_no": {
        "en": ("Yes or no?", "yes", "Answer yes or no."),
        "de": ("Ja oder nein?", "ja", "Antworten Sie mit ja oder nein."),
    },
    "sector": {
        "en": ("In which sector do you work: health, finance, public administration or other?",
               "health", "Health, finance and public administration are regulated sectors with "
               "stricter rules on where data may be processed."),
        "de": ("In welcher Branche sind Sie tätig: Gesundheit, Finanzen, öffentliche Verwaltung "
               "oder andere?", "Gesundheit",
               "Gesundheit, Finanzen und öffentliche Verwaltung sind regulierte Branchen mit "
               "strengeren Regeln, wo Daten bearbeitet werden dürfen."),
    },
    "hosting": {
        "en": ("Where must the servers be: Switzerland only, the EU, or anywhere?", "Switzerland only",
               "Some sensitive data must stay in Switzerland; this rules out some cloud offers."),
        "de": ("Wo müssen die Server stehen: nur in der Schweiz, in der EU oder egal?", "nur Schweiz",
               "Manche sensiblen Daten müssen in der Schweiz bleiben; das schliesst manche "
               "Cloud-Angebote aus."),
    },
    "budget": {
        "en": ("Would you rather rent GPUs (monthly cost, cloud) or buy them (one-off investment)?",
               "rent",
               "Renting is flexible and starts fast; buying can be cheaper over several years of "
               "steady use but needs a server room, power and cooling."),
        "de": ("Möchten Sie GPUs lieber mieten (monatliche Kosten, Cloud) oder kaufen (einmalige "
               "Investition)?", "mieten",
               "Mieten ist flexibel und schnell; Kaufen kann über mehrere Jahre gleichmässiger "
               "Nutzung günstiger sein, braucht aber Serverraum, Strom und Kühlung."),
    },
    "horizon": {
        "en": ("Over how many years should the purchase pay off?", "3 years",
               "Bought hardware is compared with renting over this period; 3 years is common."),
        "de": ("Über wie viele Jahre soll sich der Kauf rechnen?", "3 Jahre",
               "Gekaufte Hardware wird über diesen Zeitraum mit Miete verglichen; üblich sind 3 Jahre."),
    },
    "dataset": {
        "en": ("How much data does one fine-tuning run train on? (tokens, pages, documents or GB; "
               "don't know is fine)", "50M tokens",
               "The dataset size sets the hours of every run and so its GPUs and cost. Tokens are best; "
               "pages count about 700 tokens each, a GB of plain text about 250 M tokens. Without it the "
               "advice assumes a default and shows it as an assumption."),
        "de": ("Mit wie vielen Daten trainiert ein Fine-Tuning-Lauf? (Tokens, Seiten, Dokumente oder GB; "
               "weiss nicht geht auch)", "50 Mio. Tokens",
               "Die Datenmenge bestimmt die Stunden jedes Laufs und damit GPUs und Kosten. Am besten in "
               "Tokens; eine Seite zählt etwa 700 Tokens, ein GB reiner Text etwa 250 Mio. Tokens. Ohne "
               "Angabe nimmt die Empfehlung einen Standardwert an und weist ihn als Annahme aus."),
    },
    "site_country": {
        "en": ("In which country would bought servers stand — your own site or server room?", "Switzerland",
               "Sensitive data may have to stay in a country; for hardware you buy, that is your own site. "
               "Without it the advice cannot confirm that bought servers meet the hosting requirement."),
        "de": ("In welchem Land stünden gekaufte Server — Ihr eigener Standort oder Serverraum?", "Schweiz",
               "Sensible Daten müssen unter Umständen in einem Land bleiben; bei gekaufter Hardware ist das "
               "Ihr eigener Standort. Ohne ihn kann die Empfehlung nicht bestätigen, dass gekaufte Server "
               "die Hosting-Vorgabe erfüllen."),
    },
    "growth": {
        "en": ("Will the model get bigger in the next 12–18 months? If so, to what size? "
               "(no / don't know is fine)", "yes, to 70B",
               "Models tend to grow; hardware bought for today's size may be too small next year."),
        "de": ("Wird das Modell in den nächsten 12–18 Monaten grösser? Wenn ja, wie gross? "
               "(nein / weiss nicht geht auch)", "ja, auf 70B",
               "Modelle wachsen oft; heute gekaufte Hardware kann nächstes Jahr zu klein sein."),
    },
    # asked only when the description mentions tools (docs/agents.md)
    "agent_steps": {
        "en": ("Your agent uses tools: how many model calls (steps) does one task take — typically, and "
               "at most?", "about 8, up to 20",
               "After every tool result the model is called again and re-reads the growing conversation. "
               "Coding agents take about 8 steps per request, 20 at the 90th percentile (TraceLab)."),
        "de": ("Ihr Agent nutzt Werkzeuge: wie viele Modellaufrufe (Schritte) braucht eine Aufgabe — "
               "typisch und höchstens?", "etwa 8, bis 20",
               "Nach jedem Werkzeugergebnis wird das Modell erneut aufgerufen und liest das wachsende "
               "Gespräch neu. Coding-Agenten brauchen etwa 8 Schritte pro Anfrage, 20 beim 90. Perzentil "
               "(TraceLab)."),
    },
    "agent_tool_time": {
        "en": ("How long does one tool call take, typically?", "2 seconds",
               "While a tool runs the conversation stays in GPU memory; long tools mean many sessions "
               "held at once. Coding agents' tools took 16.8 s on average (TraceLab)."),
        "de": ("Wie lange dauert ein Werkzeugaufruf typischerweise?", "2 Sekunden",
               "Während ein Werkzeug läuft, bleibt das Gespräch im GPU-Speicher; lange Werkzeuge "
               "bedeuten viele gleichzeitig gehaltene Sitzungen. Bei Coding-Agenten dauerten sie im "
               "Mittel 16,8 s (TraceLab)."),
    },
}

ORDER = ("model", "volume", "fine_tuning", "data", "latency", "context", "agent_steps", "agent_tool_time",
         "fine_tuning_frequency", "fine_tuning_method", "dataset", "sector", "hosting", "budget", "horizon", "site_country",
         "growth")
"""Every question id, in interview order (the flow skips those that do not apply)."""


def question(qid: str, lang: str = "en") -> Question:
    """The question `qid` in `lang` (`en` or `de`, anything else falls back to English); the audit
    interview's questions (`setup_questions`) too."""
    from .setup_questions import SETUP_QUESTIONS

    text, example, help_text = (_Q.get(qid) or SETUP_QUESTIONS[qid])["de" if lang == "de" else "en"]
    return Question(qid, text, example, help_text, skippable=qid not in ("model", "gpu"))


def example(qid: str, lang: str = "en") -> str:
    """The example answer of question `qid` in `lang`."""
    return question(qid, lang).example
