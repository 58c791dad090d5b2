"""Latency targets as the field states them (TTFT, TPOT, end to end) and the load to size for.

A workload names its latency in one of three ways; `targets()` turns it into the targets the sizing
checks, each with where it came from (docs/slo.md):

- `ttft_target_s`, `tpot_target_ms`: taken as given.
- `latency_target_s`: the first words (p95 TTFT) when `streaming` (default), the complete answer
  (end to end) when not, or when the answer is short (below).
- nothing: a streamed answer gets 000 U1's "under 2 s" as TTFT and a TPOT at reading speed; an answer
  consumed whole (analytical or batch work) is sized for throughput, without a latency bound.
  An interactive (streamed) answer is never sized with unbounded latency.

A **short answer** (`output_tokens` ≤ `SHORT_OUTPUT_TOKENS`: a label, a routing decision, a tool call,
one sentence) is used when it is complete, streamed or not: its latency target (given, or U1's 2 s) is
the complete answer's, and no TPOT is set unless given. Read as TTFT, a router answering in 8-20 tokens
met its target with the complete answer at 1.1-2.2× it (issue 32).

TPOT defaults (docs/notes/modelling-anchors.md §1.1, §1.3): 150 ms (reading speed: 300 words a
minute, the upper end of most adults' 175-300 in Brysbaert 2019, at 0.75 words per token; inside
MLPerf's conversational 100-200 ms) and 40 ms when the TTFT target is 0.5 s or less (000 G5 "unter
500 ms"; MLPerf interactive Llama-2-70B 450 ms / 40 ms).

`SLO_TOLERANCE`: the sizing compares its estimates with the targets inside the estimate's
uncertainty, not as a hard cut on a point value (docs/slo.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from expert.inputs.workload import Workload

U1 = "000 U1 (Anwendungsfälle / RAG-Agent: 'Antwortzeiten unter 2 Sekunden')"
G5 = "000 G5 (H100: 'Latenzanforderungen unter 500 ms')"
"""The documents' words, quoted as written (German in both languages). Each source's own words are
the catalog's `slo.source.*` texts (`expert/messages/slo.py`), so a German report says them in German;
the MLPerf rules (mlcommons/inference_policies@ac93e89 inference_rules.adoc) and Brysbaert 2019
(doi:10.1016/j.jml.2019.104047) are cited there."""
DEFAULT_TTFT_S = 2.0
DEFAULT_TPOT_MS = 150.0
INTERACTIVE_TPOT_MS = 40.0
INTERACTIVE_TTFT_S = 0.5
SHORT_OUTPUT_TOKENS = 32
SLO_TOLERANCE = 0.10
TOLERANCE_SOURCE = ("own estimate: the speed model's error target (issue 11: TPOT and throughput within "
                    "20 % median); its MBU band 0.60-0.85 puts the fast end 15 % under the point value")


def _said(key: str, **values: object) -> tuple[str, dict]:
    """A source as the catalog key `slo.source.KEY` and its values, said in a language later."""
    return f"slo.source.{key}", values


@dataclass(frozen=True)
class Targets:
    """The latency targets a sizing checks (None: not bounded) and where each came from."""

    ttft_s: float | None
    tpot_ms: float | None
    e2e_s: float | None
    streaming: bool
    said: dict[str, tuple[str, dict]]
    """Where each target came from: a catalog key and its values (`sources_in` says them)."""

    @property
    def sources(self) -> dict[str, str]:
        """Where each target came from, in English."""
        return self.sources_in("en")

    def sources_in(self, lang: str) -> dict[str, str]:
        """Where each target came from, in `lang` (a German report says them in German)."""
        from expert.messages import t

        mlperf = t("slo.cite.mlperf", lang)
        cites = {"u1": U1, "g5": G5, "mlperf": mlperf, "reading": t("slo.cite.reading", lang, mlperf=mlperf),
                 "short_bound": t("slo.cite.short", lang)}
        return {name: t(key, lang, **cites, **values) for name, (key, values) in self.said.items()}

    @property
    def p95_target_s(self) -> float | None:
        """The target a measured p95 latency is compared with: the complete answer's (`e2e_s`) where one is
        set (an answer consumed whole, or a short one), else the first words' (`ttft_s`); None when neither
        is bounded. The audit's latency finding (R2) and its `meets_targets` read this one figure (QA 46 #4)."""
        return self.e2e_s if self.e2e_s is not None else self.ttft_s

    @property
    def tpot_s(self) -> float | None:
        """The TPOT target in seconds."""
        return None if self.tpot_ms is None else self.tpot_ms / 1000

    def as_dict(self, lang: str = "en") -> dict:
        """The report's `slo` record, its sources in `lang`."""
        return {"streaming": self.streaming, "ttft_target_s": self.ttft_s, "tpot_target_ms": self.tpot_ms,
                "e2e_target_s": self.e2e_s, "tolerance": SLO_TOLERANCE, "sources": self.sources_in(lang)}


