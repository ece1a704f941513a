"""What the in-process backends (transformers, llama.cpp) share as langchain chat models: a model
named by ``target``, generation defaults, an engine loaded once per process, and streaming that
falls back to the whole reply where a backend cannot stream a call."""

from __future__ import annotations

from collections.abc import Generator, Iterator
from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import BaseMessage, convert_to_openai_messages
from langchain_core.outputs import ChatGenerationChunk
from pydantic import ConfigDict, PrivateAttr

from .config import GenerationConfig
from .results import chat_chunks, whole_reply_chunk


class InProcessChatModel(BaseChatModel):
    """A subclass says how to load its engine (``_load_engine``), how to generate (``_generate``) and
    how to stream a call (``_pieces``: the reply's pieces, returning its token counts once complete,
    or None to send it whole)."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    target: str
    generation: GenerationConfig = GenerationConfig()
    _engine: Any = PrivateAttr()

    def __init__(self, **data: Any):
        super().__init__(**data)
        self._engine = self._load_engine()

    def _load_engine(self) -> Any:
        raise NotImplementedError

    def _pieces(self, messages: list[dict[str, Any]], stop: list[str] | None,
                kwargs: dict[str, Any]) -> Generator[str, None, dict[str, int]] | None:
        raise NotImplementedError

    @property
    def _identifying_params(self) -> dict[str, Any]:
        return {"target": self.target, "generation": self.generation}

    def _stream(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> Iterator[ChatGenerationChunk]:
        """Token streaming (the translation a person watches being written)."""
        pieces = self._pieces(convert_to_openai_messages(messages), stop, kwargs)
        if pieces is None:
            yield whole_reply_chunk(self._generate(messages, stop, run_manager, **kwargs))
            return
        yield from chat_chunks(pieces, run_manager)
