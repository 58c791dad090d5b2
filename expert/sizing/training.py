"""Fine-tuning run time, the per-GPU training efficiency calibrated to document 000, and team-time cost.

Run time = k × params × tokens × epochs / (GPUs × dense FP16 FLOPS × efficiency), k = 6 for full
fine-tuning (Kaplan et al. arXiv:2001.08361 §2.1) and ≈ 4 for LoRA/QLoRA, which skip the weight
gradients (band 4-4.8: the LoRA paper measured 25 % rather than 50 % speed-up). GPUs scale linearly
(data parallel / FSDP; the documents give no training scaling).

Efficiency = MFU (0.40, band 0.35-0.50, on the reference A100 80 GB SXM) × a per-GPU factor:

- Pure FLOPS would make the L40S (362 TF) faster than the A100 (312 TF) and the H100 (989 TF)
  3.2× faster. Document 000 says otherwise: H100 2.8× (G4) to 3× (U3: 15 → 5 days), and the L40S
  3-4× *slower* (M2: 48 h → 6 days), which it attributes to memory bandwidth (GDDR6 864 vs HBM
  2039 GB/s).
- Bandwidth per FLOP alone cannot give both: the L40S has 0.37× the A100's bytes per FLOP and the
  H100 0.52×, yet the H100 loses only 5-12 % and the L40S ~75 %; even a fully bandwidth-bound L40S
  would be only 2039/864 = 2.4× slower. So the factor has two parts:
  f = (bytes per FLOP / A100's, capped at 1) ^ α × (c for GDDR memory, 1 for HBM).
  α is CALIBRATED to G4/U3 (H100 speed-up 2.8-3.0) and c to M2 (L40S slowdown 3-4); both are
  computed from those targets in `calibration()`, never typed in. c then applies to every GDDR
  card (RTX 4090, A6000, RTX PRO 6000) — an extrapolation, overridable via the targets.
"""

from __future__ import annotations

import math

from expert.catalog.models import Band, Gpu, LlmModel
from expert.sizing.constants import Assumptions, exact, resolve
from expert.sizing.results import FineTuneRun, Provenance

SCENARIOS = ("point", "fast", "slow")


def _bpf_ratio(bandwidth: float, tflops: float, a: Assumptions) -> float:
    return min(1.0, (bandwidth / tflops) / (a.ref_a100_bandwidth.value / a.ref_a100_tflops.value))


def calibration(assumptions: Assumptions | None = None) -> dict[str, tuple[float, float]]:
    """(α, c) per scenario: α from the H100 speed-up target, c from the L40S slowdown target."""
    a = resolve(assumptions)
    fa, fh, fl = a.ref_a100_tflops.value, a.ref_h100_tflops.value, a.ref_l40s_tflops.value
    bpf_h = _bpf_ratio(a.ref_h100_bandwidth.value, fh, a)
    bpf_l = _bpf_ratio(a.ref_l40s_bandwidth.value, fl, a)
    h, g = a.h100_finetune_speedup, a.gddr_finetune_slowdown
    targets = {"point": (h.value, g.value), "fast": (h.high, g.low), "slow": (h.low, g.high)}
    out = {}
    for name, (speedup, slowdown) in targets.items():
        alpha = math.log(speedup * fa / fh) / math.log(bpf_h)
        out[name] = (alpha, (fa / fl) / (slowdown * bpf_l**alpha))
    return out


def _factor(gpu: Gpu, alpha: float, c: float, a: Assumptions) -> float:
    gddr = "HBM" not in gpu.memory_type.upper()
    return _bpf_ratio(gpu.bandwidth_gbs, gpu.fp16_tflops, a) ** alpha * (c if gddr else 1.0)


def relative_efficiency(gpu: Gpu, assumptions: Assumptions | None = None) -> tuple[float, Band]:
    """The per-GPU factor f (1 for the A100 80 GB SXM): (point, band)."""
    a = resolve(assumptions)
    cal = calibration(a)
    vals = {k: _factor(gpu, *cal[k], a) for k in SCENARIOS}
    return vals["point"], Band(low=min(vals.values()), high=max(vals.values()))


def training_efficiency(gpu: Gpu, assumptions: Assumptions | None = None) -> tuple[float, Band]:
    """Effective MFU on this GPU: train MFU × f, (point, band)."""
    a = resolve(assumptions)
    cal, m = calibration(a), a.train_mfu
    vals = {"point": m.value * _factor(gpu, *cal["point"], a), "fast": m.high * _factor(gpu, *cal["fast"], a),
            "slow": m.low * _factor(gpu, *cal["slow"], a)}
    return vals["point"], Band(low=vals["slow"], high=vals["fast"])


