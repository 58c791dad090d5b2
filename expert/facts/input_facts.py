"""Building the input facts of the rule engine from a workload or a setup and the sizing core.

Every number here is a raw value, from the input or from the sizing core; the documents' thresholds
(G5's 500 ms, M3's cores, RAM ratio and network) live in the rules, which compare. Field names and meanings: `expert/facts/vocabulary.py` (docs/facts.md).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from expert.catalog import Catalog
from expert.catalog.models import Gpu, LlmModel
from expert.inputs.workload import Workload

if TYPE_CHECKING:
    from expert.inputs.setup_file import Setup

_FAMILY_PREFIXES = (("l40s", "l40s"), ("a100", "a100"), ("h100", "h100"), ("h200", "h200"), ("b200", "b200"),
                    ("rtx-pro-6000", "rtx-pro-6000"), ("mi3", "amd"), ("gaudi", "gaudi"), ("l4", "entry"),
                    ("a10", "entry"))


def gpu_family(gpu: Gpu) -> str:
    """Coarse family used by rules: l40s, a100, h100, h200, b200, rtx-pro-6000, amd, gaudi, entry,
    consumer (GeForce) or workstation (RTX A-series, 6000 Ada)."""
    if gpu.grade == "consumer":
        return "consumer"
    for prefix, family in _FAMILY_PREFIXES:
        if gpu.id.startswith(prefix):
            return family
    return "workstation" if gpu.grade == "workstation" else "other"


def clean_fact(data: dict[str, Any]) -> dict[str, Any]:
    """A fact as the engine gets it: None fields dropped (durable-rules cannot test a null; an absent
    field is what `exists: false` checks) and floats rounded as in the report, so the trace that
    quotes facts is byte-stable without a second rounding pass."""
    from expert.report.build import DECIMALS

    return {key: (round(value, DECIMALS) + 0.0 if type(value) is float else value)
            for key, value in data.items() if value is not None}


def workload_fact(w: Workload, model: LlmModel) -> dict[str, Any]:
    """The `workload` fact."""
    from expert.inputs.slo import targets

    slo = targets(w)
    tuning = w.most_frequent_tuning  # a multi-agent pool is as demanding as its most-tuned agent
    average = w.average_rps
    return clean_fact({
        "t": "workload", "model": w.model or "generic", "params_b": model.params_b,
        "active_params_b": model.decode_params_b, "precision": w.precision,
        "precision_kept": None if w.precision_open else True, "engine": w.engine,
        "kv_cache_precision": w.kv_precision,
        "requests_per_day": average * 86_400, "requests_per_minute": average * 60,
        "average_rps": average, "peak_rps": w.peak_rps,
        "target_utilization": w.target_utilization,
        "latency_target_s": w.latency_target_s, "context_tokens": w.context,
        "ttft_target_s": slo.ttft_s, "tpot_target_ms": slo.tpot_ms, "e2e_target_s": slo.e2e_s,
        "p95_target_s": slo.p95_target_s,
        "streaming": w.streaming,
        "fine_tuning": tuning.frequency, "finetune_runs_per_year": tuning.runs_per_year,
        "finetune_method": tuning.method, "data": w.data, "sector": w.sector, "hosting": w.hosting,
        "french_connection": (w.site_country or "").upper() == "FR",
        "deployment": w.deployment, "budget": w.budget, "horizon_months": w.horizon_months,
        "growth_params_b": w.growth_params_b, "critical": w.critical, "high_availability": w.high_availability, "allow_int4": w.allow_int4,
        "agents": len(w.agents), "team_hourly_rate_chf": w.team_hourly_rate_chf,
    })


def _vllm_usable_gb(gpu: Gpu) -> float:
    """vLLM's budget of one GPU (0.92 of the reported memory), for setups without a workload."""
    from expert.sizing.constants import DEFAULT
    from expert.sizing.engines import device_memory_gb

    return device_memory_gb(gpu) * DEFAULT.vllm_memory_utilization.value


def _site(s: Setup) -> str | None:
    """Where an owned server stands when no hosting is stated: the setup's `site_country`, else its
    workload's (issue 33: an on-premise server with a site is not "location unknown")."""
    if s.site_country:
        return s.site_country
    if s.ownership == "owned" and s.workload is not None:
        return s.workload.site_country
    return None


