"""What model calls cost: how many calls, and the tokens their replies report.

A LangChain callback on the chat model sees every call, whatever chain it runs in; the transcript
keeps one ``StepUsage`` per step (detect, translate, verify…), and a benchmark one total. This
module imports nothing of the chain's, so a benchmark can load it into an older revision's code.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass, fields
from typing import Any
from uuid import UUID

from langchain_core.callbacks import BaseCallbackHandler


@dataclass
class StepUsage:
    """The model calls of one step: ``streamed`` of them came piece by piece (the first translation);
    ``unreported`` of them reported no token counts (a backend that cannot count a streamed reply,
    a failed or abandoned call), so the token totals leave them out. ``input_tokens``: prompt tokens
    read; ``evaluated_tokens``: those of them computed rather than restored from the backend's prompt
    cache (llama.cpp, transformers, a server that reports cached tokens); ``output_tokens``: written."""

    calls: int = 0
    streamed: int = 0
    unreported: int = 0
    input_tokens: int = 0
    evaluated_tokens: int = 0
    output_tokens: int = 0

    @property
    def tokens(self) -> int:
        return self.input_tokens + self.output_tokens

    def __add__(self, other: "StepUsage") -> "StepUsage":
        return StepUsage(**{f.name: getattr(self, f.name) + getattr(other, f.name) for f in fields(self)})

    def __sub__(self, other: "StepUsage") -> "StepUsage":
        return StepUsage(**{f.name: getattr(self, f.name) - getattr(other, f.name) for f in fields(self)})

    def add_reply(self, usage: dict[str, Any]) -> None:
        """Add the token counts of one reply (a LangChain ``usage_metadata``)."""
        cached = (usage.get("input_token_details") or {}).get("cache_read") or 0
        self.input_tokens += usage.get("input_tokens", 0)
        self.evaluated_tokens += usage.get("input_tokens", 0) - cached
        self.output_tokens += usage.get("output_tokens", 0)


def total(usages: Iterable[StepUsage]) -> StepUsage:
    return sum(usages, StepUsage())


class UsageCounter(BaseCallbackHandler):
    """Counts the calls of the chat model it is attached to and the tokens their replies report.

    ``record`` names the ``StepUsage`` a call starting now is counted in (a transcript's open step);
    without it every call goes to ``self.total``. A call's tokens go where its start went, even
    when the step closed before its reply ended (a stream read to its end later)."""

    def __init__(self, record: Callable[[], StepUsage] | None = None):
        self.total = StepUsage()
        self._record = record or (lambda: self.total)
        self._open: dict[UUID, StepUsage] = {}
        self._streaming: set[UUID] = set()
        self._lock = threading.Lock()

    def on_chat_model_start(self, serialized: Any, messages: Any, *, run_id: UUID, **kwargs: Any) -> None:
        usage = self._record()
        with self._lock:
            usage.calls += 1
            self._open[run_id] = usage

    def on_llm_new_token(self, token: str, *, run_id: UUID, **kwargs: Any) -> None:
        with self._lock:
            if run_id in self._open:
                self._streaming.add(run_id)

    def on_llm_end(self, response: Any, *, run_id: UUID, **kwargs: Any) -> None:
        replies = [message.usage_metadata for batch in response.generations for generation in batch
                   if (message := getattr(generation, "message", None)) is not None
                   and getattr(message, "usage_metadata", None)]
        self._close(run_id, replies)

    def on_llm_error(self, error: BaseException, *, run_id: UUID, **kwargs: Any) -> None:
        self._close(run_id, [])

    def _close(self, run_id: UUID, replies: list[dict[str, Any]]) -> None:
        with self._lock:
            if run_id not in self._open:
                return
            usage = self._open.pop(run_id)
            if run_id in self._streaming:
                self._streaming.discard(run_id)
                usage.streamed += 1
            if not replies:
                usage.unreported += 1
            for reply in replies:
                usage.add_reply(reply)
