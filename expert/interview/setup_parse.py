"""Parsers for the audit interview: free-text answers about a GPU setup someone already runs.

Each parser reads one answer to a question of `setup_questions` (English or German) and returns a
`Parsed` whose `fields` use the setup file's field names (`gpu`, `count`, `ownership`,
`utilization`, `latency_p95_s`, `hosting`, `interconnect`, `monitoring`, `backups`, `cpu_cores`,
`ram_gb`, `storage`). Same contract as the other parsers: text in, `Parsed` out, never an exception.
Here: the GPU and its count, utilisation, p95 latency; `setup_place` reads ownership and location,
`setup_host` the interconnect, operations and host (all re-exported below).
"""

from __future__ import annotations

import re

from . import aliases, lexicon as lx, numbers as nb
from .followups import parse_latency
from .result import Parsed, fail, num, safe, say
from .setup_host import SERVERS, per_unit

CONTRACT_GPU_IDS = (
    "l4", "a10", "l40s", "a100-40gb-pcie", "a100-40gb-sxm", "a100-80gb-pcie", "a100-80gb-sxm",
    "h100-pcie", "h100-sxm", "h100-nvl", "h200", "b200", "rtx-4090", "rtx-5090", "rtx-a5000",
    "rtx-a6000", "rtx-6000-ada", "rtx-pro-6000", "rtx-pro-6000-server", "mi300x", "mi325x",
    "gaudi2", "gaudi3",
)
"""The GPU ids every catalog has (CONTRACT.md)."""

# Short names, each to the id the aliases of knowledge/gpus.yaml give it (a test keeps them equal);
# names equal to an id up to case and separators (`L40S`, `H200`, `MI300X`) come with the ids.
_SHORT_NAMES = {
    "h100-sxm": ("H100", "H100 SXM", "H100 SXM5", "H100 80GB"), "h100-pcie": ("H100 PCIe",),
    "h100-nvl": ("H100 NVL", "H100 94GB"), "a100-40gb-pcie": ("A100 40GB", "A100 40GB PCIe"),
    "a100-80gb-pcie": ("A100", "A100 80GB", "A100 PCIe", "A100 80GB PCIe"),
    "a100-40gb-sxm": ("A100 40GB SXM",), "a100-80gb-sxm": ("A100 SXM", "A100 80GB SXM"),
    "rtx-4090": ("RTX 4090", "4090"), "rtx-5090": ("RTX 5090", "5090"),
    "rtx-a5000": ("RTX A5000", "A5000"), "rtx-a6000": ("RTX A6000", "A6000"),
    "rtx-6000-ada": ("RTX 6000 Ada", "6000 Ada"), "rtx-pro-6000": ("RTX PRO 6000",),
    "rtx-pro-6000-server": ("RTX PRO 6000 Server",), "gaudi2": ("Gaudi 2",), "gaudi3": ("Gaudi 3",),
}
DEFAULT_GPU_ALIASES: dict[str, str] = ({gpu_id: gpu_id for gpu_id in CONTRACT_GPU_IDS}
                                       | {n: i for i, names in _SHORT_NAMES.items() for n in names})
"""Alias → catalog id when no catalog aliases are passed: the contract ids and the short names."""

_NOT_COUNT = re.compile(r" ?(?:gb|gib|g|tb|w|%|gbit|ghz|mhz|cores?|kerne?|nodes?|knoten|server\w*"
                        r"|jahre?|years?|months?|monate?)(?![a-z])")
_ONE = lx.words("a single", "single", "eine?", "einzige\\w*")
_MEM = re.compile(r" ?(?:gb|gib|g)(?![a-z])(?! ?(?:ram|arbeitsspeicher|hauptspeicher|ddr))")
_PCT = re.compile(r" ?(?:%|prozent|percent|pct)")
_PEAK = lx.words("peak\\w*", "max\\w*", "spitze\\w*", "höchst\\w*", "up to", "bis zu", "top")
_MEAN = lx.words("average", "avg", "mean", "\\w*mittel\\w*", "\\w*schnitt\\w*", "typical\\w*",
                 "typisch\\w*", "normal\\w*", "usually", "meist\\w*", "median")