def setup_fact(s: Setup, gpu: Gpu, extra: dict[str, Any]) -> dict[str, Any]:
    """The `setup` fact: what was configured and measured (raw values; 000 M3's minimums live in
    rules/infrastructure.yaml)."""
    total_vram = gpu.memory_gb * s.count
    interconnect = s.interconnect or ("nvlink" if gpu.form_factor == "sxm" else
                                      "pcie-bridge" if gpu.interconnect.kind == "nvlink-bridge" and s.count == 2
                                      else "pcie")
    hosting = s.hosting
    util = s.utilization
    certs = {c.lower().replace(" ", "").replace("-", "") for c in (hosting.certifications if hosting else [])}
    stated = hosting is not None and "certifications" in hosting.model_fields_set
    fact = {
        "t": "setup", "gpu": gpu.id, "gpu_family": gpu_family(gpu), "gpu_grade": gpu.grade,
        "gpu_memory_gb": gpu.memory_gb, "ecc": gpu.ecc, "count": s.count, "total_vram_gb": total_vram,
        "interconnect": interconnect, "form_factor": gpu.form_factor, "ownership": s.ownership,
        "cpu_cores": s.cpu_cores,
        "usable_vram_gb": _vllm_usable_gb(gpu) * s.count,  # replaced by the engine's budget when sized
        "ram_gb": s.ram_gb,
        "ram_vram_ratio": s.ram_gb / total_vram if s.ram_gb is not None else None,
        "storage_type": s.storage.type if s.storage else None,
        "storage_read_mb_s": s.storage.read_mb_s if s.storage else None,
        "network_gbps": s.network_gbps,
        "country": hosting.country.upper() if hosting else (site.upper() if (site := _site(s)) else None),
        "french_connection": "FR" in {(hosting.country if hosting else site or "").upper(),
                                      (hosting.provider_seat or "").upper() if hosting else "",
                                      ((s.workload.site_country if s.workload else None) or "").upper()},
        "provider_seat": hosting.provider_seat.upper() if hosting and hosting.provider_seat else None,
        # certifications not stated (the chat's audit does not ask them) are unknown, not absent
        "iso27001": ("iso27001" in certs) if stated else None,
        "hds_certified": ("hds" in certs) if stated else None,
        "utilization_mean": util.mean if util else None, "utilization_peak": util.peak if util else None,
        "day_night_swing": util.day_night_swing if util else None,
        "latency_p95_s": s.latency_p95_s, "tensor_parallel": s.tensor_parallel,
        "monitoring": s.monitoring, "backups": s.backups, "deployment_months": s.deployment_months,
        "fine_tuning_here": s.training_gpus == "serving",
        # the GPUs the fine-tuning runs train on: these, unless the setup trains on separate GPUs (QA 46 #9)
        **({"training_gpu": gpu.id, "training_gpus": s.count, "training_gpu_family": gpu_family(gpu)}
           if s.training_gpus == "serving" else {}),
        "usage_pattern": s.usage_pattern, "inference_engine": s.inference_engine, "engine_version": s.engine_version,
        "quantization_validated": s.quantization_validated,
        # 004 C3: SXM4/HGX boards are bought full (4× or 8×); several full 8-GPU systems are complete too
        "sxm_complete_systems": (s.count in (4, 8) or s.count % 8 == 0) if gpu.form_factor == "sxm" else None,
    }
    fact.update(extra)
    return clean_fact(fact)


AGENT_FACT_FIELDS = ("kind", "steps_mean", "cache_hit_rate", "session_affinity", "kv_during_tools",
                     "sessions_peak", "sessions_on_gpu_peak", "kv_per_session_gb", "kv_shared_gb", "kv_sessions_gb",
                     "kv_sessions_p95_gb", "kv_bound",
                     "tool_share", "compactions_per_task", "task_latency_s", "step_latency_s", "ttft_step_s",
                     "ttft_step_uncached_s", "max_context_tokens", "context_limit_tokens", "offload_gpu",
                     "offload_count", "offload_peak_steps_per_s", "peak_steps_per_s", "offload_monthly_saving_chf", "kv_waits", "host_kv_gb", "host_ram_gb", "host_ram_exceeded",
                     "host_link_gbs", "host_link_load")


def agent_fact(figures: dict[str, Any]) -> dict[str, Any]:
    """The `agent` fact of an advice: the agent loop's figures at the recommended configuration
    (`expert.configurator.agent_report`)."""
    return clean_fact({"t": "agent", "origin": "advice", **{k: figures.get(k) for k in AGENT_FACT_FIELDS}})


