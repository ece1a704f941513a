"""The reply of an in-process backend as a langchain result or as streamed chunks, with the token
counts callers read; one place for both so that every in-process backend reports alike (and a
model server that cannot stream gives its whole reply as one chunk the same way)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.messages import AIMessage, AIMessageChunk
from langchain_core.outputs import ChatGeneration, ChatGenerationChunk, ChatResult


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


def chat_chunks(pieces: Iterable[str], run_manager: CallbackManagerForLLMRun | None) -> Iterator[ChatGenerationChunk]:
    """Pieces of a reply as the model decodes them, each also reported to the callbacks as a new token."""
    for piece in pieces:
        if run_manager:
            run_manager.on_llm_new_token(piece)
        yield ChatGenerationChunk(message=AIMessageChunk(content=piece))


def whole_reply_chunk(result: ChatResult) -> ChatGenerationChunk:
    """A reply that cannot stream (constrained, cut at stop sequences, or from a server that does not
    stream) as one chunk, its token counts kept."""
    message = result.generations[0].message
    return ChatGenerationChunk(message=AIMessageChunk(content=message.content,
                                                      usage_metadata=message.usage_metadata))
