"""The reply of an in-process backend as a langchain result, with the token counts callers read."""

from __future__ import annotations

from langchain_core.messages import AIMessage
from langchain_core.outputs import ChatGeneration, ChatResult


def chat_result(text: str, usage: dict[str, int]) -> ChatResult:
    """``usage`` holds input_tokens, output_tokens and cached_tokens (prompt tokens reused from a cache)."""
    message = AIMessage(
        content=text,
        usage_metadata={
            "input_tokens": usage["input_tokens"],
            "output_tokens": usage["output_tokens"],
            "total_tokens": usage["input_tokens"] + usage["output_tokens"],
            "input_token_details": {"cache_read": usage["cached_tokens"]},
        },
    )
    return ChatResult(generations=[ChatGeneration(message=message)])
