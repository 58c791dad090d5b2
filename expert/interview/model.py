"""The model answer: a catalog model by (loose) name, else a size in billions of parameters."""

from __future__ import annotations

import re

from . import aliases, numbers as nb
from .result import Parsed, fail, num as _num, safe, say

B_SCALES = {"mrd", "mia", "milliarde", "milliarden", "bn", "billion", "billions"}
M_SCALES = {"m", "mio", "mn", "million", "millions", "millionen"}
_FILLER = {"model", "modell", "parameter", "parameters", "parametern", "params", "ca", "about", "etwa",
           "rund", "ungefähr", "around", "approx", "size", "grösse", "groesse", "mit", "with", "a",
           "an", "ein", "eine", "of", "von", "the", "der", "die", "das", "is", "ist", "circa", "llm"}


def sizes(t: str, *, loose: bool = False) -> list[tuple[float, int, int]]:
    """Model sizes in billions: `13B`, `13 Mrd.`, `8x7b`; with `loose` also `350M parameters`."""
    out, nums = [], nb.scan(t)
    for i, n in enumerate(nums):
        after = t[n.end:n.end + 2].lstrip(" ")
        if i and t[nums[i - 1].end:n.start].strip() == "x" and after[:1] == "b":
            continue  # the 7 of 8x7b, handled with the 8
        if n.scale in B_SCALES:
            out.append((n.value / 1e9, n.start, n.end))
        elif n.scale in M_SCALES and (loose or "param" in t[n.end:n.end + 12]):
            out.append((n.value / 1e9, n.start, n.end))
        elif not n.scale and re.match(r" ?b(?![a-z])", t[n.end:n.end + 3]):
            out.append((n.value, n.start, t.index("b", n.end) + 1))
        elif not n.scale and i + 1 < len(nums) and t[n.end:nums[i + 1].start].strip() == "x":
            m = nums[i + 1]
            if re.match(r" ?b(?![a-z])", t[m.end:m.end + 3]):
                out.append((n.value * m.value, n.start, t.index("b", m.end) + 1))
    return out


def _by_family(t: str, lang: str, models: dict[str, str], fam: tuple[str, int, int],
               found: list[tuple[float, int, int]]) -> tuple[Parsed, int, int]:
    """A family name (`llama`, `qwen`) plus an optional version and size → the catalog id."""
    family, start, end = fam
    size = next((s for s in found if s[1] >= start + len(family)), None)
    between = t[start + len(family):size[1] if size else start + len(family) + 8]
    v = re.match(r"[ -]?v?(\d+(?:\.\d+)?)", between)
    version = v.group(1) if v else ""
    if not size:
        cands = sorted({i for i in models.values() if (p := aliases.split_id(i)) and p[0] == family
                        and p[1].startswith(version)})
        if len(cands) == 1:
            only = aliases.exact(t[start:end], models)
            note = None if only else say("interview.note.model.only", lang, model=cands[0], family=family)
            return Parsed({"model": cands[0]}, lang=lang, note=note), start, end
        known = ", ".join(cands)
        return fail("model", lang, "interview.reply.model.which_size", known=known), start, end
    raw = t[size[1]:size[2]].replace(" ", "")
    label = raw.rstrip("b") if "x" in raw else f"{size[0]:g}"
    pick, others = aliases.by_family(family, label, version, models)
    if pick:
        note = None
        if others or (version and aliases.split_id(pick)[1] != version):
            also = ", ".join(others)
            note = (say("interview.note.model.took_also", lang, model=pick, also=also) if also
                    else say("interview.note.model.took", lang, model=pick))
        return Parsed({"model": pick}, lang=lang, note=note), start, size[2]
    name = f"{family} {version} {label}B".replace("  ", " ")
    note = say("interview.note.model.generic", lang, name=name, label=label)
    return Parsed({"params_b": _num(size[0])}, lang=lang, note=note), start, size[2]


def find_model(t: str, lang: str, models: dict[str, str], strict: bool) -> tuple[Parsed, int, int]:
    """Model in a normalized text with its span; `strict` needs a name or a `B` size."""
    hit = aliases.exact(t, models)
    if hit:
        return Parsed({"model": hit[0]}, lang=lang), hit[1], hit[2]
    fam, found = aliases.family_of(t, models), sizes(t, loose=not strict)
    if fam:
        return _by_family(t, lang, models, fam, found)
    if found:
        value, start, end = found[0]
        moe = "x" in t[start:end]
        note = say("interview.note.model.moe_total", lang, size=f"{value:g}") if moe else None
        return Parsed({"params_b": _num(value)}, lang=lang, note=note), start, end
    bare = nb.scan(t, scales=False)
    words = set(re.findall(r"[a-zäöü]+", t)) - _FILLER
    if words and not strict and bare:
        name = t.strip()[:40]
        return fail("model", lang, "interview.reply.model.unknown", name=repr(name)), -1, -1
    if not strict and len(bare) == 1 and 0.05 <= bare[0].value <= 3000:
        note = say("interview.note.billions", lang)
        return Parsed({"params_b": _num(bare[0].value)}, lang=lang, note=note), bare[0].start, bare[0].end
    return fail("model", lang, "interview.reply.model.none"), -1, -1


@safe("model")
def parse_model(t: str, lang: str = "en", models: dict[str, str] | None = None,
                strict: bool = False) -> Parsed:
    """Model answer → `{model: id}` for a known model, else `{params_b: N}`."""
    parsed, start, _ = find_model(t, lang, models or aliases.DEFAULT_MODEL_ALIASES, strict)
    if parsed.ok and parsed.fields.get("params_b", 1) <= 0:
        return fail("model", lang, "interview.reply.model.not_positive")
    return parsed