def relative_finetune_time(gpu: Gpu, reference: Gpu, assumptions: Assumptions | None = None) -> tuple[float, Band]:
    """Run time on `gpu` over run time on `reference` (same model, tokens and GPU count)."""
    a = resolve(assumptions)
    cal = calibration(a)
    ratio = {k: (reference.fp16_tflops * _factor(reference, *cal[k], a))
             / (gpu.fp16_tflops * _factor(gpu, *cal[k], a)) for k in SCENARIOS}
    return ratio["point"], Band(low=min(ratio.values()), high=max(ratio.values()))


def _flops_per_token(method: str, a: Assumptions):
    if method == "full":
        return a.flops_full
    if method in ("lora", "qlora"):
        return a.flops_lora
    raise ValueError(f"unknown fine-tuning method '{method}' (allowed: full, lora, qlora)")


def finetune_run(model: LlmModel, gpu: Gpu, count: int = 1, method: str = "lora", dataset_tokens: float | None = None,
                 epochs: float = 1.0, runs_per_year: int = 0, team_hourly_rate_chf: float | None = None,
                 assumptions: Assumptions | None = None) -> FineTuneRun:
    """Duration of one run (hours, days, band) and its team-time cost (hours × rate)."""
    a = resolve(assumptions)
    k = _flops_per_token(method, a)
    tokens = a.default_dataset_tokens.value if dataset_tokens is None else dataset_tokens
    rate = a.team_hourly_rate_chf.value if team_hourly_rate_chf is None else team_hourly_rate_chf
    eff, eff_band = training_efficiency(gpu, a)
    work = model.params_b * 1e9 * tokens * epochs
    speed = count * gpu.fp16_tflops * 1e12

    def hours(flops_k: float, e: float) -> float:
        return flops_k * work / (speed * e) / 3600

    h = hours(k.value, eff)
    band = Band(low=hours(k.low, eff_band.high), high=hours(k.high, eff_band.low))
    m = a.train_mfu
    prov = {"hours": Provenance(formula=f"{k.value:g} × params × tokens × epochs / (GPUs × FP16 FLOPS × MFU × f)",
                                sources=[k.cite(), m.cite(), a.h100_finetune_speedup.cite(),
                                         a.gddr_finetune_slowdown.cite()]),
            "team_cost_per_run_chf": Provenance(formula="compute hours × team hourly rate (000 M2)",
                                                sources=[a.team_hourly_rate_chf.cite()])}
    if dataset_tokens is None:
        prov["dataset_tokens"] = Provenance(formula="default", sources=[a.default_dataset_tokens.cite()])
    return FineTuneRun(
        method=method, params_b=model.params_b, gpu=gpu.id, count=count, dataset_tokens=tokens, epochs=epochs,
        flops_per_param_token=k.value, total_flops=k.value * work, efficiency=eff,
        relative_efficiency=eff / m.value, hours=h, days=h / 24, runs_per_year=runs_per_year,
        compute_hours_per_month=h * runs_per_year / 12, team_hourly_rate_chf=rate,
        team_cost_per_run_chf=team_time_cost(h, rate), provenance=prov,
        bands={"hours": band, "days": Band(low=band.low / 24, high=band.high / 24), "efficiency": eff_band},
    )


def implied_dataset_tokens(model: LlmModel, gpu: Gpu, count: int, method: str, hours: float,
                           assumptions: Assumptions | None = None) -> float:
    """Tokens a run of `hours` processes at the point efficiency (inverse of `finetune_run`)."""
    a = resolve(assumptions)
    eff, _ = training_efficiency(gpu, a)
    flops_per_token = _flops_per_token(method, a).value * model.params_b * 1e9
    return hours * 3600 * count * gpu.fp16_tflops * 1e12 * eff / flops_per_token


ATTENDED_PER_DAY = exact(8, "h per 24 h", "own estimate: one working day of waiting per calendar day of a run "
                         "(000 M2 counts compute hours × team rate; nights are not attended)")


def attended_hours(elapsed_h: float) -> float:
    """Hours the team waits during working time while a run of `elapsed_h` calendar hours is under way:
    8 per full day plus at most 8 of the last partial day (capped at the elapsed hours). Own estimate:
    000 M2 counts compute hours × team rate, but nights are not attended (docs/fine-tuning.md §3)."""
    days, rest = divmod(max(0.0, elapsed_h), 24.0)
    return days * ATTENDED_PER_DAY.value + min(rest, ATTENDED_PER_DAY.value)


def team_time_cost(hours: float, rate: float) -> float:
    """Team time spent waiting on compute: compute hours × hourly rate (000 M2, U2)."""
    return hours * rate


def total_cost_with_team(compute_hours: float, rate: float, gpu_cost_chf: float) -> float:
    """000 M2: total = (compute hours × team hourly rate) + GPU cost."""
    return team_time_cost(compute_hours, rate) + gpu_cost_chf