_SHARES = ((lx.words("a third", "one third", "ein drittel", "drittel"), 1 / 3),
           (lx.words("half", "halb\\w*", "hälfte"), 0.5),
           (lx.words("a quarter", "one quarter", "viertel"), 0.25))
_PCTL = (r"(?<![\w.,])(?:p ?{0}|{0}(?:th|\.|-?te[ns]?)?[- ]?(?:percentile|perzentil)\w*|"
         r"{0} ?(?:%|prozent|percent))(?![\w])")
_P95 = re.compile(_PCTL.format("95"))
_NOT_TIME = re.compile(_PCTL.format(r"\d{1,3}(?:\.\d+)?"))     # `p95`, `95 %`, `99th percentile`
_STAT = re.compile("|".join(p.pattern for p in (_NOT_TIME, _MEAN, lx.words(
    "max\\w*", "peak\\w*", "spitze\\w*", "worst\\w*"))))


def _count(t: str, span: tuple[int, int]) -> tuple[int | None, int]:
    """(cards, where that count starts): the count nearest the GPU name; (1, -1) when none."""
    found = [(n.start, n.end, n.value) for n in nb.scan(t, scales=False, words=True)
             if not (span[0] <= n.start < span[1]) and not _NOT_COUNT.match(t, n.end)]
    found += [(m.start(), m.end(), 1) for m in _ONE.finditer(t)]
    if not found:
        return 1, -1
    dist = lambda f: span[0] - f[1] if f[1] <= span[0] else f[0] - span[1] + 0.5  # noqa: E731
    start, _, value = min(found, key=dist)
    return (int(value) if value == int(value) and 1 <= value <= 4096 else None), start


def _variant(t: str, hit: tuple[str, int, int], gpus: dict[str, str]) -> str:
    """The GPU id, or the variant with the memory size stated next to the name (`A100 mit 40 GB`
    → alias `A100 40GB`) when `gpus` has one: the size is tried after each word of the name."""
    gpu_id, start, end = hit
    near = sorted((max(n.start - end, start - m.end()), n.value) for n in nb.scan(t, scales=False)
                  if (m := _MEM.match(t, n.end)) and not start <= n.start < end)
    if not near or near[0][0] > 20 or near[0][1] != int(near[0][1]):
        return gpu_id
    keys = {aliases.key(name): i for name, i in gpus.items()}
    words, size = re.findall(r"[a-z0-9]+", t[start:end]), f"{int(near[0][1])}gb"
    tries = ("".join(words[:k]) + size + "".join(words[k:]) for k in range(len(words), 0, -1))
    return next((keys[c] for c in tries if c in keys), gpu_id)


