"""The numeric sizing core: pure functions over catalog objects, returning typed results with provenance.

Modules: `constants` (every sourced constant, overridable via `Assumptions`), `architecture`
(generic dense model for `params_b`), `engines` (each serving engine's memory budget: vLLM,
TensorRT-LLM, SGLang, llama.cpp, transformers), `memory` (inference memory and its inverse), `finetune`
(training memory), `training` (run time, calibrated efficiency, team cost), `parallel` (004's TP
table), `speed` (TTFT, TPOT, throughput), `replicas` (000 D3's capacity: replicas and GPUs for a load),
`tco` (000 T1-T5: rent, buy, break-even), `results` (pydantic models), `combined` (the entry points
`estimate` and `full_sizing`).
"""

from __future__ import annotations

from expert._plumbing.lazy import lazy_exports

_EXPORTS = {
    **dict.fromkeys(('generic_model',), 'architecture'),
    **dict.fromkeys(('capacity', 'concurrent_inferences', 'latency_limited_batch', 'request_rates'), 'replicas'),
    **dict.fromkeys(('DEFAULT', 'Assumptions', 'Constant'), 'constants'),
    **dict.fromkeys(('break_even_months', 'buy_cost', 'cost', 'cost_per_million_tokens', 'cost_per_request',
                     'energy_chf', 'full_break_even_months', 'rent_cost', 'resale_share'), 'tco'),
    **dict.fromkeys(('ENGINES', 'budget'), 'engines'),
    **dict.fromkeys(('estimate', 'full_sizing'), 'combined'),
    **dict.fromkeys(('finetune_memory', 'lora_trainable_params', 'training_activation_gb'), 'finetune'),
    **dict.fromkeys(('choose_tensor_parallel', 'inference_memory', 'kv_bytes_per_token', 'kv_cache_gb', 'max_sequences',
                     'weights_gb'), 'memory'),
    **dict.fromkeys(('c8_cross_check', 'tp_efficiency', 'tp_speedup'), 'parallel'),
    **dict.fromkeys(('bandwidth_limit_tokens_per_s', 'performance'), 'speed'),
    **dict.fromkeys(('finetune_run', 'implied_dataset_tokens', 'relative_finetune_time', 'team_time_cost',
                     'total_cost_with_team', 'training_efficiency'), 'training'),
}

__all__ = [
    "Assumptions", "Constant", "DEFAULT", "ENGINES", "budget", "generic_model", "weights_gb", "kv_bytes_per_token", "kv_cache_gb",
    "inference_memory", "max_sequences", "choose_tensor_parallel", "finetune_memory", "lora_trainable_params",
    "training_activation_gb", "finetune_run", "implied_dataset_tokens", "relative_finetune_time",
    "team_time_cost", "total_cost_with_team", "training_efficiency", "tp_speedup", "tp_efficiency",
    "c8_cross_check", "performance", "bandwidth_limit_tokens_per_s", "request_rates", "concurrent_inferences",
    "latency_limited_batch", "capacity", "energy_chf", "resale_share", "break_even_months",
    "full_break_even_months", "rent_cost", "buy_cost", "cost", "cost_per_million_tokens", "cost_per_request",
    "estimate", "full_sizing",
]

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
