"""The audit interview's answer parsers against tables of real phrasings, English and German.

One table per parser: what the user typed and the setup fields expected. A row passes when the
parser says ok and returns exactly those fields; the fail tables check that unreadable answers
fail (never raise) with a reason in the answer's language.
"""

from __future__ import annotations

import pytest

from expert.catalog.loader import load_catalog
from expert.interview import aliases, setup_parse as sp
from expert.interview.questions import question
from expert.interview.setup_questions import SETUP_ORDER


@pytest.fixture(scope="module")
def gpus() -> dict[str, str]:
    """Alias → catalog id, from the shipped catalog (ids, names and aliases)."""
    cat = load_catalog()
    return {n: g.id for g in cat.gpus.values() for n in (g.id, g.name, *g.aliases)}


GPU = [
    ("2x H100", {"gpu": "h100-sxm", "count": 2}),
    ("2× H100", {"gpu": "h100-sxm", "count": 2}),
    ("2 H100", {"gpu": "h100-sxm", "count": 2}),
    ("2× H100 SXM", {"gpu": "h100-sxm", "count": 2}),
    ("4 x A100 80GB", {"gpu": "a100-80gb-pcie", "count": 4}),
    ("8x H100 80GB", {"gpu": "h100-sxm", "count": 8}),
    ("zwei L40S", {"gpu": "l40s", "count": 2}),
    ("eine H100", {"gpu": "h100-sxm", "count": 1}),
    ("8 GPUs H100", {"gpu": "h100-sxm", "count": 8}),
    ("H100 x 4", {"gpu": "h100-sxm", "count": 4}),
    ("a single L4", {"gpu": "l4", "count": 1}),
    ("one A100", {"gpu": "a100-80gb-pcie", "count": 1}),
    ("RTX 4090", {"gpu": "rtx-4090", "count": 1}),
    ("3 RTX 4090", {"gpu": "rtx-4090", "count": 3}),
    ("4 H100s", {"gpu": "h100-sxm", "count": 4}),
    ("H100 NVL", {"gpu": "h100-nvl", "count": 1}),
    ("A100 40GB PCIe x2", {"gpu": "a100-40gb-pcie", "count": 2}),
    ("2 x MI300X", {"gpu": "mi300x", "count": 2}),
    ("Gaudi 3", {"gpu": "gaudi3", "count": 1}),
    ("zwei RTX 6000 Ada", {"gpu": "rtx-6000-ada", "count": 2}),
    ("wir haben 4 L40S mit je 48 GB", {"gpu": "l40s", "count": 4}),
    ("one node with 8 H100", {"gpu": "h100-sxm", "count": 8}),
    ("nvidia-smi says NVIDIA H100 80GB HBM3, 8 of them", {"gpu": "h100-sxm", "count": 8}),
    # a count per server multiplies; cards counted directly do not
    ("2 servers with 8 H100 each", {"gpu": "h100-sxm", "count": 16}),
    ("3 Server mit je 4 L40S", {"gpu": "l40s", "count": 12}),
    ("2 Server mit 8 H100 pro Server", {"gpu": "h100-sxm", "count": 16}),
    ("2 servers with 4 A100 per server", {"gpu": "a100-80gb-pcie", "count": 8}),
    ("2 Server à 4 H100", {"gpu": "h100-sxm", "count": 8}),
    ("zwei Knoten, jeweils 8 H100", {"gpu": "h100-sxm", "count": 16}),
    ("2 DGX servers with 8 H100 80GB each", {"gpu": "h100-sxm", "count": 16}),
    ("8 H100 in 2 servers", {"gpu": "h100-sxm", "count": 8}),
    ("8 H100 (80 GB each) in 2 servers", {"gpu": "h100-sxm", "count": 8}),
    # a memory size next to the name picks the catalog variant with it
    ("Wir haben 3 A100 mit 40 GB", {"gpu": "a100-40gb-pcie", "count": 3}),
    ("3 A100 with 40GB", {"gpu": "a100-40gb-pcie", "count": 3}),
    ("3 A100, 40 GB version", {"gpu": "a100-40gb-pcie", "count": 3}),
    ("2 A100 SXM with 40GB", {"gpu": "a100-40gb-sxm", "count": 2}),
    ("2 H100 with 94 GB", {"gpu": "h100-nvl", "count": 2}),
    ("3 A100 with 512 GB RAM", {"gpu": "a100-80gb-pcie", "count": 3}),
]