def targets(w: Workload) -> Targets:
    """The targets of a workload (module docstring)."""
    src: dict[str, tuple[str, dict]] = {}
    ttft = tpot = e2e = None
    if w.streaming and is_short(w):
        return _short_targets(w)
    if w.ttft_target_s is not None:
        ttft, src["ttft"] = w.ttft_target_s, _said("ttft_target")
    elif w.streaming and w.latency_target_s is not None:
        ttft, src["ttft"] = w.latency_target_s, _said("latency_first_words")
    elif w.streaming:
        ttft, src["ttft"] = DEFAULT_TTFT_S, _said("default_ttft")
    if not w.streaming and w.latency_target_s is not None:
        e2e, src["e2e"] = w.latency_target_s, _said("latency_complete")
    if w.tpot_target_ms is not None:
        tpot, src["tpot"] = w.tpot_target_ms, _said("tpot_target")
    elif w.streaming and ttft is not None and ttft <= INTERACTIVE_TTFT_S:
        tpot, src["tpot"] = INTERACTIVE_TPOT_MS, _said("interactive_tpot")
    elif w.streaming:
        tpot, src["tpot"] = DEFAULT_TPOT_MS, _said("reading_tpot")
    if ttft is None and tpot is None and e2e is None:
        src["e2e"] = _said("none")
    return Targets(ttft, tpot, e2e, w.streaming, src)


def is_short(w: Workload) -> bool:
    """Whether the answer is short (module docstring): used when complete, streamed or not."""
    return w.output_tokens <= SHORT_OUTPUT_TOKENS


def _short_targets(w: Workload) -> Targets:
    """The targets of a streamed short answer: the complete answer's latency; TTFT and TPOT only as given."""
    src: dict[str, tuple[str, dict]] = {}
    ttft = w.ttft_target_s
    if ttft is not None:
        src["ttft"] = _said("ttft_target")
    tpot = w.tpot_target_ms
    if tpot is not None:
        src["tpot"] = _said("tpot_target")
    if w.latency_target_s is not None:
        e2e, src["e2e"] = w.latency_target_s, _said("short_given", tokens=w.output_tokens, limit=SHORT_OUTPUT_TOKENS)
    elif ttft is None:
        e2e, src["e2e"] = DEFAULT_TTFT_S, _said("short_default", tokens=w.output_tokens, limit=SHORT_OUTPUT_TOKENS)
    else:
        e2e = None
    return Targets(ttft, tpot, e2e, w.streaming, src)


def rate_basis(w: Workload) -> dict:
    """How the load to size for was obtained (the report says it)."""
    if w.requests_per_second is not None:
        if w.peak_factor == 1.0 and "peak_to_average" not in w.model_fields_set:
            return {"basis": "rate", "peak_factor": 1.0,
                    "text": "a rate per second, minute or hour is the load to size for (no peak factor)"}
        return {"basis": "rate × peak_to_average", "peak_factor": w.peak_factor,
                "text": f"the given rate × peak_to_average {w.peak_factor:g} (set in the workload)"}
    return {"basis": "daily volume × peak_to_average", "peak_factor": w.peak_factor,
            "text": f"requests per day / 86 400 s × peak_to_average {w.peak_factor:g}"}
