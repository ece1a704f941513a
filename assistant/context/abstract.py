"""The optional abstractive step: a short summary of an extract, written by the chat model.

It is for people (the UI's context panel) and for document mode's rolling summary of what
came before; the simulated user reads the extract itself, never a model's rewording.
"""

from __future__ import annotations

from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.output_parsers import StrOutputParser

from ..backends import GenerationRequest
from ..prompts import load_prompt, tagged

SUMMARY_MAX_TOKENS = 120
EXAMPLE_GROUP = "summary"


class Summarizer:
    """Summarizes English text with ``chat_model``, keeping what decides a translation into ``target_lang``."""

    def __init__(self, chat_model: BaseChatModel, target_lang: str):
        self.chat_model = chat_model
        self.target_lang = target_lang

    def __call__(self, text: str) -> str:
        """The summary of ``text`` (greedy, at most ``SUMMARY_MAX_TOKENS`` model tokens); empty text stays empty."""
        if not text.strip():
            return ""
        prompt = load_prompt("summarize").chat_prompt(self.target_lang, [EXAMPLE_GROUP])
        model = GenerationRequest(max_tokens=SUMMARY_MAX_TOKENS).bound_to(self.chat_model)
        reply = tagged(prompt | model | StrOutputParser(), "summarize").invoke({"text": text})
        return " ".join(reply.split())