@pytest.mark.parametrize(("text", "fields"), GPU)
def test_gpu(text: str, fields: dict, gpus: dict[str, str]) -> None:
    got = sp.parse_gpu(text, gpus=gpus)
    assert got.ok, got.reason
    assert got.fields == fields


@pytest.mark.parametrize(("text", "fields"), [
    ("2× H100 SXM", {"gpu": "h100-sxm", "count": 2}),
    ("2x H100", {"gpu": "h100-sxm", "count": 2}),
    ("A100 80GB", {"gpu": "a100-80gb-pcie", "count": 1}),
    ("A100", {"gpu": "a100-80gb-pcie", "count": 1}),
    ("L40S", {"gpu": "l40s", "count": 1}),
    ("RTX 4090", {"gpu": "rtx-4090", "count": 1}),
    ("2x 4090", {"gpu": "rtx-4090", "count": 2}),
    ("H100 NVL", {"gpu": "h100-nvl", "count": 1}),
    ("4 H100 PCIe", {"gpu": "h100-pcie", "count": 4}),
    ("Wir haben 3 A100 mit 40 GB", {"gpu": "a100-40gb-pcie", "count": 3}),
    ("2x h100-sxm", {"gpu": "h100-sxm", "count": 2}),
    ("RTX-PRO-6000-server", {"gpu": "rtx-pro-6000-server", "count": 1}),
])
def test_gpu_default_aliases(text: str, fields: dict) -> None:
    """Before the chat has loaded the catalog, the short names are understood."""
    assert sp.parse_gpu(text).fields == fields


def test_gpu_default_aliases_mirror_the_catalog() -> None:
    """Every default alias names the id the shipped catalog gives that name (no drift)."""
    cat = load_catalog()
    named = {aliases.key(n): g.id for g in cat.gpus.values() for n in (g.id, g.name, *g.aliases)}
    assert set(sp.CONTRACT_GPU_IDS) <= set(sp.DEFAULT_GPU_ALIASES)
    drift = {alias: (gpu_id, named.get(aliases.key(alias)))
             for alias, gpu_id in sp.DEFAULT_GPU_ALIASES.items()
             if named.get(aliases.key(alias)) != gpu_id}
    assert drift == {}


@pytest.mark.parametrize(("text", "lang", "reason"), [
    ("Tesla V100", "en", "Which GPU? e.g. H100, A100 80GB, L40S."),
    ("keine Ahnung", "de", "Welche GPU? z. B. H100, A100 80GB, L40S."),
    ("0 H100", "en", "How many cards? e.g. 2× H100."),
])
def test_gpu_fails(text: str, lang: str, reason: str, gpus: dict[str, str]) -> None:
    got = sp.parse_gpu(text, lang, gpus=gpus)
    assert (got.ok, got.fields, got.reason) == (False, {}, reason)


OWNERSHIP = [
    ("rented", "rented"), ("gemietet", "rented"), ("cloud", "rented"), ("AWS", "rented"),
    ("we lease them", "rented"), ("Miete", "rented"), ("eigentlich gemietet", "rented"),
    ("we don't own them", "rented"),
    ("owned", "owned"), ("we bought them", "owned"), ("gekauft", "owned"),
    ("eigene Server", "owned"), ("die gehören uns", "owned"), ("on-prem", "owned"),
    ("Eigentum", "owned"), ("not rented, we bought them", "owned"),
    # German negation after the verb
    ("Wir mieten sie nicht", "owned"), ("Wir mieten die Server nicht, sie gehören uns", "owned"),
    ("gehören uns nicht", "rented"), ("Die GPUs gehören uns nicht, wir mieten sie", "rented"),
    ("gemietet, nicht gekauft", "rented"), ("gemietet und nicht gekauft", "rented"),
    ("Wir kaufen nicht, wir mieten", "rented"),
]


@pytest.mark.parametrize(("text", "value"), OWNERSHIP)
def test_ownership(text: str, value: str) -> None:
    assert sp.parse_ownership(text).fields == {"ownership": value}


