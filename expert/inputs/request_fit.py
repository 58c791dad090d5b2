"""Whether one request fits: prompt + output within the context a workload or `estimate` states, and
within the model's maximum context. Plain messages, so that the workload file's validator and the
`estimate` flags refuse with the same rule, written once."""

from __future__ import annotations


def context_too_small(prompt: int, output: int, context: int) -> str | None:
    """The refusal when prompt + output exceed `context` (a request must fit its context), else None."""
    if prompt + output <= context:
        return None
    return (f"prompt_tokens + output_tokens ({prompt + output}) exceed context_tokens ({context}): a request "
            "must fit its context (raise context_tokens or leave it out)")


def beyond_model_context(prompt: int, output: int, model_id: str, max_context: int) -> tuple[str, str] | None:
    """(why, allowed) when prompt + output exceed the model's maximum context, else None: such a request
    cannot be served as stated (an explicit context_tokens beyond the maximum is capped with a note)."""
    if prompt + output <= max_context:
        return None
    return (f"prompt_tokens + output_tokens ({prompt + output}) exceed {model_id}'s maximum context of "
            f"{max_context} tokens", f"prompt + output up to {max_context}")
