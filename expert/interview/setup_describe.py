"""A setup in plain words: what the audit interview understood, and the line in the top panel.

`describe_setup({"gpu": "h100-sxm", "count": 2, "ownership": "rented"})` → `2× h100-sxm, rented`;
`render_setup` writes the setup so far with `[…]` blanks for the parts still to ask. The words are
in the message catalog (`interview.describe.setup.*`).
"""

from __future__ import annotations

from expert.messages import t

from . import numbers as nb
from .workload_describe import describe


_OWNERSHIP = {"rented": "interview.describe.setup.rented", "owned": "interview.describe.setup.owned"}
_LINKS = {"nvlink": "NVLink", "pcie": "PCIe", "pcie-bridge": "PCIe-Bridge"}
"""Interconnects by their product names (the same in both languages)."""


def describe_setup(fields: dict, lang: str = "en") -> str:
    """Setup fields in plain words (`2× h100-sxm, rented, utilisation 35 % (peak 60 %)`)."""
    parts = []
    for name, value in fields.items():
        if name == "gpu":
            parts.append(f"{fields.get('count', 1)}× {value}")
        elif name == "ownership":
            parts.append(t(_OWNERSHIP[value], lang))
        elif name == "workload":
            parts.append(describe(value, lang))
        elif name == "utilization":
            peak, mean = value.get("peak"), f"{value['mean']:.0%}"
            parts.append(t("interview.describe.setup.utilization", lang, mean=mean) if peak is None else
                         t("interview.describe.setup.utilization_peak", lang, mean=mean, peak=f"{peak:.0%}"))
        elif name == "latency_p95_s":
            parts.append(f"p95 {nb.fmt(value, lang)} s")
        elif name == "hosting":
            seat, country = value.get("provider_seat"), value.get("country", "?")
            parts.append(t("interview.describe.setup.servers_in_seat", lang, country=country, seat=seat)
                         if seat else t("interview.describe.setup.servers_in", lang, country=country))
        elif name in ("monitoring", "backups"):
            parts.append(t(f"interview.describe.setup.{name}_{'yes' if value else 'no'}", lang))
        elif name == "cpu_cores":
            parts.append(t("interview.describe.setup.cores", lang, n=value))
        elif name == "ram_gb":
            parts.append(f"{nb.fmt(value, lang)} GB RAM")
        elif name == "storage":
            parts.append(str(value.get("type", "")).upper().replace("SATA-SSD", "SATA SSD"))
        elif name == "interconnect":
            parts.append(t("interview.describe.setup.connected", lang, link=_LINKS.get(value, value)))
        elif name != "count":
            parts.append(f"{name}: {value}")
    return ", ".join(parts)


def render_setup(a: dict, lang: str = "en", done: set[str] | frozenset[str] = frozenset()) -> str:
    """`You run 2× h100-sxm (rented) for llama-3.1-8b with 20 000 requests per day, utilisation
    35 %, servers in CH.` — `[…]` blanks for parts still to ask; parts skipped are left out."""
    w = a.get("workload") or {}

    def part(qid: str, value: str | None, blank: str) -> str | None:
        if value is not None:
            return value
        return None if qid in done else blank

    gpu = part("gpu", f"{a.get('count', 1)}× {a['gpu']}" if a.get("gpu") else None, "[GPU]")
    own = part("ownership", describe_setup({"ownership": a["ownership"]}, lang) if a.get("ownership")
               else None, t("interview.describe.setup.blank_ownership", lang))
    model = w.get("model") or (f"{w['params_b']:g}B" if w.get("params_b") else None)
    volume = w.get("requests_per_day") or (w["requests_per_second"] * 86400
                                           if w.get("requests_per_second") else None)
    use = part("utilization", f"{a['utilization']['mean']:.0%}" if a.get("utilization") else None, "[%]")
    where = part("location", a["hosting"].get("country", "?") if a.get("hosting") else None,
                 t("interview.describe.setup.blank_country", lang))
    text = t("interview.describe.setup.you_run", lang, gpu=gpu) + (f" ({own})" if own else "")
    if model or "workload" not in done:
        text += " " + t("interview.describe.setup.for", lang,
                        model=model or t("interview.describe.setup.blank_model", lang))
        if volume or "workload" not in done:
            load = nb.fmt(round(volume), lang) if volume else "[Y]"
            text += " " + t("interview.describe.setup.with_load", lang, load=load)
    if use:
        text += ", " + t("interview.describe.setup.utilization", lang, mean=use)
    if where:
        text += ", " + t("interview.describe.setup.servers_in", lang, country=where)
    return text + "."
