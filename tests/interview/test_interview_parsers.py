"""The answer parsers against a table of real phrasings, English and German.

Each row: parser, what the user typed, the workload fields expected. A row passes when the parser
says ok and returns exactly those fields (notes and follow-ups are checked in dedicated tests).
"""

from __future__ import annotations

import pytest

from expert.interview import parse as p

M, V, F, D = p.parse_model, p.parse_volume, p.parse_fine_tuning, p.parse_data
LAT, CTX, SEC, HOST = p.parse_latency, p.parse_context, p.parse_sector, p.parse_hosting
DEP, BUD, HOR, GRO = p.parse_deployment, p.parse_budget, p.parse_horizon, p.parse_growth
SITE, DATA = p.parse_site_country, p.parse_dataset

PHRASINGS = [
    # --- model size (English and German) -----------------------------------------------------
    (M, "13B", {"params_b": 13}),
    (M, "13 b", {"params_b": 13}),
    (M, "13 Milliarden", {"params_b": 13}),
    (M, "13 billion", {"params_b": 13}),
    (M, "13 Mrd. Parameter", {"params_b": 13}),
    (M, "13 Mia. Parameter", {"params_b": 13}),
    (M, "7b model", {"params_b": 7}),
    (M, "ein Modell mit 70 Milliarden Parametern", {"params_b": 70}),
    (M, "1.5B", {"params_b": 1.5}),
    (M, "350M parameters", {"params_b": 0.35}),
    (M, "llama 3.1 70b", {"model": "llama-3.1-70b"}),
    (M, "Llama-3.1-70B", {"model": "llama-3.1-70b"}),
    (M, "Llama 3.1 70B Instruct", {"model": "llama-3.1-70b"}),
    (M, "llama3.1 8b", {"model": "llama-3.1-8b"}),
    (M, "meta-llama/Meta-Llama-3.1-8B-Instruct", {"model": "llama-3.1-8b"}),
    (M, "LLAMA 3.1   405B", {"model": "llama-3.1-405b"}),
    (M, "Llama 3.3 70B", {"model": "llama-3.3-70b"}),
    (M, "llama-2-13b-chat", {"model": "llama-2-13b"}),
    (M, "llama 2 7b", {"model": "llama-2-7b"}),
    (M, "mixtral 8x7b", {"model": "mixtral-8x7b"}),
    (M, "Mixtral", {"model": "mixtral-8x7b"}),
    (M, "qwen 2.5 14b", {"model": "qwen2.5-14b"}),
    (M, "Qwen/Qwen2.5-72B-Instruct", {"model": "qwen2.5-72b"}),
    (M, "qwen2.5 32b", {"model": "qwen2.5-32b"}),
    (M, "mistral", {"model": "mistral-7b"}),
    (M, "Mistral 7B Instruct v0.3", {"model": "mistral-7b"}),
    (M, "gemma 2 9b", {"model": "gemma-2-9b"}),
    (M, "Gemma2-27B", {"model": "gemma-2-27b"}),
    (M, "Code Llama 34B", {"model": "codellama-34b"}),
    (M, "falcon 40b", {"model": "falcon-40b"}),
    (M, "wir nutzen Llama 3.1 8B", {"model": "llama-3.1-8b"}),
    (M, "llama 7b", {"model": "llama-2-7b"}),
    (M, "ca. 13 Mrd", {"params_b": 13}),
    # --- request volume ---------------------------------------------------------------------
    (V, "50k per day", {"requests_per_day": 50000}),
    (V, "50 000 Anfragen pro Tag", {"requests_per_day": 50000}),
    (V, "50'000/Tag", {"requests_per_day": 50000}),
    (V, "50’000 am Tag", {"requests_per_day": 50000}),
    (V, "50.000 Anfragen täglich", {"requests_per_day": 50000}),
    (V, "20000 requests per day", {"requests_per_day": 20000}),
    (V, "1,200 requests a day", {"requests_per_day": 1200}),
    (V, "1.2 million a day", {"requests_per_day": 1200000}),
    (V, "2 Mio. pro Monat", {"requests_per_day": 66667}),
    (V, "2,5 Mio. Anfragen im Monat", {"requests_per_day": 83333}),
    (V, "10k per week", {"requests_per_day": 1429}),
    (V, "3650 per year", {"requests_per_day": 10}),
    (V, "300 pro Minute", {"requests_per_second": 5}),
    (V, "300 requests per minute", {"requests_per_second": 5}),
    (V, "5 req/s", {"requests_per_second": 5}),
    (V, "5 rps", {"requests_per_second": 5}),
    (V, "1.5 Anfragen pro Sekunde", {"requests_per_second": 1.5}),
    (V, "1,5 Anfragen pro Sekunde", {"requests_per_second": 1.5}),
    (V, "3600 pro Stunde", {"requests_per_second": 1}),
    (V, "100-500 pro Minute", {"requests_per_second": 8.3333}),
    (V, "zwischen 10 und 20 Tausend pro Tag", {"requests_per_day": 20000}),
    (V, "20000", {"requests_per_day": 20000}),
    (V, "twenty thousand a day", {"requests_per_day": 20000}),
    (V, "10 000 users with 5 requests each per day", {"requests_per_day": 50000}),
    (V, "500 Mitarbeitende, je 20 Anfragen pro Tag", {"requests_per_day": 10000}),
    (V, "in einer Minute 300 Anfragen", {"requests_per_second": 5}),
    # --- fine-tuning ------------------------------------------------------------------------
    (F, "no", {"fine_tuning": "none"}),
    (F, "nein", {"fine_tuning": "none"}),
    (F, "kein Fine-Tuning", {"fine_tuning": "none"}),
    (F, "no fine-tuning needed", {"fine_tuning": "none"}),
    (F, "Fine-Tuning: nein", {"fine_tuning": "none"}),
    (F, "ja, monatlich", {"fine_tuning": "monthly"}),
    (F, "monthly", {"fine_tuning": "monthly"}),
    (F, "every quarter", {"fine_tuning": "quarterly"}),
    (F, "quartalsweise", {"fine_tuning": "quarterly"}),
    (F, "vierteljährlich", {"fine_tuning": "quarterly"}),
    (F, "einmal im Jahr", {"fine_tuning": "yearly"}),
    (F, "once a year", {"fine_tuning": "yearly"}),
    (F, "jährlich", {"fine_tuning": "yearly"}),
    (F, "wöchentlich", {"fine_tuning": "weekly"}),
    (F, "alle 2 Wochen", {"fine_tuning": "weekly"}),
    (F, "every 3 months", {"fine_tuning": "quarterly"}),
    (F, "no, maybe later", {"fine_tuning": "none"}),
    (F, "yes, every other month", {"fine_tuning": "monthly"}),
    (F, "daily", {"fine_tuning": "weekly"}),
    (F, "weekly LoRA", {"fine_tuning": {"frequency": "weekly", "method": "lora"}}),
    (F, "monatlich mit QLoRA", {"fine_tuning": {"frequency": "monthly", "method": "qlora"}}),
    (F, "full fine-tuning quarterly", {"fine_tuning": {"frequency": "quarterly", "method": "full"}}),
    (F, "volles Fine-Tuning jeden Monat", {"fine_tuning": {"frequency": "monthly", "method": "full"}}),
    # --- data -------------------------------------------------------------------------------
    (D, "sensitive", {"data": "sensitive"}),
    (D, "sensible Gesundheitsdaten", {"data": "sensitive", "sector": "health"}),
    (D, "Patientendaten", {"data": "sensitive", "sector": "health"}),
    (D, "bank data", {"data": "sensitive", "sector": "finance"}),
    (D, "Finanzdaten", {"data": "sensitive", "sector": "finance"}),
    (D, "Behörde", {"data": "sensitive", "sector": "public"}),
    (D, "public administration", {"data": "sensitive", "sector": "public"}),
    (D, "non-sensitive", {"data": "non_sensitive"}),
    (D, "nicht sensibel", {"data": "non_sensitive"}),
    (D, "mit nicht sensiblen Daten", {"data": "non_sensitive"}),
    (D, "public marketing texts", {"data": "non_sensitive"}),
    (D, "keine sensiblen Daten", {"data": "non_sensitive"}),
    (D, "no personal data", {"data": "non_sensitive"}),
    (D, "ja", {"data": "sensitive"}),
    (D, "nein", {"data": "non_sensitive"}),
    (D, "sensitive data? no", {"data": "non_sensitive"}),
    (D, "customer data", {"data": "sensitive"}),
    (D, "HR data", {"data": "sensitive"}),
    (D, "Kundendaten einer Versicherung", {"data": "sensitive", "sector": "finance"}),
    # --- follow-ups -------------------------------------------------------------------------
    (LAT, "under 2 s", {"latency_target_s": 2.0}),
    (LAT, "500 ms", {"latency_target_s": 0.5}),
    (LAT, "unter 1 Sekunde", {"latency_target_s": 1.0}),
    (LAT, "1,5 Sekunden", {"latency_target_s": 1.5}),
    (LAT, "half a second", {"latency_target_s": 0.5}),
    (LAT, "eine halbe Sekunde", {"latency_target_s": 0.5}),
    (LAT, "2s", {"latency_target_s": 2.0}),
    (LAT, "egal", {}),
    (LAT, "as fast as possible", {"latency_target_s": 0.5}),
    (CTX, "8k", {"context_tokens": 8192}),
    (CTX, "32 000 Tokens", {"context_tokens": 32000}),
    (CTX, "128k context", {"context_tokens": 131072}),
    (CTX, "4096", {"context_tokens": 4096}),
    (CTX, "10 Seiten", {"context_tokens": 7000}),
    (SEC, "health", {"sector": "health"}),
    (SEC, "Gesundheitswesen", {"sector": "health"}),
    (SEC, "Bank", {"sector": "finance"}),
    (SEC, "öffentliche Verwaltung", {"sector": "public"}),
    (SEC, "retail", {"sector": "other"}),
    (SEC, "andere", {"sector": "other"}),
    (HOST, "Switzerland only", {"hosting": "ch"}),
    (HOST, "nur Schweiz", {"hosting": "ch"}),
    (HOST, "in der Schweiz", {"hosting": "ch"}),
    (HOST, "EU", {"hosting": "eu"}),
    (HOST, "Europa", {"hosting": "eu"}),
    (HOST, "egal", {"hosting": "any"}),
    (HOST, "doesn't matter", {"hosting": "any"}),
    (DEP, "cloud", {"deployment": "cloud"}),
    (DEP, "on-prem", {"deployment": "on_premise"}),
    (DEP, "lokal", {"deployment": "on_premise"}),
    (DEP, "im eigenen Rechenzentrum", {"deployment": "on_premise"}),
    (DEP, "in our own data centre", {"deployment": "on_premise"}),
    (BUD, "rent", {"budget": "opex"}),
    (BUD, "mieten", {"budget": "opex"}),
    (BUD, "opex", {"budget": "opex"}),
    (BUD, "buy", {"budget": "capex"}),
    (BUD, "kaufen", {"budget": "capex"}),
    (BUD, "capex", {"budget": "capex"}),
    (BUD, "in der Cloud mieten", {"budget": "opex", "deployment": "cloud"}),
    (HOR, "3 years", {"horizon_months": 36}),
    (HOR, "36 Monate", {"horizon_months": 36}),
    (HOR, "2 Jahre", {"horizon_months": 24}),
    (HOR, "drei Jahre", {"horizon_months": 36}),
    (HOR, "18 months", {"horizon_months": 18}),
    (GRO, "20B in a year", {"growth_params_b": 20}),
    (GRO, "will grow to 70B", {"growth_params_b": 70}),
    (GRO, "wächst auf 70 Mrd. Parameter", {"growth_params_b": 70}),
    (GRO, "llama 3.1 70b next year", {"growth_params_b": 70}),
    (GRO, "no", {}),
    (GRO, "weiss nicht", {}),
    (GRO, "bleibt gleich", {}),
    # --- own site of bought hardware (ISO code) ----------------------------------------------------
    (SITE, "Switzerland", {"site_country": "CH"}),
    (SITE, "Schweiz", {"site_country": "CH"}),
    (SITE, "in der Schweiz", {"site_country": "CH"}),
    (SITE, "CH", {"site_country": "CH"}),
    (SITE, "our server room is in Zürich", {"site_country": "CH"}),
    (SITE, "Germany", {"site_country": "DE"}),
    (SITE, "Deutschland, Standort Frankfurt", {"site_country": "DE"}),
    (SITE, "at", {"site_country": "AT"}),
    (SITE, "Österreich", {"site_country": "AT"}),
    (SITE, "egal", {}),
    (SITE, "no", {}),
    # --- fine-tuning dataset per run (tokens; issue 12) ---------------------------------------------
    (DATA, "50M tokens", {"dataset_tokens": 50_000_000}),
    (DATA, "50 million tokens", {"dataset_tokens": 50_000_000}),
    (DATA, "50 Mio. Tokens", {"dataset_tokens": 50_000_000}),
    (DATA, "20 000 documents of 2 000 tokens", {"dataset_tokens": 40_000_000}),   # 20 000 × 2 000
    (DATA, "20'000 Dokumente à 2'000 Tokens", {"dataset_tokens": 40_000_000}),
    (DATA, "20 000 documents of 3 pages", {"dataset_tokens": 42_000_000}),        # 20 000 × 3 × 700
    (DATA, "5 GB of text", {"dataset_tokens": 1_250_000_000}),                   # 5e9 B ÷ 4 B/token
    (DATA, "500 MB", {"dataset_tokens": 125_000_000}),                           # 5e8 ÷ 4
    (DATA, "200k pages", {"dataset_tokens": 140_000_000}),                       # 200 000 × 700
    (DATA, "200 000 Seiten", {"dataset_tokens": 140_000_000}),
    (DATA, "10-50M tokens", {"dataset_tokens": 50_000_000}),                     # a range: upper value
    (DATA, "don't know", {}),
    (DATA, "weiss nicht", {}),
    (DATA, "keine Ahnung", {}),
]


