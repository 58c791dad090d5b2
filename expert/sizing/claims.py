"""The documents' performance-gain figures that no formula of the sizing core uses, kept as claims.

The sizing core derives speed from bandwidth, compute and the precision's bytes per parameter; it
has no "gain" factors. Document 000 states gains anyway; they are recorded here with their source,
as ranges, and `tests/sizing/test_claims_gains.py` compares each with what the core computes for the
same comparison, saying where they agree and where the core departs (as for 004's C8 per-card
figures). Rules quote them in their texts (G3/G4 in tier-high-end and g4-h100-recommended, Q1 in
q1-unoptimised-premium-gpu and r2-optimise-before-adding-gpus). The H100's 2.8× fine-tuning speed-up
(G4/U2) is used by a formula: `expert.configurator.document.H100_SPEEDUP`.
"""

from __future__ import annotations

from expert.sizing.constants import D000_H100, D000_TRENDS, Constant, ranged

#: G3: FP8 Transformer Engine on the H100, throughput gain on transformers, as NVIDIA states it.
TRANSFORMER_ENGINE_VENDOR: Constant = ranged(0.30, 0.60, "throughput gain", D000_H100 + " (G3, per NVIDIA)")
#: G3: the same gain as observed in production.
TRANSFORMER_ENGINE_OBSERVED: Constant = ranged(0.20, 0.50, "throughput gain", D000_H100 + " (G3, observed)")
#: G4: INT8 inference on the H100 against the A100, depending on model size and optimisation.
H100_INT8_VS_A100: Constant = ranged(0.40, 0.60, "throughput gain", D000_H100 + " (G4, Gemessene Leistungsgewinne)")
#: Q1: vLLM, TensorRT-LLM and SGLang on the same hardware.
SOFTWARE_OPTIMISATION: Constant = ranged(2.0, 3.0, "× throughput", D000_TRENDS + " (Q1, Erster Trend)")

CLAIMS = {"G3 vendor": TRANSFORMER_ENGINE_VENDOR, "G3 observed": TRANSFORMER_ENGINE_OBSERVED,
          "G4 INT8": H100_INT8_VS_A100, "Q1 software": SOFTWARE_OPTIMISATION}