UTILIZATION = [
    ("35 %", {"mean": 0.35}),
    ("35%", {"mean": 0.35}),
    ("0.35", {"mean": 0.35}),
    ("0,35", {"mean": 0.35}),
    ("12.5 %", {"mean": 0.125}),
    ("about a third", {"mean": 0.333}),
    ("35 % average, 60 % peak", {"mean": 0.35, "peak": 0.6}),
    ("im Schnitt 35 %, Spitze 60 %", {"mean": 0.35, "peak": 0.6}),
    ("mean 20, peak 45", {"mean": 0.2, "peak": 0.45}),
    ("mean 20 peak 45", {"mean": 0.2, "peak": 0.45}),
    ("peak 60 %, average 35 %", {"mean": 0.35, "peak": 0.6}),
    ("60 % peak, 30 % average", {"mean": 0.3, "peak": 0.6}),
    ("35 %, peak 60 %", {"mean": 0.35, "peak": 0.6}),
    ("35 % (peak 60 %)", {"mean": 0.35, "peak": 0.6}),
    ("35 %, 60 %", {"mean": 0.35, "peak": 0.6}),
    ("durchschnittlich 40 Prozent, maximal 90 Prozent", {"mean": 0.4, "peak": 0.9}),
    ("15-20 %", {"mean": 0.2}),
    ("15 % - 20 %", {"mean": 0.2}),
]


@pytest.mark.parametrize(("text", "util"), UTILIZATION)
def test_utilization(text: str, util: dict) -> None:
    got = sp.parse_utilization(text)
    assert got.ok, got.reason
    assert got.fields == {"utilization": util}


def test_utilization_range_says_so() -> None:
    assert sp.parse_utilization("15 bis 20 %", "de").note == "Spanne: der obere Wert gilt"


@pytest.mark.parametrize(("text", "reason"), [
    ("150 %", "Utilisation is at most 100 %."),
    ("35 %, peak 160 %", "Utilisation is at most 100 %."),
    ("hmm, busy", "No percentage found."),
    ("peak 60 %", "Average and peak, please (e.g. 35 %, peak 60 %)."),
    ("average 60 %, peak 30 %", "Average and peak, please (e.g. 35 %, peak 60 %)."),
])
def test_utilization_fails(text: str, reason: str) -> None:
    got = sp.parse_utilization(text)
    assert (got.ok, got.fields, got.reason) == (False, {}, reason)


LATENCY = [
    ("0.9 s", 0.9), ("900 ms", 0.9), ("0,9 Sekunden", 0.9), ("about 2 seconds", 2), ("1.5s", 1.5),
    ("p95 = 900 ms", 0.9), ("95 % unter 0,9 s", 0.9), ("800-1200 ms", 1.2), ("1 to 2 seconds", 2),
    ("half a second", 0.5), ("etwa zwei Sekunden", 2), ("2", 2),
    # the time labelled p95 wins over the others
    ("median 300 ms, p95 1.2 s", 1.2), ("p50 0.4 s, p95 0.9 s, p99 2 s", 0.9),
    ("P95: 900 ms (median 250 ms)", 0.9), ("1.2 s (p95), 300 ms median", 1.2),
    ("95th percentile 1.5 s, average 0.4 s", 1.5), ("im Mittel 0,3 s, 95. Perzentil 1,1 s", 1.1),
    ("p95 800-1200 ms, p50 400 ms", 1.2),
]


@pytest.mark.parametrize(("text", "seconds"), LATENCY)
def test_latency_p95(text: str, seconds: float) -> None:
    got = sp.parse_latency_p95(text)
    assert got.ok, got.reason
    assert got.fields == {"latency_p95_s": seconds}


@pytest.mark.parametrize(("text", "lang", "reason"), [
    ("egal", "de", "Keine gemessene Zeit gefunden (z. B. 0,9 s oder 900 ms)."),
    ("real time", "en", "No measured time found (e.g. 0.9 s or 900 ms)."),
    ("don't know", "en", "No measured time found (e.g. 0.9 s or 900 ms)."),
])
def test_latency_p95_fails_without_a_measurement(text: str, lang: str, reason: str) -> None:
    got = sp.parse_latency_p95(text, lang)
    assert (got.ok, got.fields, got.reason) == (False, {}, reason)


