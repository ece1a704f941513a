"""The reply of an in-process backend as a langchain result or as streamed chunks, with the token
counts callers read; one place for both so that every in-process backend reports alike (and a
model server that cannot stream gives its whole reply as one chunk the same way)."""

from __future__ import annotations

from collections.abc import Iterator

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.messages import AIMessage, AIMessageChunk
from langchain_core.outputs import ChatGeneration, ChatGenerationChunk, ChatResult


def usage_metadata(usage: dict[str, int]) -> dict:
    """LangChain's token counts of a reply from ``usage``: input_tokens, output_tokens and
    cached_tokens (prompt tokens reused from a cache)."""
    return {
        "input_tokens": usage["input_tokens"],
        "output_tokens": usage["output_tokens"],
        "total_tokens": usage["input_tokens"] + usage["output_tokens"],
        "input_token_details": {"cache_read": usage["cached_tokens"]},
    }


def chat_result(text: str, usage: dict[str, int]) -> ChatResult:
    """``usage`` holds input_tokens, output_tokens and cached_tokens (prompt tokens reused from a cache)."""
    message = AIMessage(content=text, usage_metadata=usage_metadata(usage))
    return ChatResult(generations=[ChatGeneration(message=message)])


def chat_chunks(pieces: Iterator[str], run_manager: CallbackManagerForLLMRun | None) -> Iterator[ChatGenerationChunk]:
    """Pieces of a reply as the model decodes them, each also reported to the callbacks as a new token;
    the token counts that ``pieces`` returns once complete (a generator's return value, if any) come
    last, as an empty chunk that carries them (as an OpenAI-compatible server sends them)."""
    while True:
        try:
            piece = next(pieces)
        except StopIteration as end:
            if end.value is not None:
                yield ChatGenerationChunk(message=AIMessageChunk(content="", usage_metadata=usage_metadata(end.value)))
            return
        if run_manager:
            run_manager.on_llm_new_token(piece)
        yield ChatGenerationChunk(message=AIMessageChunk(content=piece))


def whole_reply_chunk(result: ChatResult) -> ChatGenerationChunk:
    """A reply that cannot stream (constrained, cut at stop sequences, or from a server that does not
    stream) as one chunk, its token counts kept."""
    message = result.generations[0].message
    return ChatGenerationChunk(message=AIMessageChunk(content=message.content,
                                                      usage_metadata=message.usage_metadata))
