"""The precision question (issue 22): may the model run quantised, or must it stay as validated?

Same contract as the other parsers: text in, `Parsed` out, never an exception.

- yes, "fine", "egal", "not sure" → nothing: the precision stays open, so the configurator may use
  8-bit (fp8, int8); 000 Q2: INT8 usually loses < 3 %. "4-bit" / "int4" with a yes → `allow_int4`.
- a named precision ("fp16", "bf16", "int8", "8-bit", "4-bit") without a yes → `precision`: stated, kept.
- no, "must stay", "validated" → `allow_quantization: false`: the model's own precision kept — its native
  format where it ships in one (gpt-oss: MXFP4, `expert.sizing.weight_format`), else 16-bit (the
  documents' figures are FP16, 000 D1). The interview knows no catalog, so it names no format itself.
"""

from __future__ import annotations

import re

from . import lexicon as lx
from .choices import undecided
from .result import Parsed, fail, safe, say

_NAMED = (("fp32", r"fp ?32|float ?32|32[- ]?bit"), ("bf16", r"bf ?16|bfloat ?16"),
          ("fp16", r"fp ?16|float ?16|half|16[- ]?bit"), ("fp8", r"fp ?8|float ?8"),
          ("int8", r"int ?8|8[- ]?bit"), ("int4", r"int ?4|4[- ]?bit|awq|gptq"))
"""Precision words, best quality first (`8-bit` reads as int8: 000 Q2's INT8)."""
_FOUR = re.compile(r"(?<![\w])(?:int ?4|4[- ]?bit|awq|gptq)(?![\w])")
_OK = lx.words("fine", "ok", "okay", "allowed", "erlaubt", "darf", "may", "quantis\\w*", "quantiz\\w*",
               "gerne", "passt", "in ordnung")
_KEEP = lx.words("must stay", "stay\\w*", "keep\\w*", "bleib\\w*", "behalt\\w*", "validated", "validiert\\w*",
                 "geprüft", "original", "full precision", "volle präzision", "unquantis\\w*", "unquantiz\\w*",
                 "nicht quantis\\w*", "not quantis\\w*", "not quantiz\\w*")


def named(t: str) -> str | None:
    """The first precision the text names, best quality first; None when it names none."""
    for precision, pattern in _NAMED:
        if re.search(r"(?<![\w])(?:" + pattern + r")(?![\w])", t):
            return precision
    return None


@safe("precision")
def parse_precision(t: str, lang: str = "en") -> Parsed:
    """Answer to 'may the model run quantised?' → `{}` (open), `{allow_int4: true}` or `{precision: p}`."""
    name = named(t)
    if name is None and not lx.has(_KEEP, t) and undecided(t):
        return Parsed({}, lang=lang, note=say("interview.note.precision.open", lang))
    keep = lx.has(_KEEP, t) or (lx.has(lx.NO, t) and not lx.has(lx.YES, t))
    if not keep and (lx.has(lx.YES, t) or lx.has(_OK, t)):
        if _FOUR.search(t):
            return Parsed({"allow_int4": True}, lang=lang, note=say("interview.note.precision.int4", lang))
        return Parsed({}, lang=lang, note=say("interview.note.precision.open", lang))
    if name is not None:
        return Parsed({"precision": name}, lang=lang, note=say("interview.note.precision.kept", lang, precision=name))
    if keep:
        return Parsed({"allow_quantization": False}, lang=lang, note=say("interview.note.precision.kept16", lang))
    return fail("precision", lang, "interview.reply.precision")
