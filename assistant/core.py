"""The translation assistant: prompts a chat model and records everything in a transcript.

Knows nothing of the terminal, the browser or HTTP; every caller passes a langchain
chat model built by ``assistant.backends.load_chat_model``.
"""

from __future__ import annotations

from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.output_parsers import StrOutputParser
from langchain_core.runnables import Runnable, RunnableLambda

from .inputs import validate_source
from .languages import language_name
from .parsing import clean_translation
from .prompts import load_prompt
from .transcript import Transcript

class Assistant:
    """Translates English into a target language on one chat model."""

    def __init__(self, chat_model: BaseChatModel, model_spec: str):
        self.chat_model = chat_model
        self.model_spec = model_spec
        self._translate_prompt = load_prompt("translate")
        self._chains: dict[str, Runnable] = {}

    def translate(self, source: str, target_lang: str) -> Transcript:
        """Translate ``source`` with nothing extra (the paper's no-extra setting)."""
        language_name(target_lang)
        transcript = Transcript(
            source=validate_source(source), target_lang=target_lang, method="no-extra", model=self.model_spec
        )
        with transcript.timed("translate"):
            transcript.translation = self._chain(target_lang).invoke({"source": transcript.source})
        return transcript

    def _chain(self, target_lang: str) -> Runnable:
        if target_lang not in self._chains:
            self._chains[target_lang] = (
                self._translate_prompt.chat_prompt(target_lang)
                | self.chat_model
                | StrOutputParser()
                | RunnableLambda(clean_translation)
            )
        return self._chains[target_lang]
