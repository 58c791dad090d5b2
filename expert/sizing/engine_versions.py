"""What an engine's version changes in its speed: vLLM before async scheduling became the default (vLLM PR
#27614 '[Core] Enable async scheduling by default', opened 2025-10-27; taken as from 0.12, the first minor release
after it: the exact release is not in the sources read) runs its engine loop
synchronously, so the GPU waits on every decode step for the host's work (vLLM issue #23233, 2025-08-20:
schedule → execute_model → update_from_output in sequence, 'doesn't allow us to utilize CPU cycles while the GPU
is running the model'): `SYNC_HOST_MS_PER_STEP` + a time per decoding sequence, larger in the V0 engine
(< 0.8) than in V1. Current vLLM, the product's default, overlaps it (`constants.host_ms_per_step` 0).

Used by the accuracy rows that state their version (`accuracy_rules.engine_assumptions`) and by an audit
whose setup states `engine_version`. docs/accuracy.md, "Poisson rows", has the measurements.
"""

from __future__ import annotations

import re

from expert.sizing.constants import Assumptions, exact, ranged

ASYNC_SCHEDULING_FROM = (0, 12)
SYNC_HOST_MS_PER_STEP = ranged(
    0.27, 4.0, "ms per decode step", "vllm-project/vllm PR #17866 (V1, 2025-05: a fast path for input preparation "
    "'~10% improvement for TPOT' of Llama-3.2-1B at 2.73 ms = 0.27 ms a step); vllm-project/vllm issue #6854 (V0 "
    "multi-step RFC, 2024-07-26: 'about 4ms of GPU bubble ... incurred on every decode')", "point: the midpoint "
    "(2.1 ms), nothing fitted. Cross-check, not fitted: Qwen2.5 on one A100 with vLLM 0.6.3 at batch 1 decodes "
    "1.6-2.6 ms a token slower than the roofline (docs/accuracy.md, 'Poisson rows')")
SYNC_HOST_MS_PER_SEQUENCE_V0 = exact(
    0.09, "ms per decoding sequence and step", "vllm-project/vllm issue #6913 (vLLM 0.5.3, Llama-3-70B FP8 on 4 × "
    "H100, 128-token prompts: TPOT 19 ms at batch 1, 25 at 32 = 0.19 ms per sequence, of which "
    "_process_model_outputs 0.2 → 3.4 ms = 0.10 ms, overlapped with the GPU since 0.6.0's asynchronous output "
    "processing: blog.vllm.ai/2024/09/05/perf-update.html)", "the V0 engine (vLLM < 0.8): the rest, 0.09 ms")
SYNC_HOST_MS_PER_SEQUENCE_V1 = exact(
    0.02, "ms per decoding sequence and step", "vllm-project/vllm issue #10634 (V1 prototype, 2024-11-25, Llama-2-7B "
    "at batch 256, ShareGPT: 'gap between the two decodes ... about 5-6ms' = 0.02 ms per sequence)",
    "the V1 engine, vLLM 0.8-0.11 (synchronous until async scheduling)")


def parse_version(text: str | None) -> tuple[int, int] | None:
    """(major, minor) of a version such as '0.7.3', 'v0.8.3' or '0.4.1.post2'; None when there is none."""
    found = re.match(r"v?(\d+)\.(\d+)", str(text or "").strip())
    return (int(found.group(1)), int(found.group(2))) if found else None


def synchronous(engine: str | None, version: str | None) -> bool:
    """Whether `engine` at `version` waits for its host on every decode step (vLLM before
    `ASYNC_SCHEDULING_FROM`); False for an unknown version."""
    parsed = parse_version(version)
    return engine == "vllm" and parsed is not None and parsed < ASYNC_SCHEDULING_FROM


def version_assumptions(engine: str | None, version: str | None, a: Assumptions) -> Assumptions:
    """`a` with the host time of `engine` at `version`: vLLM before `ASYNC_SCHEDULING_FROM` adds
    `SYNC_HOST_MS_PER_STEP` and 0.09 ms (V0, < 0.8) or 0.02 ms (V1) per decoding sequence to every decode
    step; any other engine, an unknown or a later version: `a` unchanged."""
    if not synchronous(engine, version):
        return a
    per_sequence = SYNC_HOST_MS_PER_SEQUENCE_V0 if parse_version(version) < (0, 8) else SYNC_HOST_MS_PER_SEQUENCE_V1
    return a.override(host_ms_per_step=SYNC_HOST_MS_PER_STEP, host_ms_per_sequence=per_sequence)


__all__ = ["ASYNC_SCHEDULING_FROM", "SYNC_HOST_MS_PER_STEP", "SYNC_HOST_MS_PER_SEQUENCE_V0",
           "SYNC_HOST_MS_PER_SEQUENCE_V1", "parse_version", "synchronous", "version_assumptions"]
