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

MLPERF = ("MLPerf Inference datacenter rules (mlcommons/inference_policies@ac93e89 inference_rules.adoc): "
          "Llama-2-70B conversational TTFT 2 s / TPOT 200 ms, interactive 450 ms / 40 ms")
U1 = "000 U1 (Anwendungsfälle / RAG-Agent: 'Antwortzeiten unter 2 Sekunden')"
G5 = "000 G5 (H100: 'Latenzanforderungen unter 500 ms')"
READING = ("reading speed: 300 words/min (Brysbaert 2019, doi:10.1016/j.jml.2019.104047: most adults "
           "175-300) at 0.75 words/token = 6.7 tokens/s, i.e. 150 ms; " + MLPERF)
DEFAULT_TTFT_S = 2.0
DEFAULT_TPOT_MS = 150.0
INTERACTIVE_TPOT_MS = 40.0
INTERACTIVE_TTFT_S = 0.5
SHORT_OUTPUT_TOKENS = 32
SHORT_SOURCE = ("own bound: a label, a routing decision, a tool call or one sentence; 32 tokens are about 24 "
                "words, under 5 s of reading at 300 words/min (Brysbaert 2019)")
SLO_TOLERANCE = 0.10
TOLERANCE_SOURCE = ("own estimate: the speed model's error target (issue 11: TPOT and throughput within "
                    "20 % median); its MBU band 0.60-0.85 puts the fast end 15 % under the point value")


@dataclass(frozen=True)
class Targets:
    """The latency targets a sizing checks (None: not bounded) and where each came from."""

    ttft_s: float | None
    tpot_ms: float | None
    e2e_s: float | None
    streaming: bool
    sources: dict[str, str]

    @property
    def tpot_s(self) -> float | None:
        """The TPOT target in seconds."""
        return None if self.tpot_ms is None else self.tpot_ms / 1000

    def as_dict(self) -> dict:
        """The report's `slo` record."""
        return {"streaming": self.streaming, "ttft_target_s": self.ttft_s, "tpot_target_ms": self.tpot_ms,
                "e2e_target_s": self.e2e_s, "tolerance": SLO_TOLERANCE, "sources": dict(self.sources)}


def targets(w: Workload) -> Targets:
    """The targets of a workload (module docstring)."""
    src: dict[str, str] = {}
    ttft = tpot = e2e = None
    if w.streaming and is_short(w):
        return _short_targets(w)
    if w.ttft_target_s is not None:
        ttft, src["ttft"] = w.ttft_target_s, "workload: ttft_target_s"
    elif w.streaming and w.latency_target_s is not None:
        ttft, src["ttft"] = w.latency_target_s, "workload: latency_target_s (streamed: the first words)"
    elif w.streaming:
        ttft, src["ttft"] = DEFAULT_TTFT_S, f"default for a streamed answer: {U1}, read as TTFT ({MLPERF})"
    if not w.streaming and w.latency_target_s is not None:
        e2e, src["e2e"] = w.latency_target_s, "workload: latency_target_s (not streamed: the complete answer)"
    if w.tpot_target_ms is not None:
        tpot, src["tpot"] = w.tpot_target_ms, "workload: tpot_target_ms"
    elif w.streaming and ttft is not None and ttft <= INTERACTIVE_TTFT_S:
        tpot, src["tpot"] = INTERACTIVE_TPOT_MS, f"default for a TTFT target of 0.5 s or less: {G5}; {MLPERF}"
    elif w.streaming:
        tpot, src["tpot"] = DEFAULT_TPOT_MS, f"default for a streamed answer: {READING}"
    if ttft is None and tpot is None and e2e is None:
        src["e2e"] = "none: not streamed and no latency target given (analytical or batch work, sized for throughput)"
    return Targets(ttft, tpot, e2e, w.streaming, src)


def is_short(w: Workload) -> bool:
    """Whether the answer is short (module docstring): used when complete, streamed or not."""
    return w.output_tokens <= SHORT_OUTPUT_TOKENS


def _short_targets(w: Workload) -> Targets:
    """The targets of a streamed short answer: the complete answer's latency; TTFT and TPOT only as given."""
    src: dict[str, str] = {}
    ttft = w.ttft_target_s
    if ttft is not None:
        src["ttft"] = "workload: ttft_target_s"
    tpot = w.tpot_target_ms
    if tpot is not None:
        src["tpot"] = "workload: tpot_target_ms"
    short = f"a short answer ({w.output_tokens} ≤ {SHORT_OUTPUT_TOKENS} tokens) is used complete ({SHORT_SOURCE})"
    if w.latency_target_s is not None:
        e2e, src["e2e"] = w.latency_target_s, f"workload: latency_target_s; {short}"
    elif ttft is None:
        e2e, src["e2e"] = DEFAULT_TTFT_S, f"default: {U1}, for the complete answer: {short}"
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
