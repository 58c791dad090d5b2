"""The growth check of a configuration (000 M5, issue 33): the model expected in 12-18 months
(`growth_params_b`, sized as a generic dense model of that size) on the same GPUs, at the same load and
latency targets — memory (per GPU at the peak against what the engine holds), capacity (the most it serves
within the targets against the peak) and the estimated TTFT/TPOT at the peak. The report's `growth` part
and its one sentence say what the grown model would need; the `sizing` fact carries the figures for rules.
"""

from __future__ import annotations

from typing import Any

from expert.catalog.models import Gpu

GROWTH_CONTEXT = 8192  # the grown model's context, as the memory check has sized it since issue 4


def growth_check(w, gpu: Gpu, count: int, precision: str, interconnect: str | None, engine: str,
                 lang: str, assumptions=None) -> dict[str, Any] | None:
    """The report's `growth` part for workload `w` on `count` × `gpu` at `precision` (None without a stated
    growth); `assumptions`: the engine's as deployed (an audit's `engine_version`), default the core's."""
    if not w.growth_params_b:
        return None
    from expert.configurator.operating import operating_facts
    from expert.sizing.architecture import generic_model
    from expert.sizing.memory import choose_tensor_parallel, inference_memory

    model = generic_model(w.growth_params_b)
    context = min(w.context, GROWTH_CONTEXT)
    peak = max(1, w.concurrency or 1)
    tp = choose_tensor_parallel(model, gpu, count, precision, context, 1, engine=engine)
    m = inference_memory(model, gpu, count, tp, precision, context, peak, engine=engine)
    one = inference_memory(model, gpu, count, tp, precision, context, 1, engine=engine)
    part: dict[str, Any] = {"params_b": w.growth_params_b, "tensor_parallel": tp, "total_gb": m.total_gb,
                            "used_per_gpu_gb": m.per_gpu_gb, "usable_per_gpu_gb": m.usable_per_gpu_gb,
                            "fits": one.fits}
    if one.fits and w.average_rps > 0:
        grown = w.model_copy(update={"context_tokens": context}) if w.context > context else w
        served = operating_facts(grown, model, gpu, count, tp, precision, interconnect, assumptions, engine)
        part.update({"serving_capacity_rps": served.get("serving_capacity_rps"),
                     "peak_rps": served.get("serving_peak_rps"), "load_ratio": served.get("serving_load_ratio"),
                     "ttft_p95_s": served.get("estimated_ttft_p95_s"), "tpot_ms": served.get("estimated_tpot_ms")})
    part["summary"] = summary(part, count, gpu.id, lang)
    return part


def measured_load(part: dict[str, Any] | None, setup, today_capacity_rps: float | None) -> None:
    """A running setup's measurements win over the estimate (as in audits): the grown model's load is the
    measured utilisation (peak, else mean) scaled by how much less it serves than today's model,
    `utilisation × today's capacity / the grown model's capacity`; the part says so (`measured_basis`)."""
    u = setup.utilization
    if part is None or u is None or not today_capacity_rps or not part.get("serving_capacity_rps"):
        return
    used = u.peak if u.peak is not None else u.mean
    part["load_ratio"] = used * today_capacity_rps / part["serving_capacity_rps"]
    part["measured_basis"] = used


def growth_facts(part: dict[str, Any] | None) -> dict[str, Any]:
    """The `sizing` fact's growth fields from the report's `growth` part ({} without one)."""
    if part is None:
        return {}
    return {"growth_load_ratio": part.get("load_ratio"), "growth_serving_capacity_rps": part.get("serving_capacity_rps"),
            "growth_peak_rps": part.get("peak_rps"), "growth_fits_one_sequence": part["fits"]}


def summary(part: dict[str, Any], count: int, gpu: str, lang: str) -> str:
    """What the grown model would need, in one sentence."""
    from expert.messages import t
    from expert.report.numbers import dec

    where = f"{count}× {gpu}"
    memory = t("report.growth.memory", lang, params=dec(part["params_b"], lang, 0), where=where, tp=part["tensor_parallel"],
               used=dec(part["used_per_gpu_gb"], lang), usable=dec(part["usable_per_gpu_gb"], lang))
    if not part["fits"]:
        return memory + " " + t("report.growth.no_fit", lang)
    if part.get("serving_capacity_rps") is None:
        return memory
    serving = t("report.growth.serves", lang, rate=dec(part["serving_capacity_rps"], lang, 2),
                peak=dec(part["peak_rps"], lang, 2), load=f"{(part['load_ratio'] or 0):.0%}")
    if part.get("measured_basis") is not None:
        serving += " " + t("report.growth.measured", lang, used=f"{part['measured_basis']:.0%}")
    if part.get("ttft_p95_s") is not None and part.get("tpot_ms") is not None:
        serving += " " + t("report.growth.latency", lang, ttft=dec(part["ttft_p95_s"], lang, 2),
                           tpot=dec(part["tpot_ms"], lang, 0))
    return memory + " " + serving
