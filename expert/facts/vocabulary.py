"""The typed, labelled vocabulary of facts that rules may test: kind → field → (type, meaning).

Input facts are built in Python from a workload or a setup and the sizing core's numbers
(`expert.facts.input_facts`); rules test these fields and derive further facts (kinds `flag`, `usecase`,
`choice`...) whose fields rule authors define in their `derive` blocks. A rule pack that tests an
input field not listed here is rejected at load time, so a typo cannot silently never fire.
"""

from __future__ import annotations

NUM, STR, BOOL, LIST = "number", "string", "boolean", "list"

INPUT_FACTS: dict[str, dict[str, tuple[str, str]]] = {
    "workload": {
        "model": (STR, "catalog id of the model, or 'generic' for params_b only"),
        "params_b": (NUM, "billions of parameters (total, all experts)"),
        "active_params_b": (NUM, "parameters read per token (MoE: active experts)"),
        "precision": (STR, "fp32 | bf16 | fp16 | fp8 | int8 | int4 (as stated, else fp16)"),
        "precision_kept": (BOOL, "true when the pick keeps `precision` (stated, without allow_quantization; "
                                 "issue 22); absent when the configurator may quantise"),
        "engine": (STR, "serving engine: vllm | tensorrt-llm | sglang | llama.cpp | transformers"),
        "kv_cache_precision": (STR, "KV cache precision in effect (default: the weights' for 16-bit and fp8, "
                               "else fp16)"),
        "requests_per_day": (NUM, "requests per day"),
        "requests_per_minute": (NUM, "requests per minute (average)"),
        "average_rps": (NUM, "average requests per second"),
        "peak_rps": (NUM, "peak requests per second"),
        "latency_target_s": (NUM, "latency target as given, s: the first words (TTFT) when streamed, the "
                                  "complete answer when not (absent when none is given)"),
        "ttft_target_s": (NUM, "p95 time-to-first-token target used, s (given or default, docs/slo.md)"),
        "tpot_target_ms": (NUM, "time-per-output-token target used, ms (given or default)"),
        "e2e_target_s": (NUM, "end-to-end target used, s (answers consumed whole; absent when streamed)"),
        "p95_target_s": (NUM, "the target a measured p95 latency is compared with, s: e2e_target_s where set, "
                              "else ttft_target_s (given or default; absent when neither is bounded)"),
        "streaming": (BOOL, "the answer is read as it streams"),
        "target_utilization": (NUM, "000 D3: target GPU utilisation 0..1 (default 0.7)"),
        "context_tokens": (NUM, "tokens per sequence as configured"),
        "fine_tuning": (STR, "none | yearly | quarterly | monthly | weekly"),
        "finetune_runs_per_year": (NUM, "fine-tuning runs per year (0 when none)"),
        "finetune_method": (STR, "full | lora | qlora"),
        "data": (STR, "sensitive | non_sensitive"),
        "sector": (STR, "finance | health | public | other"),
        "french_connection": (BOOL, "the organisation's site_country is FR: French law (HDS for health data, 000 M4's "
                                    "note) may apply"),
        "hosting": (STR, "required server location: ch | eu | any"),
        "deployment": (STR, "cloud | on_premise | any"),
        "budget": (STR, "opex (rent) | capex (buy)"),
        "horizon_months": (NUM, "planning horizon, months"),
        "growth_params_b": (NUM, "expected model size in 12-18 months (absent when unknown)"),
        "critical": (BOOL, "critical production"),
        "high_availability": (BOOL, "000 R3: the agent must keep serving when one GPU fails"),
        "allow_int4": (BOOL, "int4 allowed after validation"),
        "agents": (NUM, "number of agents sharing the infrastructure (0 = single agent)"),
        "team_hourly_rate_chf": (NUM, "team hourly rate, CHF"),
    },
    "sizing": {
        "weights_gb": (NUM, "weight memory at the workload's precision, GB"),
        "kv_cache_gb": (NUM, "KV cache for the configured context × concurrency, GB"),
        "total_gb": (NUM, "inference memory in total, GB"),
        "runtime_gb": (NUM, "activations and runtime overhead per replica, GB"),
        "finetune_gb": (NUM, "fine-tuning memory with the chosen method, GB (0 when none)"),
        "reserve_ratio": (NUM, "advice: free share of the recommendation's usable memory per GPU at the sized load "
                               "(the memory line's reserve)"),
        "finetune_over_weights": (NUM, "fine-tuning memory / inference weights (000 D2 says 3-4×)"),
        "finetune_usable_gb": (NUM, "audit: what a run can use of the setup's GPUs (count × the plan's usable per GPU), GB"),
        "growth_total_gb": (NUM, "inference memory for the expected future model, GB"),
        "growth_fits_one_sequence": (BOOL, "one sequence of the expected model fits the GPUs (flows/growth.py)"),
        "growth_serving_capacity_rps": (NUM, "the most requests/s the expected model serves on the same GPUs "
                                             "within the latency targets"),
        "growth_peak_rps": (NUM, "today's peak the expected model is checked against, req/s"),
        "growth_load_ratio": (NUM, "growth_peak_rps / growth_serving_capacity_rps (over 1: it does not serve "
                                   "today's peak)"),
        "concurrent_inferences": (NUM, "000 D3: rps × inference time / target utilisation"),
        "min_gpu_memory_gb": (NUM, "memory of the smallest single GPU that holds the model"),
        "needs_multi_gpu": (BOOL, "no single catalog GPU of 80 GB holds the model"),
        "inference_time_s": (NUM, "000 D3: inference time per request used for capacity, s"),
        "gpus_needed": (NUM, "000 D3: GPUs needed for the capacity (concurrent inferences "
                              "at peak_rps), at least the memory minimum"),
        "d3_thumb_gpus_low": (NUM, "000 D3's rule of thumb: concurrent inferences / 28.6 per GPU, rounded up (its example: "
                                   "57.1 → two GPUs)"),
        "d3_thumb_gpus_high": (NUM, "the same at 19.0 per GPU (57.1 → three GPUs)"),
        "replica_capacity_rps": (NUM, "the most requests/s one replica of the pick serves within the latency "
                                      "targets at the target utilisation (the audit's serving capacity)"),
        "work_replicas": (NUM, "the replicas the peak's work needs: peak_rps / replica_capacity_rps, rounded up, "
                               "at least 1"),
        "pick_replicas": (NUM, "the pick's replicas (GPUs / tensor parallelism)"),
        "peak_rps_per_replica": (NUM, "the peak over the pick's replicas: what each replica serves at the peak, "
                                      "req/s (its operating rate, not its capacity: replica_capacity_rps)"),
        "replicas_above_d3_thumb": (BOOL, "the work needs more replicas than D3's rule of thumb has GPUs: the load, "
                                          "not the model's size, sets the count"),
        "generic_kv_heads": (NUM, "only params_b given: the generic rule's KV heads where it assumes multi-head "
                                  "attention (below 30B; expert/catalog/generic.py)"),
        "kv_over_weights": (NUM, "with generic_kv_heads: KV cache at the operating batch / weights"),
        "gqa_kv_reduction": (NUM, "with generic_kv_heads: generic KV heads / 8, the KV a grouped-query model "
                                  "of the same shape saves"),
    },
    "choice": {
        "eu_offers_in_catalog": (NUM, "catalog offers located in the EU/EEA outside Switzerland (hosting: eu)"),
        "eu_offers_for_gpu": (NUM, "catalog offers for the chosen GPU located in the EU/EEA outside Switzerland"),
        "french_connection": (BOOL, "the offer is hosted in France or the workload's site_country is FR (000 M4's "
                                    "HDS note)"),
        "gpu": (STR, "recommended GPU id"),
        "gpu_family": (STR, "l40s | a100 | h100 | h200 | b200 | rtx-pro-6000 | consumer | other"),
        "gpu_grade": (STR, "datacenter | workstation | consumer"),
        "count": (NUM, "GPUs in the recommendation"),
        "source": (STR, "cloud | package | purchase"),
        "package": (STR, "on-premise package id when source is package"),
        "country": (STR, "hosting country of the offer; for bought hardware the organisation's site_country"),
        "precision": (STR, "precision chosen"),
        "monthly_cost_chf": (NUM, "monthly cost, CHF"),
        "tco_chf": (NUM, "total cost over the horizon, CHF"),
        "headroom": (NUM, "free share of usable GPU memory"),
        "interconnect": (STR, "nvlink | pcie | pcie-bridge | none"),
        "tensor_parallel": (NUM, "tensor-parallel degree"),
        "weights_share": (NUM, "weights per GPU / GPU memory (000 M5 counts its reserve this way)"),
        "document_gpu_family": (STR, "family the documents' use-case rules recommend"),
        "agrees_with_document": (BOOL, "cost optimum and the document's recommendation agree"),
        "chassis": (STR, "chassis class of bought hardware (workstation | server-4gpu | server-8gpu | hgx-8)"),
        "system_power_w": (NUM, "power of the bought server (GPUs + CPUs + rest), W"),
        "tdp_w": (NUM, "board power (TDP) of one recommended GPU, W"),
        "training_source": (STR, "where the fine-tuning runs go (the training plan, docs/fine-tuning.md): "
                                 "serving-idle | rented-per-run | dedicated; absent without a plan (pools)"),
        "training_gpu": (STR, "GPU id the fine-tuning runs train on: the plan's chosen runs, else (no plan: "
                              "pools) the recommended GPU"),
        "training_gpus": (NUM, "GPUs of one run: the plan's chosen runs, else the recommendation's count"),
        "training_gpu_family": (STR, "family of training_gpu (as gpu_family; 000 M2 checks it)"),
        "training_hours_per_run": (NUM, "GPU hours of one chosen run"),
        "training_elapsed_hours_per_run": (NUM, "elapsed hours of one chosen run (idle hours: the nights it spans)"),
        "rented_gpu": (STR, "the cheapest run rented for its hours, when not chosen: GPU id"),
        "rented_gpus": (NUM, "its GPUs"),
        "rented_hours_per_run": (NUM, "its hours per run"),
        "rented_cost_per_run_chf": (NUM, "its cost per run, CHF"),
    },
    "near_tie": {
        "gpu": (STR, "an alternative within 2 % of the pick's TCO that is faster or smaller (expert/facts/near_tie.py)"),
        "count": (NUM, "its GPUs"),
        "extra_chf": (NUM, "what it costs more over the horizon, CHF"),
        "extra_share": (NUM, "extra_chf / the pick's TCO"),
        "tpot_ms": (NUM, "its time per output token at the peak, ms"),
        "choice_tpot_ms": (NUM, "the pick's time per output token, ms"),
        "choice_count": (NUM, "the pick's GPUs"),
        "speedup": (NUM, "choice_tpot_ms / tpot_ms"),
        "fewer_gpus": (BOOL, "it needs fewer GPUs than the pick"),
        "horizon_months": (NUM, "the TCO horizon, months"),
    },
    "optimum": {
        "gpu": (STR, "audit: the configurator's optimum for the setup's workload and targets (expert/flows/audit_cost.py)"),
        "count": (NUM, "its GPUs"),
        "precision": (STR, "its precision"),
        "monthly_cost_chf": (NUM, "its cost per month, CHF"),
        "tco_chf": (NUM, "its cost over the horizon, CHF"),
        "setup_monthly_cost_chf": (NUM, "the setup's cost per month as the configurator prices it, CHF"),
        "setup_tco_chf": (NUM, "the setup's cost over the horizon, CHF"),
        "saving_chf_month": (NUM, "setup − optimum per month, CHF (0 when the optimum costs more)"),
        "saving_chf_horizon": (NUM, "setup − optimum over the horizon, CHF (0 when the optimum costs more)"),
        "saving_share": (NUM, "saving_chf_month / the setup's monthly cost"),
        "horizon_months": (NUM, "the horizon, months"),
        "is_optimum": (BOOL, "the optimum is the setup's GPU and count (its offer may still cost less)"),
        "underprovisioned": (BOOL, "the setup's own figures say it does not serve its load (audit_cost.underprovisioned)"),
        "threshold_share": (NUM, "the saving share from which the setup counts as overprovisioned (own: 20 %)"),
    },
    "quantised_option": {
        "precision": (STR, "a quantised precision beside the stated one: fp8 | int8 | int4 "
                           "(expert/facts/precision.py)"),
        "stated": (STR, "the workload's stated precision, which the pick keeps"),
        "gpu": (STR, "the cheapest configuration at that precision: GPU id"),
        "count": (NUM, "its GPUs"),
        "tco_chf": (NUM, "its TCO over the horizon, CHF"),
        "choice_fits": (BOOL, "a configuration fits at the stated precision"),
        "saving_chf": (NUM, "what it costs less than the pick over the horizon, CHF (absent when nothing "
                            "fits at the stated precision)"),
        "horizon_months": (NUM, "the TCO horizon, months"),
        "how": (STR, "the workload line that admits it: 'allow_quantization: true' below the stated "
                     "precision, else 'precision: <p>'"),
        "note": (STR, "000 Q2's (fp8: G3's) quality note, English"),
        "note_de": (STR, "the same note, German"),
    },
    "quantised_pick": {
        "precision": (STR, "the quantised precision of the pick of an open precision: fp8 | int8 | int4"),
        "stated": (STR, "the workload's precision (fp16 when none is stated)"),
        "gpu": (STR, "the pick's GPU id"),
        "count": (NUM, "the pick's GPUs"),
        "tco_chf": (NUM, "the pick's TCO over the horizon, CHF"),
        "baseline_fits": (BOOL, "a configuration fits at the workload's own precision"),
        "baseline_gpu": (STR, "the cheapest configuration at the workload's own precision: GPU id"),
        "baseline_count": (NUM, "its GPUs"),
        "baseline_tco_chf": (NUM, "its TCO over the horizon, CHF"),
        "saving_chf": (NUM, "what the quantised pick costs less, CHF (absent when the baseline does not fit)"),
        "horizon_months": (NUM, "the TCO horizon, months"),
        "note": (STR, "000 Q2's (fp8: G3's) quality note, English"),
        "note_de": (STR, "the same note, German"),
    },
    "agent": {
        "origin": (STR, "advice (sized for a workload) | audit (a running setup)"),
        "kind": (STR, "conversational | analytical | coding"),
        "steps_mean": (NUM, "LLM steps per task, mean"),
        "cache_hit_rate": (NUM, "modelled share of input tokens served from the prefix cache 0..1"),
        "expected_cache_hit_rate": (NUM, "audit: the hit rate the agent's loop allows with session affinity"),
        "measured_cache_hit_rate": (NUM, "audit: measured prefix-cache hit rate 0..1"),
        "routing": (STR, "audit: session-affinity | prefix-aware | round-robin | least-loaded | random"),
        "spreads_sessions": (BOOL, "the router may send a session's steps to different replicas"),
        "replicas": (NUM, "audit: serving replicas (count / tensor parallel)"),
        "session_affinity": (BOOL, "a session's steps reach the replica that holds its KV cache"),
        "kv_during_tools": (STR, "gpu | cpu | drop: where a session's KV waits while its tool runs"),
        "sessions_peak": (NUM, "live sessions at the peak (Little's law)"),
        "sessions_on_gpu_peak": (NUM, "sessions whose KV is on the GPUs at the peak"),
        "kv_per_session_gb": (NUM, "KV cache of one session at its mean context beyond the shared prefix, GB"),
        "kv_shared_gb": (NUM, "KV cache of the prefix all sessions share, once per replica, GB"),
        "kv_sessions_gb": (NUM, "KV cache of the sessions on the GPUs at the peak, the mean, GB"),
        "kv_sessions_p95_gb": (NUM, "KV cache the GPUs must hold: each replica at the p95 of its sessions, GB"),
        "kv_bound": (BOOL, "KV residency, not compute or latency, sets the GPU count"),
        "tool_share": (NUM, "share of a task's wall time spent in tools 0..1"),
        "compactions_per_task": (NUM, "context compactions per task (context limit reached)"),
        "task_latency_s": (NUM, "mean task wall time, tools included, s"),
        "step_latency_s": (NUM, "one step's end-to-end latency at the operating point, s"),
        "ttft_step_s": (NUM, "prefill of a step's uncached tokens, s"),
        "ttft_step_uncached_s": (NUM, "prefill of a whole step without prefix cache, s"),
        "max_context_tokens": (NUM, "largest context a task reaches, tokens"),
        "context_limit_tokens": (NUM, "context limit (compaction threshold), tokens"),
        "offload_gpu": (STR, "kv_bound: the GPU of the optimum with idle sessions' KV in CPU memory"),
        "offload_count": (NUM, "kv_bound: its GPU count"),
        "peak_steps_per_s": (NUM, "LLM steps/s at the peak the search sized"),
        "offload_peak_steps_per_s": (NUM, "kv_bound: LLM steps/s at the peak it serves (a closed loop's users' own rate)"),
        "offload_monthly_saving_chf": (NUM, "kv_bound: its monthly saving, CHF"),
        "kv_waits": (STR, "gpu | host | dropped: where the sessions' KV waits during tools"),
        "host_kv_gb": (NUM, "offloaded sessions' KV in host DRAM at the peak, GB"),
        "host_ram_gb": (NUM, "host RAM of the pick (000 M3: 4 × total VRAM); absent when unknown"),
        "host_ram_exceeded": (BOOL, "host_kv_gb above host_ram_gb"),
        "host_link_gbs": (NUM, "host-to-GPU PCIe rate per GPU and direction, GB/s"),
        "host_link_load": (NUM, "offloaded-KV reloads at the peak over the PCIe link, 0..1+"),
    },
    "agent_spec": {
        "name": (STR, "000 R1: the agent's name in the inventory"),
        "model": (STR, "catalog id of its model, or 'generic'"),
        "params_b": (NUM, "billions of parameters"),
        "vram_gb": (NUM, "VRAM needed: weights at the workload's precision + KV cache of one sequence, GB"),
        "requests_per_day": (NUM, "expected request volume (absent when not stated)"),
        "peak_rps": (NUM, "peak requests per second (the workload's peak-to-average)"),
        "fine_tuning": (STR, "none | yearly | quarterly | monthly | weekly"),
        "finetune_runs_per_year": (NUM, "retraining runs per year"),
        "latency_target_s": (NUM, "the pool's p95 latency target, s (absent when none)"),
    },
    "u2_saving": {
        "chf_month": (NUM, "000 U2: team time a month the H100 saves: A100 fine-tuning hours × (1 − 1/2.8) × team rate"),
        "a100_hours_month": (NUM, "fine-tuning hours a month on one A100 80 GB"),
    },
    "h100_premium": {
        "chf_month": (NUM, "000 U2/T1: the Swiss provider's H100 minus A100 80 GB monthly cost (rent × 1.15 + energy)"),
    },
    "setup": {
        "gpu": (STR, "GPU id"),
        "gpu_family": (STR, "l40s | a100 | h100 | ... as for choice"),
        "gpu_grade": (STR, "datacenter | workstation | consumer"),
        "gpu_memory_gb": (NUM, "memory of one GPU, GB"),
        "ecc": (BOOL, "GPU memory has ECC"),
        "count": (NUM, "number of GPUs"),
        "total_vram_gb": (NUM, "count × GPU memory, GB"),
        "interconnect": (STR, "nvlink | pcie | pcie-bridge"),
        "usable_vram_gb": (NUM, "what the serving engine can use of all GPUs (its budget rule, "
                           "docs/engines.md; without a workload: vLLM's 0.92 of the reported memory)"),
        "form_factor": (STR, "pcie | sxm | nvl | oam"),
        "ownership": (STR, "rented | owned"),
        "cpu_cores": (NUM, "CPU cores"),
        "ram_gb": (NUM, "system RAM, GB"),
        "ram_vram_ratio": (NUM, "000 M3: system RAM / total VRAM (document minimum 4)"),
        "storage_type": (STR, "nvme | sata-ssd | hdd | network"),
        "storage_read_mb_s": (NUM, "storage read speed, MB/s"),
        "network_gbps": (NUM, "network, Gbps"),
        "country": (STR, "ISO country of the servers"),
        "provider_seat": (STR, "ISO country of the provider's seat"),
        "iso27001": (BOOL, "provider certified ISO 27001 (null when hosting.certifications is not stated)"),
        "hds_certified": (BOOL, "provider HDS-certified (French health-data hosting, 000 M4 note); "
                                 "'hds' in hosting.certifications"),
        "utilization_mean": (NUM, "measured mean GPU utilisation 0..1"),
        "utilization_peak": (NUM, "measured peak GPU utilisation 0..1"),
        "day_night_swing": (NUM, "peak-hour minus night utilisation 0..1"),
        "latency_p95_s": (NUM, "measured p95 latency, s"),
        "tensor_parallel": (NUM, "tensor-parallel degree"),
        "finetune_exceeds_setup": (BOOL, "the fine-tuning memory exceeds what a run can use of the setup's GPUs (000 D2) and "
                                   "CPU offload does not fit the run on its GPUs and server RAM"),
        "fine_tuning_here": (BOOL, "the workload's fine-tuning runs on these GPUs (setup training_gpus: serving)"),
        "training_gpu": (STR, "with fine_tuning_here: the GPU id the runs train on (this setup's)"),
        "training_gpus": (NUM, "with fine_tuning_here: the GPUs of one run (this setup's count)"),
        "training_gpu_family": (STR, "with fine_tuning_here: family of training_gpu (as gpu_family; 000 M2 "
                                     "checks it)"),
        "monitoring": (BOOL, "GPU monitoring in place"),
        "backups": (BOOL, "backups of fine-tuned models and configurations"),
        "deployment_months": (NUM, "planned deployment length, months"),
        "usage_pattern": (STR, "steady | fluctuating"),
        "inference_engine": (STR, "vllm | tensorrt-llm | sglang | tgi | transformers | other"),
        "engine_version": (STR, "the serving engine's version as deployed (setup file), e.g. 0.8.3"),
        "serving_capacity_current_rps": (NUM, "serving_capacity_rps on a current release of the same engine, same "
                                              "GPUs and targets; only where the deployed version waits for its host "
                                              "on every decode step (vLLM < 0.12, expert/sizing/engine_versions.py)"),
        "quantization_validated": (BOOL, "quantisation quality validated"),
        "sxm_complete_systems": (BOOL, "SXM GPUs only: the count is full HGX boards (4, 8 or a multiple of 8; 004 C3)"),
        "reserve_ratio": (NUM, "free share of the setup's usable memory with today's model"),
        "weights_share": (NUM, "weights per GPU / GPU memory (000 M5: 7B = 14 GB on 24 GB leaves 42 %)"),
        "fits": (BOOL, "today's model fits the setup (true when the setup runs: measured facts win)"),
        "fits_estimate": (BOOL, "the memory estimate of the engine holds the workload's peak sequences"),
        "running": (BOOL, "the setup reports a measured utilisation or latency, so it serves today"),
        "engine": (STR, "serving engine of the memory budget: vllm | tensorrt-llm | sglang | llama.cpp | "
                   "transformers (docs/engines.md)"),
        "serving_precision": (STR, "precision the model is served in (setup, else workload)"),
        "tensor_parallel_used": (NUM, "tensor-parallel degree the estimate used (the setup's, else the "
                                 "smallest whose replicas hold the peak, else one sequence)"),
        "need_per_gpu_gb": (NUM, "memory one GPU of a replica needs at the peak sequences, GB"),
        "usable_per_gpu_gb": (NUM, "memory the engine holds per GPU (weights, activations, runtime, KV pool), GB"),
        "estimated_max_sequences": (NUM, "sequences of the workload's context the KV pools of all replicas hold"),
        "peak_sequences": (NUM, "concurrent sequences the workload's peak needs (its concurrency, else 1)"),
        "room_below_peak": (BOOL, "estimated_max_sequences < peak_sequences"),
        "context_tokens_used": (NUM, "context per sequence the estimate used, tokens"),
        "growth_fits": (BOOL, "the expected future model fits the setup"),
        "fits_int8": (BOOL, "today's model would fit the setup at int8 precision (000 Q2)"),
        "finetune_hours": (NUM, "hours per fine-tuning run on this setup"),
        "finetune_hours_on_a100": (NUM, "hours per run on the same count of A100 80 GB"),
        "finetune_slowdown_vs_a100": (NUM, "finetune_hours / finetune_hours_on_a100 (000 M2: 3-4×)"),
        "team_cost_extra_chf_month": (NUM, "monthly team-time cost of the slower fine-tuning vs A100, in "
                                      "attended hours (8 per calendar day of a run)"),
        "gpu_saving_chf_month": (NUM, "monthly GPU saving vs A100 80 GB"),
        "team_waits": (BOOL, "the workload counts team time (fine_tuning.team_waits, opt-in)"),
        "serving_peak_rps": (NUM, "requests per second the workload peaks at (docs/slo.md: rate as given, "
                                  "daily volume × peak factor)"),
        "serving_capacity_rps": (NUM, "estimated most requests per second the setup serves within the latency "
                                      "targets at the target utilisation (token level)"),
        "serving_load_ratio": (NUM, "serving_peak_rps / serving_capacity_rps (> 1: the peak exceeds the "
                                    "estimated capacity)"),
        "estimated_ttft_p95_s": (NUM, "estimated p95 TTFT at the peak (queueing + prefill + first token), s"),
        "estimated_tpot_ms": (NUM, "estimated time per output token in the continuous-batching steady state at "
                                   "the peak (operating_rate_rps per replica, operating_decoding decoding), ms"),
        "estimated_busy_share": (NUM, "the peak per replica over its compute capacity (the largest arrival rate "
                                      "with a stable steady state, docs/slo.md)"),
        "estimated_e2e_s": (NUM, "estimated complete answer at the peak (TTFT p95 + output × TPOT), s; beyond "
                                 "capacity, on the serving_gpus_needed (else at the most sequences a replica holds)"),
        "concurrent_inferences": (NUM, "000 D3 at the peak: max(stated concurrency, peak rps × inference time / "
                                       "target utilisation), the inference time stated or estimated_e2e_s"),
        "pool_gpus_needed_at_peak": (NUM, "a pool: pool_gpus_needed plus the GPUs each agent's replicas lack "
                                          "to serve its own peak (its serving_gpus_needed over what it has)"),
        "pool_average_rps": (NUM, "a pool: its placed agents' average rates summed, req/s"),
        "pool_peak_rps": (NUM, "a pool: its placed agents' peaks summed, req/s"),
        "pool_concurrent_inferences": (NUM, "a pool: its placed agents' 000 D3 concurrent inferences summed"),
        "pool_inference_time_s": (NUM, "a pool: its placed agents' complete answers weighted by their peaks, s"),
        "serving_gpus_needed": (NUM, "GPUs of the setup's kind at its tensor parallelism that serve the peak within "
                                     "the targets (the configurator's replica count × TP); absent when none do"),
        "operating_batch": (NUM, "sequences per replica at the peak (Little's law)"),
        "operating_rate_rps": (NUM, "arrival rate per replica at the peak the estimated TTFT/TPOT are for"),
        "operating_decoding": (NUM, "sequences decoding per replica in that steady state"),
        "pool_agents": (NUM, "a pool of agents (workload.agents): the agents these GPUs serve (expert/flows/audit_pool.py); "
                             "absent for a single model. The serving_* figures are then the worst agent's"),
        "pool_gpus_needed": (NUM, "GPUs the pool's replicas need, packed at their operating batches (TP-1 replicas "
                                  "of different agents share a GPU by memory and busy share; TP > 1: whole GPUs)"),
        "pool_gpus_missing": (NUM, "pool_gpus_needed − count (> 0: the replicas do not fit the pool's GPUs)"),
        "pool_memory_gb": (NUM, "memory of all the pool's replicas at their operating batches, GB"),
        "pool_agents_not_placed": (STR, "the pool's agents that cannot run on this GPU at all, comma-separated"),
        "serving_worst_agent": (STR, "a pool: the agent with the highest serving_load_ratio"),
        "french_connection": (BOOL, "hosted in or by a provider seated in France, or the workload's site_country "
                                    "is FR (000 M4's HDS note)"),
        "used_per_gpu_gb": (NUM, "memory one GPU holds at the peak (a pool: all replicas over its GPUs), GB"),
    },
}

# Kinds the facade asserts from Python; every other kind is derived by rules.
INPUT_KINDS = tuple(INPUT_FACTS)
ADVICE_KINDS = tuple(kind for kind in INPUT_KINDS if kind not in ("setup", "optimum"))
"""The input kinds an advice asserts (`expert.flows.advice`): every one but the audit's `setup` and `optimum`. An advice
evaluates only the rules these can reach (`RuleBase.reachable`)."""


def describe() -> str:
    """The vocabulary as Markdown, for docs/facts.md."""
    lines = ["# Facts rules can test", "",
             "Generated from `expert/facts/vocabulary.py`. Derived kinds (`flag`, `usecase`, ...) are "
             "defined by the rules that derive them.", ""]
    for kind, fields in INPUT_FACTS.items():
        lines += [f"## `{kind}`", "", "| field | type | meaning |", "|---|---|---|"]
        lines += [f"| `{name}` | {typ} | {meaning} |" for name, (typ, meaning) in fields.items()]
        lines.append("")
    return "\n".join(lines)