@pytest.mark.parametrize("parser,text,expected", PHRASINGS,
                         ids=[f"{f.__name__[6:]}:{t}" for f, t, _ in PHRASINGS])
def test_phrasing(parser, text, expected):
    got = parser(text)
    assert got.ok, got.reason
    if "requests_per_second" in expected:
        assert got.fields.keys() == expected.keys()
        assert got.fields["requests_per_second"] == pytest.approx(expected["requests_per_second"],
                                                                  abs=1e-3)
    else:
        assert got.fields == expected


def test_table_is_large_enough():
    assert len(PHRASINGS) >= 80


@pytest.mark.parametrize("text", ["nicht sensibel", "nicht sensible Daten", "non-sensitive data",
                                  "not sensitive", "keine sensiblen Daten"])
def test_not_sensitive_never_reads_as_sensitive(text):
    assert p.parse_data(text).fields["data"] == "non_sensitive"


@pytest.mark.parametrize("text", ["no fine-tuning", "kein Fine-Tuning", "nein", "no", "none",
                                  "ohne Fine-Tuning", "Fine-Tuning nicht nötig"])
def test_no_fine_tuning_never_reads_as_yes(text):
    assert p.parse_fine_tuning(text).fields == {"fine_tuning": "none"}


@pytest.mark.parametrize("text,lang", [("yes", "en"), ("ja", "de"), ("needs fine-tuning", "en")])
def test_plain_yes_asks_for_the_frequency(text, lang):
    got = p.parse_fine_tuning(text)
    assert got.ok and got.follow_up == "fine_tuning_frequency"
    assert got.lang == lang


