"""Parsers for the audit interview: free-text answers about a GPU setup someone already runs.

Each parser reads one answer to a question of `setup_questions` (English or German) and returns a
`Parsed` whose `fields` use the setup file's field names (`gpu`, `count`, `ownership`,
`utilization`, `latency_p95_s`, `hosting`, `interconnect`, `monitoring`, `backups`, `cpu_cores`,
`ram_gb`, `storage`). Same contract as the other parsers: text in, `Parsed` out, never an exception.
Here: the GPU and its count, ownership, utilisation, p95 latency; `setup_place` reads the location,
`setup_host` the interconnect, operations and host (all re-exported below).
"""

from __future__ import annotations

import re

from . import aliases, lexicon as lx, numbers as nb
from .followups import parse_latency
from .result import Parsed, fail, num, safe, say

CONTRACT_GPU_IDS = (
    "l4", "a10", "l40s", "a100-40gb-pcie", "a100-40gb-sxm", "a100-80gb-pcie", "a100-80gb-sxm",
    "h100-pcie", "h100-sxm", "h100-nvl", "h200", "b200", "rtx-4090", "rtx-5090", "rtx-a5000",
    "rtx-a6000", "rtx-6000-ada", "rtx-pro-6000", "rtx-pro-6000-server", "mi300x", "mi325x",
    "gaudi2", "gaudi3",
)
"""The GPU ids every catalog has (CONTRACT.md)."""

DEFAULT_GPU_ALIASES: dict[str, str] = {gpu_id: gpu_id for gpu_id in CONTRACT_GPU_IDS}
"""Alias → catalog id when no catalog aliases are passed: each contract id maps to itself."""

_NOT_COUNT = re.compile(r" ?(?:gb|gib|g|tb|w|%|gbit|ghz|mhz|cores?|kerne?|nodes?|knoten|server\w*"
                        r"|jahre?|years?|months?|monate?)(?![a-z])")
_ONE = lx.words("a single", "single", "eine?", "einzige\\w*")
_RENTED = lx.words("rent\\w*", "miet\\w*", "gemietet\\w*", "leas\\w*", "geleast", "cloud\\w*",
                   "aws", "amazon", "azure", "gcp", "google", "hyperscaler", "on[- ]demand",
                   "pay[- ]as[- ]you[- ]go")
_OWNED = lx.words("own", "owned", "bought", "buy", "purchas\\w*", "gekauft", "kauf\\w*",
                  "eigen(?:e[nmrs]?)?", "eigentum\\w*", "eigentüm\\w*", "gehör\\w* uns",
                  "uns gehör\\w*", "on[- ]?prem\\w*", "in[- ]house", "besitz\\w*", "capex")
_NEGATED = re.compile(r"(?<![\w])(?:not|nicht|no|kein\w*|never|nie|don'?t|do not)(?: \w+)? $")
_PCT = re.compile(r" ?(?:%|prozent|percent|pct)")
_PEAK = lx.words("peak\\w*", "max\\w*", "spitze\\w*", "höchst\\w*", "up to", "bis zu", "top")
_MEAN = lx.words("average", "avg", "mean", "\\w*mittel\\w*", "\\w*schnitt\\w*", "typical\\w*",
                 "typisch\\w*", "normal\\w*", "usually", "meist\\w*", "median")
_SHARES = ((lx.words("a third", "one third", "ein drittel", "drittel"), 1 / 3),
           (lx.words("half", "halb\\w*", "hälfte"), 0.5),
           (lx.words("a quarter", "one quarter", "viertel"), 0.25))
_NOT_TIME = re.compile(r"(?<![\w])p ?\d\d(?![\w])|\d+ ?(?:%|prozent|percent)|"
                       r"\d+(?:th|\.)? ?(?:percentile|perzentil)\w*")

def _count(t: str, span: tuple[int, int]) -> int | None:
    """The number of cards: the count number nearest the GPU name, 1 when none is given."""
    found = [(n.start, n.end, n.value) for n in nb.scan(t, scales=False, words=True)
             if not (span[0] <= n.start < span[1]) and not _NOT_COUNT.match(t, n.end)]
    found += [(m.start(), m.end(), 1) for m in _ONE.finditer(t)]
    if not found:
        return 1
    dist = lambda f: span[0] - f[1] if f[1] <= span[0] else f[0] - span[1] + 0.5  # noqa: E731
    value = min(found, key=dist)[2]
    return int(value) if value == int(value) and 1 <= value <= 4096 else None


@safe("gpu")
def parse_gpu(t: str, lang: str = "en", gpus: dict[str, str] | None = None) -> Parsed:
    """GPU model and count → `{gpu: id, count: N}`: `2× H100 SXM`, `zwei L40S`, `H100 x 4`.

    The longest alias of `gpus` (alias → catalog id; default `DEFAULT_GPU_ALIASES`) is matched as
    a run of whole words, so the digits of the name (`4090`, `80GB`) never count as the count.
    """
    gpus = gpus or DEFAULT_GPU_ALIASES
    for text in (t, re.sub(r"(?<=\d)s(?![a-z])", "", t)):          # plural: `4 H100s`
        hit = aliases.exact(text, gpus)
        if hit:
            break
    if not hit:
        return fail("gpu", lang, "Which GPU? e.g. H100, A100 80GB, L40S.",
                    "Welche GPU? z. B. H100, A100 80GB, L40S.")
    count = _count(text, hit[1:])
    if count is None:
        return fail("gpu", lang, "How many cards? e.g. 2× H100.",
                    "Wie viele Karten? z. B. 2× H100.")
    return Parsed({"gpu": hit[0], "count": count}, lang=lang)


