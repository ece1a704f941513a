"""One factory from a model spec to a langchain chat model, so callers never care which backend runs.

Backends are imported lazily (``"module:function"`` strings): the in-process one pulls in
torch, the vLLM one needs the optional ``vllm`` extra.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from .config import GenerationConfig
from .request import GenerationRequest, StructuredOutputs
from .spec import DEFAULT_MODEL, MODEL_ENV_VAR, ModelSpec, default_model_spec

if TYPE_CHECKING:  # the console script imports specs; only loading a model needs langchain
    from langchain_core.language_models.chat_models import BaseChatModel

BACKENDS: dict[str, str] = {
    "transformers": "assistant.backends.hf:load",
    "vllm": "assistant.backends.vllm:load",
    "openai": "assistant.backends.openai:load",
    "llamacpp": "assistant.backends.llamacpp:load",
}

__all__ = [
    "BACKENDS",
    "DEFAULT_MODEL",
    "MODEL_ENV_VAR",
    "GenerationConfig",
    "GenerationRequest",
    "ModelSpec",
    "StructuredOutputs",
    "default_model_spec",
    "load_chat_model",
    "requests_in_flight",
    "supports_structured_output",
]

# A file's texts in flight at once on a server that batches them (vLLM on two CPU cores gave ~4x the
# tokens/s with 16 requests in flight as with 16 in a row; a GPU batches far more).
SERVER_IN_FLIGHT = 8


def load_chat_model(spec: ModelSpec, generation: GenerationConfig | None = None) -> BaseChatModel:
    """Turn a parsed ``transformers:…``, ``llamacpp:…``, ``vllm:…`` or ``openai:…`` spec into a ready chat model."""
    module_name, _, func_name = BACKENDS[spec.backend].partition(":")
    loader = getattr(importlib.import_module(module_name), func_name)
    return loader(spec, generation or GenerationConfig())


def supports_structured_output(spec: ModelSpec) -> bool:
    """Whether to ask the backend for constrained replies (a JSON schema, a list of choices).

    The vLLM servers intercpt runs and the in-process llama.cpp backend honour them. Any other
    OpenAI-compatible server is asked too: one that rejects them gets plain requests from then
    on, one that ignores them gets its replies parsed tolerantly. The in-process transformers
    backend has no constrained decoding."""
    return spec.backend in ("vllm", "openai", "llamacpp")


def requests_in_flight(spec: ModelSpec) -> int:
    """How many texts of one file to send at once: a server batches concurrent requests; an in-process model
    runs one call at a time (llama.cpp behind a lock), so more would only queue, and one after another in
    document order keeps the prompts' constant prefix in its cache."""
    return SERVER_IN_FLIGHT if spec.backend in ("vllm", "openai") else 1
