"""The serving engines' names, without their memory budgets (`expert.sizing.engines`).

Kept apart so that declaring the command line's `--engine` choices imports nothing heavy.
"""

ENGINES = ("vllm", "tensorrt-llm", "sglang", "llama.cpp", "transformers")
DEFAULT_ENGINE = "vllm"