def _votes(t: str, pattern: re.Pattern[str], value: str, other: str) -> list[tuple[int, str]]:
    """(position, value) for each match; a negated match (`not rented`) votes for `other`."""
    return [(m.start(), other if _NEGATED.search(t[max(0, m.start() - 20):m.start()]) else value)
            for m in pattern.finditer(t)]


@safe("ownership")
def parse_ownership(t: str, lang: str = "en") -> Parsed:
    """Rented or owned → `{ownership: rented|owned}` (`cloud`, `gemietet`, `bought`, `eigene`)."""
    votes = sorted(_votes(t, _RENTED, "rented", "owned") + _votes(t, _OWNED, "owned", "rented"))
    if not votes:
        return fail("ownership", lang, "Rented (cloud) or owned?", "Gemietet (Cloud) oder gekauft?")
    return Parsed({"ownership": votes[0][1]}, lang=lang)


def _label(t: str, start: int, end: int, spans: list, before_first: bool) -> str | None:
    """`peak`, `mean` or None for the number at t[start:end], from the words in its clause."""
    lo, hi = lx.clause_around(t, start, end, spans)
    hits = sorted([(m.start(), "peak") for m in _PEAK.finditer(t, lo, hi)]
                  + [(m.start(), "mean") for m in _MEAN.finditer(t, lo, hi)])
    before = [k for p, k in hits if p < start][-1:]
    after = [k for p, k in hits if p >= end][:1]
    sides = (before, after) if before_first else (after, before)
    return (sides[0] or sides[1] or [None])[0]


@safe("utilization")
def parse_utilization(t: str, lang: str = "en") -> Parsed:
    """GPU utilisation → `{utilization: {mean, peak}}` as shares 0..1 (`35 %, Spitze 60 %`).

    Numbers above 1 without `%` are percent; a range (`15-20 %`) counts with its upper value; of
    two unmarked numbers the first is the mean, the second the peak.
    """
    nums, found, note = nb.scan(t, scales=False), [], None
    while nums:
        a, b = nums[0], (nums[1] if len(nums) > 1 else None)
        pct = _PCT.match(t, a.end)
        a_pct = nb.Number(a.value, a.start, pct.end() if pct else a.end)   # `15 % - 20 %`
        last = b if b and nb.first_range(t, [a_pct, b]) else a
        if last is b:
            note = say(lang, "range: the upper value is used", "Spanne: der obere Wert gilt")
            pct = _PCT.match(t, last.end)
        found.append((a.start, pct.end() if pct else last.end,
                      last.value / 100 if pct or last.value > 1 else last.value))
        nums = nums[2 if last is b else 1:]
    if not found:
        share = next((v for p, v in _SHARES if lx.has(p, t)), None)
        if share is None:
            return fail("utilization", lang, "No percentage found.",
                        "Keine Prozentangabe gefunden.")
        found = [(0, len(t), share)]
    if any(v > 1 for *_, v in found):
        return fail("utilization", lang, "Utilisation is at most 100 %.",
                    "Die Auslastung ist höchstens 100 %.")
    spans = [(s, e) for s, e, _ in found]
    first_word = min([m.start() for p in (_PEAK, _MEAN) for m in p.finditer(t)], default=len(t))
    labels = [_label(t, s, e, spans, first_word < found[0][0]) for s, e, _ in found]
    mean = next((v for (*_, v), k in zip(found, labels) if k == "mean"), None)
    free = [v for (*_, v), k in zip(found, labels) if k is None]
    if mean is None and free:
        mean = free.pop(0)
    peak = next((v for (*_, v), k in zip(found, labels) if k == "peak"), free[0] if free else None)
    if mean is None or (peak is not None and peak < mean):
        return fail("utilization", lang, "Average and peak, please (e.g. 35 %, peak 60 %).",
                    "Bitte Mittel und Spitze (z. B. 35 %, Spitze 60 %).")
    util = {"mean": num(mean)} | ({"peak": num(peak)} if peak is not None else {})
    return Parsed({"utilization": util}, lang=lang, note=note)


@safe("latency_p95")
def parse_latency_p95(t: str, lang: str = "en") -> Parsed:
    """Measured p95 response time → `{latency_p95_s: x}`: `0.9 s`, `900 ms`, `0,9 Sekunden`.

    Read by `followups.parse_latency`; a range counts with its upper value, and an answer without
    a number (`egal`, `real time`) fails: a measurement is asked, not a target.
    """
    t = _NOT_TIME.sub(" ", t)                       # `95 % under 0.9 s`, `p95 = 900 ms`
    nums = nb.scan(t, scales=False, words=True)
    rng = nb.first_range(t, nums)
    got = parse_latency(t[rng[1].start:] if rng else t, lang)
    if not nums or not got.ok or "latency_target_s" not in got.fields:
        return fail("latency_p95", lang, "No measured time found (e.g. 0.9 s or 900 ms).",
                    "Keine gemessene Zeit gefunden (z. B. 0,9 s oder 900 ms).")
    if rng:
        got = Parsed(got.fields, note=say(lang, "range: the upper value is used",
                                          "Spanne: der obere Wert gilt"))
    return Parsed({"latency_p95_s": num(got.fields["latency_target_s"])}, lang=lang, note=got.note)


# the other answers, re-exported so callers find every setup parser here
from .setup_host import parse_host, parse_interconnect, parse_operations  # noqa: E402
from .setup_place import COUNTRIES, parse_location  # noqa: E402
