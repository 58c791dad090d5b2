"""The configurator's fast closed forms equal the sizing core (memory, latency, cost)."""

from __future__ import annotations

import itertools

import pytest

from expert.catalog.loader import load_catalog
from expert.configurator.candidates import all_sources, column_of
from expert.configurator.objective import gpu_cost
from expert.configurator.profile import build_profile
from expert.configurator.search import default_assumptions
from expert.sizing.cost import buy_cost, rent_cost
from expert.sizing.memory import inference_memory
from expert.sizing.speed import performance

CAT = load_catalog()
A = default_assumptions(CAT)
MODELS = ["llama-3.1-8b", "llama-2-13b", "mixtral-8x7b", "qwen2.5-7b", "gemma-2-9b", "llama-3.1-70b"]
GPUS = ["l40s", "a100-80gb-pcie", "a100-80gb-sxm", "h100-nvl", "h200", "mi300x", "rtx-pro-6000-server"]


@pytest.mark.parametrize("model_id,gpu_id", list(itertools.product(MODELS, GPUS)))
def test_profile_matches_core(model_id, gpu_id):
    model, gpu = CAT.model(model_id), CAT.gpu(gpu_id)
    for precision, tp, batch in itertools.product(("fp16", "fp8", "int8"), (1, 2, 4), (1, 7, 33)):
        if model.kv_heads % tp or model.heads % tp or (precision == "fp8" and not gpu.fp8_tflops):
            continue
        col = column_of(gpu)
        p = build_profile(model, gpu, precision, tp, col, 1200, 180, 1380, 5.0, A)
        mem = inference_memory(model, gpu, tp, tp, precision, 1380, batch, assumptions=A)
        assert p.need_gb(batch) == pytest.approx(mem.per_gpu_gb, rel=1e-9)
        assert p.usable_gb == pytest.approx(mem.usable_per_gpu_gb, rel=1e-12)
        link = "nvlink" if col == "sxm" else "pcie"  # the profile's all-reduce link is its 004 column's
        perf = performance(model, gpu, tp, tp, precision, batch, 1200, 180, interconnect=link, assumptions=A)
        assert p.e2e(batch) == pytest.approx(perf.e2e_latency_s, rel=1e-9)


def test_cost_matches_core():
    fx = CAT.to_chf
    for s in all_sources(CAT):
        for n in s.counts[:3]:
            mine = gpu_cost(s, n, 36, A)
            if s.kind == "cloud":
                offer = CAT.offers[s.key]
                gpu = s.gpu.model_copy(update={"tdp_w": s.energy_tdp_w})
                ref = rent_cost(gpu, offer, n, 36, fx=fx, assumptions=A).total_chf
            else:                                  # a complete system: its price and server power
                price, power, _ = s.system(n)
                ref = buy_cost(s.gpu, price / n, n, 36, assumptions=A, power_w=power).total_chf
            assert mine == pytest.approx(ref, rel=1e-9), s.key