def test_range_uses_upper_bound_and_says_so():
    got = p.parse_volume("100-500 pro Minute")
    assert "500" in got.note and got.lang == "de"


@pytest.mark.parametrize("text,picked", [("llama 70b", "llama-3.3-70b"), ("llama 3 70b", "llama-3.3-70b")])
def test_ambiguous_model_names_the_choice(text, picked):
    got = p.parse_model(text)
    assert got.fields == {"model": picked}
    assert picked in got.note


def test_unknown_family_size_falls_back_to_params_with_note():
    got = p.parse_model("llama 3.1 13b")
    assert got.fields == {"params_b": 13} and "not in the catalog" in got.note


def test_own_site_same_as_hosting_takes_switzerland_only_for_swiss_hosting():
    assert p.parse_site_country("same as hosting", hosting="ch").fields == {"site_country": "CH"}
    assert p.parse_site_country("gleich wie das Hosting", "de", hosting="ch").fields == {"site_country": "CH"}
    eu = p.parse_site_country("same as hosting", hosting="eu")    # the EU is no single country
    assert eu.ok and eu.fields == {} and "left open" in eu.note


def test_own_site_refusal_says_what_is_wanted():
    got = p.parse_site_country("purple elephants")
    assert got.reason == "Which country is your own site in (a name or a code such as CH)?"
    got = p.parse_site_country("keine Ahnung wo", "de")
    assert not got.ok and got.reason.startswith("In welchem Land ist Ihr eigener Standort")


