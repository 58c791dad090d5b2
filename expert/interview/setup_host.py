"""The machine around the GPUs: the audit interview's interconnect, operations and host answers.

NVLink or PCIe; monitoring and backups (each yes or no); CPU cores, system RAM and storage.
"""

from __future__ import annotations

import re

from . import lexicon as lx, numbers as nb
from .result import Parsed, fail, num, safe, say

_BRIDGE = lx.words("nv-?link[- ]?(?:bridge|brücke)\\w*", "bridge\\w*", "brücke\\w*")
_NVLINK = lx.words("nv-?link\\w*", "nv-?switch\\w*", "sxm\\d?", "hgx", "dgx")
_NO_NVLINK = lx.words("(?:no|not|kein\\w*|ohne|without|nicht)(?: \\w+)? nv-?link\\w*")
_PCIE = lx.words("pci\\w*", "slots?", "steckplätze?n?")             # `PCI Express`, `normal slots`
_MONITORING = lx.words("monitor\\w*", "überwach\\w*", "ueberwach\\w*", "grafana", "prometheus",
                       "dcgm", "datadog", "zabbix", "nagios")
_BACKUPS = lx.words("back-?ups?\\w*", "back up", "(?:daten|system|modell)?sicherung\\w*",
                    "gesichert", "snapshots?")
_NEG = lx.words("no", "not", "nicht", "nein", "kein\\w*", "none", "never", "nie", "without", "ohne",
                "neither", "nor", "weder", "nope", "nichts", "nothing", "fehl\\w*", "missing",
                "don'?t", "doesn'?t")
_BOTH = lx.words("both", "beide\\w*", "yes", "ja", "yep", "sure", "klar", "jep", "all", "alles")
_JOINED = re.compile(r" ?(?:and|und|&|/|plus|sowie|as well as) ?")
EACH = lx.words("each", "je(?! nach)", "jeweils", "à", "apiece", "(?:pro|per|in each|in jedem) "
                "(?:server|node|knoten|machine|maschine|host|rechner|box|cpu|socket|sockel|"
                "prozessor|processor)\\w*")
"""Words that make a count per unit (`8 H100 each`, `je 32 Kerne`, `pro Server`, `à 4`)."""
SERVERS = re.compile(r" ?(?:x )?(?:(?:gpu|dgx|hgx)[- ]?)?(?:server\w*|serveurs?|nodes?|knoten|"
                     r"machines?|maschinen?|hosts?|rechner|boxe?s?)(?![a-z])")
"""Server words after a number (`2 servers`, `3 Knoten`): the unit a GPU count can be per."""
_MEMORY_EACH = re.compile(r"(?:\(|with|mit) ?\d+ ?(?:gb|gib|tb)\W*$")  # `(80 GB each)`: memory
_ONLY = lx.words("only", "just", "nur", "lediglich", "bloss", "ausschliesslich")

_CORES = re.compile(r"[ -]?(?:(?:physical |physische |cpu[- ]?)?(?:cores?|kerne?n?|threads?)|"
                    r"vcpus?)(?![a-z])")
_SOCKETS = re.compile(r" ?(?:x )?(?:cpus?|sockets?|sockel|prozessor(?:en)?|processors?)(?![a-z])")
_SIZE = re.compile(r" ?(gb|gib|g|tb|tib)(?![a-z/])")
_SPEED = re.compile(r" ?(mb|gb)(?:/s|ps| per second| pro sekunde)")
_RAM_AFTER = re.compile(r" ?(?:of |ddr\d |ecc )*(?:ram|memory|arbeitsspeicher|hauptspeicher|ddr\d)")
_RAM_BEFORE = re.compile(r"(?<![a-z])(?:ram|memory|arbeitsspeicher|hauptspeicher)[:= ]*$")
_NOT_RAM = re.compile(r" ?(?:\w+ )?(?:vram|gpu|hbm|nvme|ssd|hdd|disk|platte|festplatte|storage|"
                      r"speicherplatz|nfs|ceph|nas|san|network|netzwerk)")
_STORAGE = {
    "nvme": lx.words("nvme\\w*", "m\\.2", "u\\.2"),
    "network": lx.words("network\\w*", "netzwerk\\w*", "nfs", "ceph", "s3", "nas", "san", "lustre",
                        "gpfs", "iscsi", "ebs", "block storage", "object storage"),
    "hdd": lx.words("hdds?", "sata hdds?", "hard ?(?:disk|drive)s?", "festplatten?",
                    "spinning \\w+"),
    "sata-ssd": lx.words("ssds?", "sata(?: ssds?)?"),
}


@safe("interconnect")
def parse_interconnect(t: str, lang: str = "en") -> Parsed:
    """GPU link → `{interconnect: nvlink|pcie|pcie-bridge}`: `NVLink`, `SXM`, `HGX`, `PCIe`, or
    `NVLink bridge` (a bridge joining pairs of PCIe cards); `kein NVLink` reads as PCIe."""
    if lx.has(_BRIDGE, t):
        kind = "pcie-bridge"
    elif lx.has(_NVLINK, t) and not lx.has(_NO_NVLINK, t):
        kind = "nvlink"
    elif lx.has(_PCIE, t) or lx.has(_NO_NVLINK, t):
        kind = "pcie"
    else:
        return fail("interconnect", lang, "interview.reply.interconnect")
    return Parsed({"interconnect": kind}, lang=lang)