LOCATION = [
    ("Switzerland", {"country": "CH"}),
    ("Schweiz", {"country": "CH"}),
    ("CH", {"country": "CH"}),
    ("Zürich", {"country": "CH"}),
    ("the servers belong to us, Genf", {"country": "CH"}),
    ("Frankfurt, Germany", {"country": "DE"}),
    ("Wien", {"country": "AT"}),
    ("Österreich", {"country": "AT"}),
    ("Mailand", {"country": "IT"}),
    ("London, UK", {"country": "GB"}),
    ("Great Britain", {"country": "GB"}),
    ("in the United States", {"country": "US"}),
    ("Vereinigte Staaten", {"country": "US"}),
    ("U.S.", {"country": "US"}),
    ("our provider hosts in Frankfurt", {"country": "DE"}),
    ("Frankfurt, provider in the US", {"country": "DE", "provider_seat": "US"}),
    ("Frankfurt, Anbieter aus den USA", {"country": "DE", "provider_seat": "US"}),
    ("Frankfurt, US", {"country": "DE", "provider_seat": "US"}),
    ("servers in Zurich, Swiss provider", {"country": "CH", "provider_seat": "CH"}),
    ("Server in der Schweiz, Anbieter mit Sitz in Deutschland",
     {"country": "CH", "provider_seat": "DE"}),
    ("Rechenzentrum in München, deutscher Anbieter", {"country": "DE", "provider_seat": "DE"}),
    ("hosted by a Swiss company in Frankfurt", {"country": "DE", "provider_seat": "CH"}),
    ("US-based provider, servers in Virginia", {"country": "US", "provider_seat": "US"}),
    ("AWS Frankfurt", {"country": "DE", "provider_seat": "US"}),
    ("Azure Switzerland North", {"country": "CH", "provider_seat": "US"}),
    ("Google Cloud in Zurich", {"country": "CH", "provider_seat": "US"}),
]


@pytest.mark.parametrize(("text", "hosting"), LOCATION)
def test_location(text: str, hosting: dict) -> None:
    got = sp.parse_location(text)
    assert got.ok, got.reason
    assert got.fields == {"hosting": hosting}


def test_location_hyperscaler_seat_is_noted() -> None:
    assert sp.parse_location("AWS Frankfurt").note == "hyperscaler: provider seat US"


@pytest.mark.parametrize(("text", "lang", "reason"), [
    ("AWS", "en", "In which country are the servers?"),
    ("Rechenzentrum auch hier, ich weiss es nicht", "de", "In welchem Land stehen die Server?"),
    ("they run it for us", "en", "In which country are the servers?"),
])
def test_location_fails(text: str, lang: str, reason: str) -> None:
    got = sp.parse_location(text, lang)
    assert (got.ok, got.fields, got.reason) == (False, {}, reason)


INTERCONNECT = [
    ("NVLink", "nvlink"), ("NVSwitch", "nvlink"), ("SXM", "nvlink"), ("HGX", "nvlink"),
    ("PCIe", "pcie"), ("PCI Express", "pcie"), ("normal slots", "pcie"), ("über PCIe", "pcie"),
    ("kein NVLink, nur PCIe", "pcie"), ("NVLink bridge", "pcie-bridge"),
    ("NVLink-Brücke", "pcie-bridge"), ("PCIe cards with an NVLink bridge", "pcie-bridge"),
]


@pytest.mark.parametrize(("text", "kind"), INTERCONNECT)
def test_interconnect(text: str, kind: str) -> None:
    assert sp.parse_interconnect(text).fields == {"interconnect": kind}


OPERATIONS = [
    ("monitoring and backups: no", {"monitoring": False, "backups": False}),
    ("Monitoring und Backups: ja", {"monitoring": True, "backups": True}),
    ("neither monitoring nor backups", {"monitoring": False, "backups": False}),
    ("yes", {"monitoring": True, "backups": True}),
    ("ja", {"monitoring": True, "backups": True}),
    ("both", {"monitoring": True, "backups": True}),
    ("beides", {"monitoring": True, "backups": True}),
    ("no", {"monitoring": False, "backups": False}),
    ("neither", {"monitoring": False, "backups": False}),
    ("keins", {"monitoring": False, "backups": False}),
    ("weder noch", {"monitoring": False, "backups": False}),
    ("weder Monitoring noch Backups", {"monitoring": False, "backups": False}),
    ("monitoring yes, backups no", {"monitoring": True, "backups": False}),
    ("we monitor but have no backups", {"monitoring": True, "backups": False}),
    ("Monitoring ja, Backups nein", {"monitoring": True, "backups": False}),
    ("nur Monitoring", {"monitoring": True, "backups": False}),
    ("Prometheus + DCGM, keine Sicherung", {"monitoring": True, "backups": False}),
    ("only backups", {"monitoring": False, "backups": True}),
    ("Grafana and nightly backups", {"monitoring": True, "backups": True}),
    ("no monitoring", {"monitoring": False}),
]


@pytest.mark.parametrize(("text", "fields"), OPERATIONS)
def test_operations(text: str, fields: dict) -> None:
    assert sp.parse_operations(text).fields == fields


