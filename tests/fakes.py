"""A fake chat model for control-flow tests: replies from per-step queues and records every call."""

from __future__ import annotations

import json
import re
from typing import Any

from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import AIMessage
from langchain_core.outputs import ChatGeneration, ChatResult

from assistant.backends import GenerationRequest
from assistant.prompts import PROMPT_TAG

# The prompt each step's calls are tagged with (see ``assistant.prompts.tagged``).
STEP_OF_PROMPT = {"detect": "detect", "decide": "decide", "user": "user", "summarize": "summary", "translate": "translate",
                  "translate_clarified": "translate", "translate_addressed": "translate", "translate_context": "translate",
                  "rewrite": "translate"}


def prompt_step(run_manager: Any) -> str:
    """The step a call belongs to, read from the prompt tag of the run (never from prompt wording)."""
    for tag in getattr(run_manager, "tags", None) or []:
        for prompt, step in STEP_OF_PROMPT.items():
            if tag == PROMPT_TAG.format(prompt):
                return step
    raise AssertionError(f"a chain call without a known prompt tag: {getattr(run_manager, 'tags', None)}")


class StepFake(BaseChatModel):
    """Routes each call by its prompt's tag to the detect, decide, user, translate or summary reply queue.

    A queue that runs dry repeats its last reply; an empty ``decide`` queue says "yes" (the text
    leaves it open) for every numbered word. ``calls`` keeps (step, messages, the call's ``GenerationRequest``). ``usage``: the
    token counts every reply reports (a LangChain ``usage_metadata``; None: none).
    """

    detect: list[str] = []
    decide: list[str] = []
    user: list[str] = []
    translate: list[str] = []
    summary: list[str] = []
    calls: list[tuple[str, list, GenerationRequest]] = []
    usage: dict | None = None

    @property
    def _llm_type(self) -> str:
        return "step-fake"

    def _generate(self, messages, stop=None, run_manager=None, **kwargs: Any) -> ChatResult:
        step = prompt_step(run_manager)
        self.calls.append((step, messages, GenerationRequest.of(kwargs)))
        queue = getattr(self, step)
        if step == "decide" and not queue:
            words = re.findall(r"^(\d+)\. ", messages[-1].content, flags=re.MULTILINE)
            queue = [json.dumps({number: "yes" for number in words})]
        reply = queue.pop(0) if len(queue) > 1 else queue[0]
        return ChatResult(generations=[ChatGeneration(message=AIMessage(content=reply, usage_metadata=self.usage))])

    def steps(self) -> list[str]:
        return [step for step, _, _ in self.calls]
