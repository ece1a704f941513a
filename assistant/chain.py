"""The chain's public API: detect an ambiguity, ask, translate with the answers, verify.

Knows nothing of the terminal, the browser or HTTP; callers pass a langchain chat model
built by ``assistant.backends.load_chat_model``. ``Assistant.start`` opens a step-by-step
``Dialogue`` (the browser answers between steps); ``Assistant.run`` drives one to the end
with a ``User`` (the CLI and the evaluator).
"""

from __future__ import annotations

from langchain_core.language_models.chat_models import BaseChatModel

from .backends import ModelSpec, supports_structured_output
from .context import ContextPolicy
from .dialogue import Dialogue, PreferenceMemory
from .errors import InputError
from .glossary import Glossary
from .inputs import validate_source
from .languages import language_name
from .options import DEFAULT_MAX_QUESTIONS, MAX_QUESTIONS_LIMIT, METHODS, PROMPT_VARIANTS, ChainOptions
from .steps import REPAIR_BUDGET, ModelSteps
from .transcript import Transcript
from .users import NoUser, User

__all__ = ["METHODS", "PROMPT_VARIANTS", "DEFAULT_MAX_QUESTIONS", "MAX_QUESTIONS_LIMIT", "Assistant", "ChainOptions",
           "Dialogue", "PreferenceMemory"]


class Assistant:
    """Runs the chain and its baselines on one chat model (see ``ModelSteps`` for the options)."""

    def __init__(self, chat_model: BaseChatModel, model_spec: str, *, prompts: str = "generalist",
                 repair_budget: int = REPAIR_BUDGET, structured_output: bool = False,
                 context_policy: ContextPolicy | None = None):
        if prompts not in PROMPT_VARIANTS:
            raise InputError(f"unknown prompt variant {prompts!r}; choose one of: {', '.join(PROMPT_VARIANTS)}")
        self.model_spec = str(model_spec)
        self.steps = ModelSteps(chat_model, prompts=prompts, repair_budget=repair_budget,
                                structured_output=structured_output, context_policy=context_policy)

    @classmethod
    def for_model(cls, chat_model: BaseChatModel, spec: ModelSpec, **options) -> "Assistant":
        """An Assistant that uses structured output where the spec's backend supports it."""
        return cls(chat_model, str(spec), structured_output=supports_structured_output(spec), **options)

    @property
    def chat_model(self) -> BaseChatModel:
        return self.steps.chat_model

    @property
    def context_policy(self) -> ContextPolicy:
        return self.steps.context_policy

    @property
    def structured_output(self) -> bool:
        return self.steps.structured_output

    def start(self, source: str, target_lang: str, *, method: str = "intercpt", context: str | None = None,
              max_questions: int = DEFAULT_MAX_QUESTIONS, preferences: PreferenceMemory | None = None,
              glossary: Glossary | None = None, alternatives: bool = False) -> Dialogue:
        """Validate the request, bound the context, and open a dialogue; nothing is generated yet.

        ``preferences`` answers the questions it remembers, without asking them again; the
        ``glossary`` entries found in the source are given to the translator and checked;
        ``alternatives``: translate under each option of a skipped question too (else only on
        ``Dialogue.alternatives()``)."""
        language_name(target_lang)
        if method not in METHODS:
            raise InputError(f"unknown method {method!r}; choose one of: {', '.join(METHODS)}")
        context = context.strip() if context and context.strip() else None
        if method == "with-context" and context is None:
            raise InputError("the with-context method needs a context to read")
        if not 0 <= max_questions <= MAX_QUESTIONS_LIMIT:
            raise InputError(f"the number of questions must be between 0 and {MAX_QUESTIONS_LIMIT}")
        transcript = Transcript(source=validate_source(source), target_lang=target_lang, method=method,
                                model=self.model_spec, context=context)
        if glossary is not None:
            transcript.terms = glossary.terms_in(transcript.source)
        if context is not None:
            with transcript.timed("context"):
                transcript.bounded_context = self.context_policy.for_source(context, transcript.source, target_lang)
        return Dialogue(self.steps.counted_for(transcript), transcript, max_questions if method == "intercpt" else 0,
                        preferences, alternatives)

    def run(self, source: str, target_lang: str, *, method: str = "intercpt", context: str | None = None,
            user: User | None = None, max_questions: int = DEFAULT_MAX_QUESTIONS,
            preferences: PreferenceMemory | None = None, glossary: Glossary | None = None,
            alternatives: bool = False) -> Transcript:
        """Ask (through ``user``; nobody answers by default), translate and verify in one call."""
        dialogue = self.start(source, target_lang, method=method, context=context, max_questions=max_questions,
                              preferences=preferences, glossary=glossary, alternatives=alternatives)
        for _ in dialogue.drive(user or NoUser()):
            pass
        return dialogue.transcript