def _t1(choice: dict[str, Any]) -> float:
    t1 = choice.get("t1_cost_chf")
    return choice["tco_chf"] if t1 is None else t1


def training_fields(plan: dict[str, Any] | None) -> dict[str, Any]:
    """Where the recommendation's fine-tuning runs (the configurator's training plan): the chosen source
    and its GPUs and hours per run, and the cheapest run rented for its hours beside it (000 M2, R3)."""
    if not plan or not plan.get("chosen"):
        return {}
    options = [o for o in plan.get("options", []) if o.get("fits")]
    chosen = next((o for o in options if o["kind"] == plan["chosen"]), None)
    rented = next((o for o in options if o["kind"] == "rented-per-run"), None)
    out: dict[str, Any] = {"training_source": plan["chosen"]}
    if chosen is not None:
        out.update({"training_gpu": chosen.get("gpu"), "training_gpus": chosen.get("gpus"),
                    "training_hours_per_run": chosen.get("hours_per_run"),
                    "training_elapsed_hours_per_run": chosen.get("elapsed_hours_per_run")})
    if rented is not None and plan["chosen"] != "rented-per-run":
        out.update({"rented_gpu": rented.get("gpu"), "rented_gpus": rented.get("gpus"),
                    "rented_hours_per_run": rented.get("hours_per_run"),
                    "rented_cost_per_run_chf": rented.get("cost_per_run_chf")})
    return out


def _eu_offers(catalog: Catalog, gpu_id: str | None = None) -> int:
    """Cloud offers of the catalog located in the EU/EEA outside Switzerland (`hosting: eu`, issue 33), for
    one GPU when `gpu_id` is given."""
    from expert.configurator.candidates import EU_EEA_CH

    return sum(1 for o in catalog.offers.values() if o.country and o.country != "CH" and o.country in EU_EEA_CH
               and gpu_id in (None, o.gpu))


def choice_fact(choice: dict[str, Any], catalog: Catalog, document_family: str | None,
                agrees: bool | None, training: dict[str, Any] | None = None,
                site_country: str | None = None, fine_tunes: bool = False) -> dict[str, Any]:
    """The `choice` fact: the configurator's recommendation, and where its fine-tuning runs (`training`:
    the configurator's training plan; where the workload `fine_tunes` without one, on the chosen GPUs);
    `site_country` is the workload's, for its French connection."""
    gpu = catalog.gpu(choice["gpu"])
    plan = training_fields(training)
    # the GPUs the runs train on: the plan's chosen runs, else (no plan: pools) the chosen GPUs (QA 46 #9)
    trains: dict[str, Any] = {}
    if fine_tunes:
        trains = {"training_gpu": gpu.id, "training_gpus": choice["count"]} if "training_gpu" not in plan else {}
        trains["training_gpu_family"] = gpu_family(catalog.gpu(plan.get("training_gpu") or gpu.id))
    return clean_fact({**plan, **trains,
        "t": "choice", "gpu": gpu.id, "gpu_family": gpu_family(gpu), "gpu_grade": gpu.grade,
        "count": choice["count"], "source": choice["source"], "package": choice.get("package"),
        "country": choice.get("country"), "precision": choice["precision"],
        "french_connection": "FR" in {choice.get("country"), (site_country or "").upper()},
        "eu_offers_in_catalog": _eu_offers(catalog), "eu_offers_for_gpu": _eu_offers(catalog, gpu.id),
        # the T1 card explains count × gpu at 000 T1 (issue 12): training GPUs, other pool groups and team
        # time are separate lines of the fine-tuning plan, not in this figure
        "monthly_cost_chf": _t1(choice) / choice.get("horizon_months", 36) if choice.get("t1_cost_chf") is not None
        else choice["monthly_cost_chf"], "tco_chf": _t1(choice),
        "headroom": choice.get("headroom"), "interconnect": choice.get("interconnect"),
        "tensor_parallel": choice.get("tensor_parallel", 1), "weights_share": choice.get("weights_share"),
        "document_gpu_family": document_family,
        "agrees_with_document": agrees, "chassis": choice.get("chassis"),
        "system_power_w": choice.get("system_power_w"),
        # raw power figure; the site limits (outlet, liquid cooling) are thresholds of rules/onprem.yaml
        "tdp_w": gpu.tdp_w,
    })