@safe("operations")
def parse_operations(t: str, lang: str = "en") -> Parsed:
    """Monitoring and backups → `{monitoring: bool, backups: bool}`, only the ones talked about.

    Each is true unless its clause negates it (`backups no`, `keine Backups`); both named
    together (`monitoring and backups: no`) share the answer; `only …` / `nur …` makes the other
    false; a bare `yes` / `both` sets both true, a bare `no` / `neither` both false.
    """
    mon, bak = _MONITORING.search(t), _BACKUPS.search(t)
    if mon and bak:
        first, second = sorted((mon, bak), key=lambda m: m.start())
        if _JOINED.fullmatch(t, first.end(), second.start()):  # "monitoring and backups: no"
            both = not lx.has(_NEG, t)
            return Parsed({"monitoring": both, "backups": both}, lang=lang)
    fields = {}
    for name, pattern in (("monitoring", _MONITORING), ("backups", _BACKUPS)):
        m = pattern.search(t)
        if m:
            lo, hi = lx.clause_around(t, m.start(), m.end())
            fields[name] = not lx.has(_NEG, t[lo:hi])
    if len(fields) == 1 and lx.has(_ONLY, t):
        fields[{"monitoring": "backups", "backups": "monitoring"}[next(iter(fields))]] = False
    if not fields and (lx.has(_NEG, t) or lx.has(_BOTH, t)):
        both = not lx.has(_NEG, t)
        fields = {"monitoring": both, "backups": both}
    if not fields:
        return fail("operations", lang, "interview.reply.operations")
    return Parsed(fields, lang=lang)


def _storage(t: str, nums: list[nb.Number]) -> dict:
    """`{type, read_mb_s}` from the first storage word and a speed (`3500 MB/s`, `3,5 GB/s`)."""
    hits = [(m.start(), -len(m.group()), kind)                   # first mention, longest wins
            for kind, pattern in _STORAGE.items() for m in pattern.finditer(t)]
    if not hits:
        return {}
    storage = {"type": min(hits)[2]}
    for n in nums:
        speed = _SPEED.match(t, n.end)
        if speed:
            storage["read_mb_s"] = num(n.value * (1000 if speed.group(1) == "gb" else 1))
            break
    return {"storage": storage}


def per_unit(t: str, units: re.Pattern[str], at: int, after: int) -> int:
    """How many units a count is per: the number before a `units` word (`2 servers`, `zwei CPUs`)
    when a per-unit word goes with the count starting at `at`, just before it (`je 4`, `à 32`) or
    after `after` with no number between (`8 H100 each`, `64 cores per CPU`); else 1."""
    def tied(m: re.Match[str]) -> bool:
        if m.end() <= at:
            return re.fullmatch(r" ?(?:with |mit |having )?", t[m.end():at]) is not None
        return (m.start() >= after and not re.search(r"\d", t[after:m.start()])
                and not _MEMORY_EACH.search(t, 0, m.start()))
    found = [n.value for n in nb.scan(t, scales=False, words=True) if units.match(t, n.end)]
    each = any(tied(m) for m in EACH.finditer(t))
    return int(found[0]) if each and found and found[0] == int(found[0]) >= 1 else 1


@safe("host")
def parse_host(t: str, lang: str = "en") -> Parsed:
    """Host server → `{cpu_cores, ram_gb, storage: {type, read_mb_s}}`, whichever are named.

    `32 cores, 384 GB RAM, NVMe`, `64 Kerne, 1 TB Arbeitsspeicher, SSD`; `2× 32 cores` = 64
    and so is `2 CPUs with 32 cores each`; a size in GB without `RAM` next to it counts as RAM
    when no other is marked (with a note).
    """
    nums, fields, note, loose = nb.scan(t, scales=False), {}, None, []
    for i, n in enumerate(nums):
        size = _SIZE.match(t, n.end)
        if _CORES.match(t, n.end) and "cpu_cores" not in fields:
            pair = i and re.fullmatch(r" ?[x×*] ?", t[nums[i - 1].end:n.start])
            per = nums[i - 1].value if pair else per_unit(t, _SOCKETS, n.start, n.end)
            fields["cpu_cores"] = int(n.value * per)
        elif size:
            gb = n.value * (1024 if size.group(1).startswith("t") else 1)
            if _RAM_AFTER.match(t, size.end()) or _RAM_BEFORE.search(t[:n.start].rstrip()):
                fields.setdefault("ram_gb", num(gb))
            elif not _NOT_RAM.match(t, size.end()):
                loose.append(gb)
    if "ram_gb" not in fields and loose:
        fields["ram_gb"] = num(loose[0])
        note = say("interview.note.host.ram", lang)
    fields |= _storage(t, nums)
    if not fields:
        return fail("host", lang, "interview.reply.host")
    return Parsed(fields, lang=lang, note=note)