HOST = [
    ("32 cores, 384 GB RAM, NVMe", {"cpu_cores": 32, "ram_gb": 384, "storage": {"type": "nvme"}}),
    ("64 Kerne, 512 GB Arbeitsspeicher, SSD",
     {"cpu_cores": 64, "ram_gb": 512, "storage": {"type": "sata-ssd"}}),
    ("16 vCPUs, 128GB RAM, network storage (NFS)",
     {"cpu_cores": 16, "ram_gb": 128, "storage": {"type": "network"}}),
    ("8 CPU cores and an HDD", {"cpu_cores": 8, "storage": {"type": "hdd"}}),
    ("1 TB RAM", {"ram_gb": 1024}),
    ("2x 32 cores, 1.5 TB RAM, NVMe 3500 MB/s",
     {"cpu_cores": 64, "ram_gb": 1536, "storage": {"type": "nvme", "read_mb_s": 3500}}),
    ("NVMe mit 3,5 GB/s", {"storage": {"type": "nvme", "read_mb_s": 3500}}),
    ("RAM: 256 GB, 4 TB NVMe", {"ram_gb": 256, "storage": {"type": "nvme"}}),
    ("32 cores, 384 GB, NVMe", {"cpu_cores": 32, "ram_gb": 384, "storage": {"type": "nvme"}}),
    ("NVMe SSD", {"storage": {"type": "nvme"}}),
    ("SATA SSD", {"storage": {"type": "sata-ssd"}}),
    ("SATA HDD", {"storage": {"type": "hdd"}}),
    ("Festplatte", {"storage": {"type": "hdd"}}),
    ("Ceph", {"storage": {"type": "network"}}),
    # cores per CPU multiply
    ("2 CPUs with 64 cores each", {"cpu_cores": 128}),
    ("2 × 32 Kerne", {"cpu_cores": 64}),
    ("2 Sockel mit je 32 Kernen, 1 TB RAM", {"cpu_cores": 64, "ram_gb": 1024}),
    ("64 cores per CPU, 2 CPUs", {"cpu_cores": 128}),
    ("32 cores, 2 CPUs", {"cpu_cores": 32}),
]


@pytest.mark.parametrize(("text", "fields"), HOST)
def test_host(text: str, fields: dict) -> None:
    got = sp.parse_host(text)
    assert got.ok, got.reason
    assert got.fields == fields


def test_host_unmarked_size_is_read_as_ram_with_a_note() -> None:
    assert sp.parse_host("32 cores, 384 GB, NVMe").note == "the size in GB is read as RAM"


@pytest.mark.parametrize(("parser", "text", "lang", "reason"), [
    (sp.parse_ownership, "yes", "en", "Rented (cloud) or owned?"),
    (sp.parse_ownership, "weiss nicht", "de", "Gemietet (Cloud) oder gekauft?"),
    (sp.parse_interconnect, "don't know", "en", "NVLink or PCIe?"),
    (sp.parse_interconnect, "keine Ahnung", "de", "NVLink oder PCIe?"),
    (sp.parse_operations, "hmm", "en", "Monitoring yes or no, backups yes or no?"),
    (sp.parse_operations, "vielleicht", "de", "Monitoring ja oder nein, Backups ja oder nein?"),
    (sp.parse_host, "a big server", "en", "No CPU cores, RAM or storage found."),
    (sp.parse_host, "ein grosser Server", "de",
     "Keine CPU-Kerne, kein RAM und kein Speicher gefunden."),
])
def test_nothing_recognised_fails(parser, text: str, lang: str, reason: str) -> None:
    got = parser(text, lang)
    assert (got.ok, got.fields, got.reason) == (False, {}, reason)


PARSERS = [sp.parse_gpu, sp.parse_ownership, sp.parse_utilization, sp.parse_latency_p95,
           sp.parse_location, sp.parse_interconnect, sp.parse_operations, sp.parse_host]


@pytest.mark.parametrize("parser", PARSERS)
@pytest.mark.parametrize("text", [None, "", "   ", 42, "x" * 5000, "ü%ß€ 9e9 ,,,;;; ((("])
def test_never_raises(parser, text) -> None:
    got = parser(text)
    assert got.ok in (True, False)
    assert got.ok or (got.reason and got.fields == {})


def test_parser_question_ids_exist() -> None:
    for parser in PARSERS:
        got = parser("")
        assert not got.ok and got.example in {question(q, "en").example for q in SETUP_ORDER}