def test_custom_model_aliases():
    models = {"acme-20b": "acme-20b", "our bot": "acme-20b"}
    assert p.parse_model("Our Bot", models=models).fields == {"model": "acme-20b"}
    assert p.parse_model("ACME 20B", models=models).fields == {"model": "acme-20b"}


@pytest.mark.parametrize("parser,text,lang,example", [
    (p.parse_model, "keine Ahnung", "de", "Llama 3.1 8B  — oder einfach: 13B"),
    (p.parse_model, "the big one", "en", "Llama 3.1 8B  — or just: 13B"),
    (p.parse_model, "llama 3.1", "en", "Llama 3.1 8B  — or just: 13B"),
    (p.parse_model, "GPT-4", "en", "Llama 3.1 8B  — or just: 13B"),
    (p.parse_volume, "viele", "de", "20 000 pro Tag"),
    (p.parse_volume, "lots of them", "en", "20 000 per day"),
    (p.parse_fine_tuning, "vielleicht", "de", "ja, monatlich"),
    (p.parse_data, "hmm", "en", "yes, patient data"),
    (p.parse_latency, "schnell", "en", "under 2 seconds"),
    (p.parse_hosting, "auf dem Mond", "de", "nur Schweiz"),
    (p.parse_budget, "hmm", "de", "mieten"),
    (p.parse_horizon, "lange", "de", "3 Jahre"),
    (p.parse_growth, "ja", "de", "ja, auf 70B"),
    (p.parse_model, "", "en", "Llama 3.1 8B  — or just: 13B"),
    (p.parse_site_country, "auf dem Mond", "de", "Schweiz"),
    (p.parse_site_country, "purple elephants", "en", "Switzerland"),
])
def test_unparseable_gives_reason_and_example(parser, text, lang, example):
    got = parser(text, lang)
    assert not got.ok and got.fields == {}
    assert got.reason and got.example == example


