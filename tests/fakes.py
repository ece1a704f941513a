"""A fake chat model for control-flow tests: replies from per-step queues and records every call."""

from __future__ import annotations

from typing import Any

from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import AIMessage
from langchain_core.outputs import ChatGeneration, ChatResult


class StepFake(BaseChatModel):
    """Routes each call by its system prompt to the detect, user or translate reply queue.

    A queue that runs dry repeats its last reply. ``calls`` keeps (step, messages, kwargs).
    """

    detect: list[str] = []
    user: list[str] = []
    translate: list[str] = []
    calls: list[tuple[str, list, dict]] = []

    @property
    def _llm_type(self) -> str:
        return "step-fake"

    def _generate(self, messages, stop=None, run_manager=None, **kwargs: Any) -> ChatResult:
        system = messages[0].content
        step = "detect" if "help a translator" in system else "user" if "You wrote an English text" in system else "translate"
        self.calls.append((step, messages, kwargs))
        queue = getattr(self, step)
        reply = queue.pop(0) if len(queue) > 1 else queue[0]
        return ChatResult(generations=[ChatGeneration(message=AIMessage(content=reply))])

    def steps(self) -> list[str]:
        return [step for step, _, _ in self.calls]
