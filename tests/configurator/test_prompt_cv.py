"""A workload's `prompt_cv` (issue 32): the advice's replicas queue their prompts M/G/1 as `estimate --prompt-cv`
does (expert/sizing/load.py, load_solver.variability); 0, the default, keeps every recorded pick."""

from __future__ import annotations

import pytest

from expert import api
from expert.catalog.loader import load_catalog
from expert.configurator.candidates import column_of
from expert.configurator.enumeration import default_assumptions
from expert.configurator.profile import build_profile
from expert.configurator.serving import wait_p95
from expert.inputs.slo import Targets
from expert.sizing.steady import core_replica
from expert.sizing import load

CAT = load_catalog()
A = default_assumptions(CAT)
SLO = Targets(ttft_s=5.0, tpot_ms=None, e2e_s=None, streaming=True, said={})
WORKLOAD = {"model": "llama-3.1-8b", "requests_per_second": 20, "prompt_tokens": 2000, "output_tokens": 200,
            "latency_target_s": 0.5, "budget": "opex"}


def test_the_profile_queues_as_the_core_does():
    # Llama-3.1-8B fp16 on an L40S at 2 req/s: the profile's replica and the core's carry the same CV, and the
    # p95 TTFT grows by (1 + CV_S²) − 1 of the M/D/1 tail wait, CV_S = 1.1 × P·c / S
    model, gpu = CAT.model("llama-3.1-8b"), CAT.gpu("l40s")
    fixed = build_profile(model, gpu, "fp16", 1, column_of(gpu), 1500, 250, 1750, SLO, A)
    varied = build_profile(model, gpu, "fp16", 1, column_of(gpu), 1500, 250, 1750, SLO, A, prompt_cv=1.1)
    f, v = fixed.steady(2.0), varied.steady(2.0)
    g = 1 + (1.1 * fixed.replica().prompt * fixed.replica().c_prefill / f.service_s) ** 2
    assert v.variability == pytest.approx(g)
    assert v.ttft_p95_s - f.ttft_p95_s == pytest.approx((g - 1) * wait_p95(f.lane_share, f.service_s))
    core = load.steady(core_replica(model, gpu, 1, "fp16", 1500, 250, "fp16", "vllm", assumptions=A, prompt_cv=1.1),
                       2.0)
    assert v.ttft_p95_s == pytest.approx(core.ttft_p95_s, rel=1e-9)


def test_advice_keeps_its_pick_and_states_a_longer_ttft():
    # 20 req/s of 2 000-token prompts, first words within 0.5 s: 5 × L40S either way; the recommendation's p95
    # TTFT 0.289 s at fixed lengths, 0.443 s when the prompts vary as ShareGPT's do (CV 1.1)
    fixed = api.advise(WORKLOAD).recommendation
    varied = api.advise({**WORKLOAD, "prompt_cv": 1.1}).recommendation
    assert (fixed.gpu, fixed.count, varied.gpu, varied.count) == ("l40s", 5, "l40s", 5)
    assert fixed.ttft_p95_s == pytest.approx(0.2888, abs=5e-4)
    assert varied.ttft_p95_s == pytest.approx(0.4427, abs=5e-4)


def test_a_negative_cv_is_bad_input(tmp_path, capsys):
    from expert.cli.main import main

    path = tmp_path / "w.yaml"
    path.write_text("model: llama-3.1-8b\nprompt_cv: -1\n")
    assert main(["advise", str(path)]) == 2
    err = capsys.readouterr().err
    assert "prompt_cv" in err and "Traceback" not in err