@pytest.mark.parametrize("text,lang", [("20'000 Dokumente", "de"), ("lots of data", "en"),
                                       ("3 tokens", "en"), ("a few", "en")])
def test_dataset_refuses_what_is_no_size(text, lang):
    """A document count without a length, no number, or a size no run trains on: asked again."""
    got = p.parse_dataset(text, lang)
    assert not got.ok and got.reason and got.example in ("50M tokens", "50 Mio. Tokens")


def test_dataset_from_bytes_says_its_own_estimate():
    got = p.parse_dataset("5 GB of text", "en")
    assert got.note == "about 4 bytes of text per token (own estimate)"
    assert "eigene Schätzung" in p.parse_dataset("5 GB Text", "de").note


@pytest.mark.parametrize("text, lang, note", [
    ("daily", "en", "daily: taken as weekly"),
    ("alle 2 Wochen", "de", "als wöchentlich gerechnet"),          # 2 × 0.25 months ≤ 0.5: weekly
    ("täglich", "de", "täglich: als wöchentlich gerechnet"),
    ("halbjährlich", "de", "halbjährlich: als quartalsweise gerechnet"),
    ("einmalig", "de", "einmalig: als jährlich gerechnet"),
])
def test_frequency_taken_as_is_said_in_the_answers_language(text, lang, note):
    # German notes once read "daily: als weekly gerechnet" (the contract's English values)
    got = F(text, lang)
    assert got.ok and got.note == note
