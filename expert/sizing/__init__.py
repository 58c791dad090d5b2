"""The numeric sizing core: pure functions over catalog objects, returning typed results with provenance.

Modules: `constants` (every sourced constant, overridable via `Assumptions`), `architecture`
(generic dense model for `params_b`), `engines` (each serving engine's memory budget: vLLM,
TensorRT-LLM, SGLang, llama.cpp, transformers), `memory` (inference memory and its inverse), `finetune`
(training memory), `training` (run time, calibrated efficiency, team cost), `parallel` (004's TP
table), `speed` (TTFT, TPOT, throughput), `capacity` (000 D3), `cost` (000 T1-T5), `results`
(pydantic models), `estimate` (the entry points).
"""

from expert.sizing.architecture import generic_model
from expert.sizing.capacity import capacity, concurrent_inferences, latency_limited_batch, request_rates
from expert.sizing.constants import DEFAULT, Assumptions, Constant
from expert.sizing.cost import (break_even_months, buy_cost, cost, cost_per_million_tokens, cost_per_request,
                                energy_chf, full_break_even_months, rent_cost, resale_share)
from expert.sizing.engines import ENGINES, budget
from expert.sizing.estimate import estimate, full_sizing
from expert.sizing.finetune import finetune_memory, lora_trainable_params, training_activation_gb
from expert.sizing.memory import (choose_tensor_parallel, inference_memory, kv_bytes_per_token, kv_cache_gb,
                                  max_sequences, weights_gb)
from expert.sizing.parallel import c8_cross_check, tp_efficiency, tp_speedup
from expert.sizing.speed import bandwidth_limit_tokens_per_s, performance
from expert.sizing.training import (finetune_run, implied_dataset_tokens, relative_finetune_time,
                                    team_time_cost, total_cost_with_team, training_efficiency)

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
