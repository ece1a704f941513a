"""The chain's public API: detect an ambiguity, ask, translate with the answers, verify.

Knows nothing of the terminal, the browser or HTTP; callers pass a langchain chat model
built by ``assistant.backends.load_chat_model``. ``Assistant.start`` opens a step-by-step
``Dialogue`` (the browser answers between steps); ``Assistant.run`` drives one to the end
with a ``User`` (the CLI and the evaluator).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from langchain_core.language_models.chat_models import BaseChatModel

from .backends import ModelSpec, requests_in_flight, supports_structured_output
from .context import ContextPolicy
from .dialogue import Dialogue, KnownQuestions, PreferenceMemory
from .errors import InputError
from .glossary import Glossary
from .inputs import validate_source
from .languages import language_name
from .options import DEFAULT_MAX_QUESTIONS, MAX_QUESTIONS_LIMIT, METHODS, PROMPT_VARIANTS, USER_KINDS, ChainOptions
from .steps import REPAIR_BUDGET, ModelSteps
from .transcript import Transcript, Turn
from .users import NoUser, User, make_user, scripted_then

__all__ = ["METHODS", "PROMPT_VARIANTS", "USER_KINDS", "DEFAULT_MAX_QUESTIONS", "MAX_QUESTIONS_LIMIT", "Assistant",
           "ChainOptions", "Dialogue", "KnownQuestions", "PreferenceMemory", "User", "scripted_then"]


class Assistant:
    """Runs the chain and its baselines on one chat model, under its ``ChainOptions`` unless a request
    brings its own (the web page chooses the method, the questions and the prompts per request).

    in_flight: how many texts of one file to send to the model at once (``requests_in_flight``)."""

    def __init__(self, chat_model: BaseChatModel, model_spec: str, options: ChainOptions = ChainOptions(), *,
                 repair_budget: int = REPAIR_BUDGET, structured_output: bool = False, in_flight: int = 1):
        self.model_spec = str(model_spec)
        self.options = options
        self.in_flight = in_flight
        self.steps = ModelSteps(chat_model, options=options, repair_budget=repair_budget,
                                structured_output=structured_output)

    @classmethod
    def for_model(cls, chat_model: BaseChatModel, spec: ModelSpec, options: ChainOptions = ChainOptions(),
                  **settings) -> "Assistant":
        """An Assistant that uses structured output where the spec's backend supports it, and sends a file's
        texts at once where it batches them."""
        return cls(chat_model, str(spec), options, structured_output=supports_structured_output(spec),
                   in_flight=requests_in_flight(spec), **settings)

    @property
    def chat_model(self) -> BaseChatModel:
        return self.steps.chat_model

    @property
    def context_policy(self) -> ContextPolicy:
        return self.options.context_policy()

    @property
    def structured_output(self) -> bool:
        return self.steps.structured_output

    def start(self, source: str, target_lang: str, options: ChainOptions | None = None, *, context: str | None = None,
              preferences: PreferenceMemory | None = None, glossary: Glossary | None = None,
              alternatives: bool = False, known: KnownQuestions | None = None) -> Dialogue:
        """Validate the request, bound the context, and open a dialogue under ``options`` (the assistant's
        by default); nothing is generated yet.

        ``preferences`` answers the questions it remembers, without asking them again; the
        ``glossary`` entries found in the source are given to the translator and checked;
        ``alternatives``: translate under each option of a skipped question too (else only on
        ``Dialogue.alternatives()``); ``known``: the questions a reading of the whole document found
        (a file's sheet), put without a detection call."""
        options = options or self.options
        language_name(target_lang)
        context = context.strip() if context and context.strip() else None
        if options.method == "with-context" and context is None:
            raise InputError("the with-context method needs a context to read")
        transcript = Transcript(source=validate_source(source), target_lang=target_lang, method=options.method,
                                model=self.model_spec, context=context)
        if glossary is not None:
            transcript.terms = glossary.terms_in(transcript.source)
        if context is not None:
            with transcript.timed("context"):
                transcript.bounded_context = options.context_policy().for_source(context, transcript.source,
                                                                                 target_lang)
        questions = options.max_questions if options.method == "intercpt" else 0
        return Dialogue(self.steps.counted_for(transcript, options), transcript, questions, preferences, alternatives,
                        known)

    def run(self, source: str, target_lang: str, options: ChainOptions | None = None, *, context: str | None = None,
            user: User | None = None, preferences: PreferenceMemory | None = None, glossary: Glossary | None = None,
            alternatives: bool = False, known: KnownQuestions | None = None) -> Transcript:
        """Ask (through ``user``; nobody answers by default), translate and verify in one call."""
        dialogue = self.start(source, target_lang, options, context=context, preferences=preferences,
                              glossary=glossary, alternatives=alternatives, known=known)
        for _ in dialogue.drive(user or NoUser()):
            pass
        return dialogue.transcript

    def user(self, kind: str, target_lang: str, options: ChainOptions | None = None, *, context: str | None = None,
             gold: Mapping[str, str] | None = None, gold_about: str | None = None,
             ask: Callable[[Turn], str | None] | None = None) -> User:
        """Whoever answers the questions (``USER_KINDS``), the one way the front ends make one: a simulated
        user is this assistant's model reading ``context`` under ``options`` (its prompts, how much of the
        context it reads); a simulated user on another model is that model's Assistant's; an oracle answers
        from ``gold``, the labels of the ambiguity type ``gold_about`` where given."""
        return make_user(kind, target_lang=target_lang, options=options or self.options, chat_model=self.chat_model,
                         structured_output=self.structured_output, context=context, gold=gold,
                         gold_about=gold_about, ask=ask)