@safe("gpu")
def parse_gpu(t: str, lang: str = "en", gpus: dict[str, str] | None = None) -> Parsed:
    """GPU model and count → `{gpu: id, count: N}`: `2× H100 SXM`, `zwei L40S`, `H100 x 4`.

    The longest alias of `gpus` (alias → catalog id; default `DEFAULT_GPU_ALIASES`) is matched as
    a run of whole words, so the digits of the name (`4090`, `80GB`) never count as the count; a
    memory size next to it picks that variant (`A100 mit 40 GB`); a count per server multiplies
    (`2 servers with 8 H100 each` = 16).
    """
    gpus = gpus or DEFAULT_GPU_ALIASES
    for text in (t, re.sub(r"(?<=\d)s(?![a-z])", "", t)):          # plural: `4 H100s`
        hit = aliases.exact(text, gpus)
        if hit:
            break
    if not hit:
        return fail("gpu", lang, "interview.reply.gpu.which")
    count, at = _count(text, hit[1:])
    count = count and count * per_unit(text, SERVERS, at, hit[2])
    if count is None or count > 4096:
        return fail("gpu", lang, "interview.reply.gpu.count")
    return Parsed({"gpu": _variant(text, hit, gpus), "count": count}, lang=lang)


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
            note = say("interview.note.range_upper", lang)
            pct = _PCT.match(t, last.end)
        found.append((a.start, pct.end() if pct else last.end,
                      last.value / 100 if pct or last.value > 1 else last.value))
        nums = nums[2 if last is b else 1:]
    if not found:
        share = next((v for p, v in _SHARES if lx.has(p, t)), None)
        if share is None:
            return fail("utilization", lang, "interview.reply.utilization.none")
        found = [(0, len(t), share)]
    if any(v > 1 for *_, v in found):
        return fail("utilization", lang, "interview.reply.utilization.over_100")
    spans = [(s, e) for s, e, _ in found]
    first_word = min([m.start() for p in (_PEAK, _MEAN) for m in p.finditer(t)], default=len(t))
    labels = [_label(t, s, e, spans, first_word < found[0][0]) for s, e, _ in found]
    mean = next((v for (*_, v), k in zip(found, labels) if k == "mean"), None)
    free = [v for (*_, v), k in zip(found, labels) if k is None]
    if mean is None and free:
        mean = free.pop(0)
    peak = next((v for (*_, v), k in zip(found, labels) if k == "peak"), free[0] if free else None)
    if mean is None or (peak is not None and peak < mean):
        return fail("utilization", lang, "interview.reply.utilization.mean_and_peak")
    util = {"mean": num(mean)} | ({"peak": num(peak)} if peak is not None else {})
    return Parsed({"utilization": util}, lang=lang, note=note)


def _times(t: str) -> list[nb.Number]:
    """The numbers in t outside labels (`p95`, `median`)."""
    return nb.scan(_STAT.sub(lambda m: " " * len(m.group()), t), scales=False, words=True)


def _p95_part(t: str) -> str:
    """The text that gives the p95 (`median 300 ms, p95 1.2 s` → ` 1.2 s`): what follows a p95
    label up to the next label, or what precedes it when labels follow their numbers (`1.2 s
    p95, 300 ms median`); the whole text without a p95 label."""
    labels = list(_STAT.finditer(t))
    i = next((k for k, m in enumerate(labels) if _P95.fullmatch(m.group())), None)
    if i is None:
        return t
    after = t[labels[i].end():labels[i + 1].start() if i + 1 < len(labels) else len(t)]
    before = t[labels[i - 1].end() if i else 0:labels[i].start()]
    first = _times(t)
    parts = (before, after) if first and first[0].start < labels[0].start() else (after, before)
    return next((part for part in parts if _times(part)), t)


@safe("latency_p95")
def parse_latency_p95(t: str, lang: str = "en") -> Parsed:
    """Measured p95 response time → `{latency_p95_s: x}`: `0.9 s`, `900 ms`, `0,9 Sekunden`.

    Read by `followups.parse_latency`; the time labelled p95 wins over the others (`median 300 ms,
    p95 1.2 s` → 1.2); a range counts with its upper value, and an answer without a number
    (`egal`, `real time`) fails: a measurement is asked, not a target.
    """
    t = _NOT_TIME.sub(" ", _p95_part(t))            # `95 % under 0.9 s`, `p95 = 900 ms`
    nums = nb.scan(t, scales=False, words=True)
    rng = nb.first_range(t, nums)
    got = parse_latency(t[rng[1].start:] if rng else t, lang)
    if not nums or not got.ok or "latency_target_s" not in got.fields:
        return fail("latency_p95", lang, "interview.reply.latency_p95")
    if rng:
        got = Parsed(got.fields, note=say("interview.note.range_upper", lang))
    return Parsed({"latency_p95_s": num(got.fields["latency_target_s"])}, lang=lang, note=got.note)


# the other answers, re-exported so callers find every setup parser here
from .setup_host import parse_host, parse_interconnect, parse_operations  # noqa: E402, F401
from .setup_place import parse_location, parse_ownership  # noqa: E402, F401
