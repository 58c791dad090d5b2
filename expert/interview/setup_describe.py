"""A setup in plain words: what the audit interview understood, and the line in the top panel.

`describe_setup({"gpu": "h100-sxm", "count": 2, "ownership": "rented"})` → `2× h100-sxm, rented`;
`render_setup` writes the setup so far with `[…]` blanks for the parts still to ask.
"""

from __future__ import annotations

from . import numbers as nb
from .describe import describe
from .result import say


def describe_setup(fields: dict, lang: str = "en") -> str:
    """Setup fields in plain words (`2× h100-sxm, rented, utilisation 35 % (peak 60 %)`)."""
    de, parts = lang == "de", []
    for name, value in fields.items():
        if name == "gpu":
            parts.append(f"{fields.get('count', 1)}× {value}")
        elif name == "ownership":
            parts.append({"rented": say(lang, "rented", "gemietet"), "owned": say(lang, "owned", "eigene")}[value])
        elif name == "workload":
            parts.append(describe(value, lang))
        elif name == "utilization":
            peak = value.get("peak")
            parts.append(say(lang, "utilisation", "Auslastung") + f" {value['mean']:.0%}"
                         + (f" ({say(lang, 'peak', 'Spitze')} {peak:.0%})" if peak is not None else ""))
        elif name == "latency_p95_s":
            parts.append(f"p95 {nb.fmt(value, lang)} s")
        elif name == "hosting":
            seat = value.get("provider_seat")
            parts.append(say(lang, "servers in ", "Server in ") + value.get("country", "?")
                         + (say(lang, f", provider seat {seat}", f", Anbietersitz {seat}") if seat else ""))
        elif name in ("monitoring", "backups"):
            word = {"monitoring": "Monitoring", "backups": "Backups"}[name]
            parts.append(f"{word} {say(lang, 'yes', 'ja') if value else say(lang, 'no', 'nein')}")
        elif name == "cpu_cores":
            parts.append(f"{value} {'Kerne' if de else 'cores'}")
        elif name == "ram_gb":
            parts.append(f"{nb.fmt(value, lang)} GB RAM")
        elif name == "storage":
            parts.append(str(value.get("type", "")).upper().replace("SATA-SSD", "SATA SSD"))
        elif name == "interconnect":
            link = {"nvlink": "NVLink", "pcie": "PCIe", "pcie-bridge": "PCIe-Bridge"}.get(value, value)
            parts.append(f"{say(lang, 'connected by', 'verbunden über')} {link}")
        elif name != "count":
            parts.append(f"{name}: {value}")
    return ", ".join(parts)


def render_setup(a: dict, lang: str = "en", done: set[str] | frozenset[str] = frozenset()) -> str:
    """`You run 2× h100-sxm (rented) for llama-3.1-8b with 20 000 requests per day, utilisation
    35 %, servers in CH.` — `[…]` blanks for parts still to ask; parts skipped are left out."""
    w = a.get("workload") or {}

    def part(qid: str, value: str | None, blank_en: str, blank_de: str) -> str | None:
        if value is not None:
            return value
        return None if qid in done else say(lang, blank_en, blank_de)

    gpu = part("gpu", f"{a.get('count', 1)}× {a['gpu']}" if a.get("gpu") else None, "[GPU]", "[GPU]")
    own = part("ownership", describe_setup({"ownership": a["ownership"]}, lang) if a.get("ownership")
               else None, "[rented/owned]", "[gemietet/eigene]")
    model = w.get("model") or (f"{w['params_b']:g}B" if w.get("params_b") else None)
    volume = w.get("requests_per_day") or (w["requests_per_second"] * 86400
                                           if w.get("requests_per_second") else None)
    use = part("utilization", f"{a['utilization']['mean']:.0%}" if a.get("utilization") else None,
               "[%]", "[%]")
    where = part("location", a["hosting"].get("country", "?") if a.get("hosting") else None,
                 "[country]", "[Land]")
    de = lang == "de"
    text = (f"Sie betreiben {gpu}" if de else f"You run {gpu}") + (f" ({own})" if own else "")
    if model or "workload" not in done:
        text += (" für " if de else " for ") + (model or say(lang, "[model]", "[Modell]"))
        if volume or "workload" not in done:
            load = nb.fmt(round(volume), lang) if volume else "[Y]"
            text += f" mit {load} Anfragen pro Tag" if de else f" with {load} requests per day"
    if use:
        text += f", Auslastung {use}" if de else f", utilisation {use}"
    if where:
        text += f", Server in {where}" if de else f", servers in {where}"
    return text + "."
